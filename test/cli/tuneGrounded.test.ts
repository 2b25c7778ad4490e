// tune, compare and calibrate on populations grounded in real sessions: closed-loop session
// agents with injected loops as the main population, or beside the simulated one with the
// "where they disagree" section; the same bytes for any number of threads; user mistakes are one
// line with exit 2.
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { loopsim, tempDir, tempFile } from "./run.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "sessions");
const GOOD = ["swe-agent-example.traj", "pi-tree.jsonl", "claude-parallel.jsonl", "mini-timeouts.traj.json", "codex-outstanding.jsonl"];

/** The good fixtures, and a session with no call at all (nothing to run as an agent: passed over, in threads too). */
function sessionsDir(): string {
  const dir = tempDir();
  for (const f of GOOD) copyFileSync(join(FIXTURES, f), join(dir, f));
  writeFileSync(join(dir, "a-no-call.jsonl"), `${readFileSync(join(FIXTURES, "claude-parallel.jsonl"), "utf8").split("\n")[0]}\n`);
  return dir;
}

const GRID = "criticalThreshold=10,20";

describe("tune --population sessions:PATH", () => {
  const dir = sessionsDir();

  it("runs every config on the sessions as agents, with a catch rate per injected shape, the same bytes for one thread or two", () => {
    const one = tempDir();
    const two = tempDir();
    const a = loopsim(["tune", "--population", `sessions:${dir}`, "--inject", "default@5-12", "--grid", GRID, "--out", one, "--workers", "1"]);
    expect(a.code, a.stderr).toBe(0);
    const b = loopsim(["tune", "--population", `sessions:${dir}`, "--inject", "default@5-12", "--grid", GRID, "--out", two, "--workers", "2"]);
    expect(b.code, b.stderr).toBe(0);
    for (const f of ["report.json", "report.md", "report.html"]) expect(readFileSync(join(two, f), "utf8")).toBe(readFileSync(join(one, f), "utf8"));
    const report = JSON.parse(readFileSync(join(one, "report.json"), "utf8")) as { grounded: { sessions: number; inject: { shapes: string[]; lengths: { min: number; max: number } }; reactionText: string }; reproduce: string; rows: { metrics: { byFamily: Record<string, { agents: number }> } }[] };
    expect(report.grounded.sessions).toBe(GOOD.length);
    expect(report.grounded.inject.lengths).toMatchObject({ min: 5, max: 12 });
    expect(report.grounded.reactionText).toMatch(/^warning: go on 60%, skip 35%, end 5%; block: /);
    expect(Object.keys(report.rows[0]?.metrics.byFamily ?? {}).sort()).toEqual(["inject:near-duplicate", "inject:overflow-relapse", "inject:ping-pong", "inject:poll", "inject:repeat", "inject:unknown-tool", "inject:volatile", "session"]);
    expect(report.reproduce).toContain("--inject default@5-12");
    const md = readFileSync(join(one, "report.md"), "utf8");
    expect(md).toMatch(/5 real sessions run as closed-loop agents per config \(40 agents with the injected copies\)/);
    expect(md).toContain("**By injected shape:");
    expect(md).not.toContain("## By family"); // no simulated families here
  });

  it("reads a sessions population file (paths relative to it), and names a bad reaction by its JSON path", () => {
    const out = tempDir();
    const home = tempDir();
    const good = join(home, "pop.json");
    writeFileSync(good, JSON.stringify({ name: "mine", sessions: relative(home, dir), inject: "repeat", reaction: { block: [0, 1, 0] } }));
    const r = loopsim(["tune", "--population", good, "--grid", GRID, "--out", out], undefined, tempDir());
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(out, "report.md"), "utf8")).toMatch(/block: go on 0%, skip 100%, end 0%/);
    const bad = tempFile("bad.json", JSON.stringify({ sessions: dir, reaction: { block: [0.5, 0.5, 0.5], blok: [1, 0, 0] } }));
    const e = loopsim(["tune", "--population", bad, "--grid", GRID, "--out", tempDir()]);
    expect(e.code).toBe(2);
    expect(e.stderr).toMatch(/reaction\.block: go on, skip and end must add up to 1/);
    expect(e.stderr).toMatch(/reaction\.blok: unknown signal/);
    expect(e.stderr).not.toMatch(/\n\s+at /);
  });

  it("refuses --inject without real sessions, and a bad --reaction, in one line each", () => {
    const a = loopsim(["tune", "--inject", "default", "--out", tempDir()]);
    expect(a.code).toBe(2);
    expect(a.stderr.trim()).toMatch(/--inject default: applies to real sessions: --population sessions:PATH/);
    const b = loopsim(["tune", "--population", `sessions:${dir}`, "--reaction", "block=1/1/1", "--out", tempDir()]);
    expect(b.code).toBe(2);
    expect(b.stderr.trim().split("\n")).toHaveLength(1);
  });
});

describe("tune --sessions PATH --inject SPEC beside the simulated population", () => {
  it("adds the grounded numbers to every row and says where the two evidences disagree", () => {
    const dir = sessionsDir();
    const out = tempDir();
    const r = loopsim(["tune", "--sessions", dir, "--inject", "repeat,poll@5-12", "--grid", GRID, "--agents", "48", "--out", out]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8")) as { rows: { grounded?: unknown; sessions?: unknown }[]; disagreements: { rule: string; picks: { goal: string }[]; places: number } };
    expect(report.rows.every((row) => row.grounded !== undefined && row.sessions !== undefined)).toBe(true);
    expect(report.disagreements.picks.map((p) => p.goal)).toEqual(["strict", "balanced", "lenient"]);
    expect(report.disagreements.places).toBe(3);
    const md = readFileSync(join(out, "report.md"), "utf8");
    for (const section of ["## Recorded sessions", "## Real sessions as agents, with injected loops", "## Where they disagree", "## By family"]) expect(md).toContain(section);
    const html = readFileSync(join(out, "report.html"), "utf8");
    expect(html).toContain("<h2>Where they disagree</h2>");
  });
});

describe("tune --shard on real sessions as agents", () => {
  it("merges into exactly the unsharded report", () => {
    const dir = tempDir();
    copyFileSync(join(FIXTURES, "swe-agent-example.traj"), join(dir, "swe-agent-example.traj"));
    const args = ["tune", "--population", `sessions:${dir}`, "--inject", "repeat,poll@5-12", "--grid", "criticalThreshold=10,16"];
    const full = tempDir();
    const parts = tempDir();
    const merged = tempDir();
    expect(loopsim([...args, "--out", full]).code).toBe(0);
    expect(loopsim([...args, "--shard", "1/2", "--out", parts]).code).toBe(0);
    expect(loopsim([...args, "--shard", "2/2", "--out", parts]).code).toBe(0);
    expect(loopsim(["merge", parts, "--out", merged]).code).toBe(0);
    for (const f of ["report.json", "report.md", "report.html"]) expect(readFileSync(join(merged, f), "utf8")).toBe(readFileSync(join(full, f), "utf8"));
  });
});

describe("compare and calibrate on real sessions as agents", () => {
  it("compare --population sessions:PATH --inject runs every guard on the same sessions and injected loops", () => {
    const dir = sessionsDir();
    const r = loopsim(["compare", "--targets", "openclaw-default,openclaw-enabled", "--population", `sessions:${dir}`, "--inject", "repeat,unknown-tool@12-12", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { grounded: { sessions: number }; rows: { name: string; metrics: { byFamily: Record<string, { caughtShare: number }> } }[] };
    expect(report.grounded.sessions).toBe(GOOD.length);
    const enabled = report.rows.find((row) => row.name === "openclaw-enabled");
    expect(enabled?.metrics.byFamily["inject:unknown-tool"]?.caughtShare).toBe(1); // 12 unknown-tool retries pass the default threshold of 10
    const md = loopsim(["compare", "--targets", "openclaw-default,openclaw-enabled", "--population", `sessions:${dir}`, "--inject", "repeat@12-12"]).stdout;
    expect(md).toContain("## Real sessions as agents");
    expect(md).toMatch(/\| inject:repeat \| stuck \|/);
  });

  it("calibrate --population sessions:PATH compares the sessions run as agents (none injected: distance 0) with themselves", () => {
    const dir = sessionsDir();
    const r = loopsim(["calibrate", dir, "--population", `sessions:${dir}`, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { rows: { distance: number }[]; simulation: { kind: string } };
    expect(report.simulation.kind).toBe("sessions");
    expect(report.rows.every((row) => row.distance === 0)).toBe(true);
  });
});
