// --reaction-grid on compare (tune's grounded runs take it the same way, by default): the
// sensitivity section in json, md and html, the same bytes for one thread or two, and user
// mistakes in one line with exit 2. --reaction fitted refuses, saying how many interventions the
// sessions hold, and calibrate --fit-reaction prints them.
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loopsim, tempDir } from "./run.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "sessions");

function sessionsDir(): string {
  const dir = tempDir();
  for (const f of ["swe-agent-example.traj", "pi-tree.jsonl", "mini-timeouts.traj.json"]) copyFileSync(join(FIXTURES, f), join(dir, f));
  return dir;
}

describe("compare --reaction-grid", () => {
  const dir = sessionsDir();
  const args = ["compare", "--targets", "openclaw-enabled,gemini-cli,none", "--population", `sessions:${dir}`, "--inject", "repeat,poll@5-12", "--reaction-grid", "3x2"];

  it("recomputes every pairwise order at each point, the same bytes for one thread or two", () => {
    const one = tempDir();
    const two = tempDir();
    const a = loopsim([...args, "--out", one, "--workers", "1"]);
    expect(a.code, a.stderr).toBe(0);
    const b = loopsim([...args, "--out", two, "--workers", "2"]);
    expect(b.code, b.stderr).toBe(0);
    for (const f of ["compare.json", "compare.md", "compare.html"]) expect(readFileSync(join(two, f), "utf8")).toBe(readFileSync(join(one, f), "utf8"));
    const report = JSON.parse(readFileSync(join(one, "compare.json"), "utf8")) as { reproduce: string; rows: Record<string, unknown>[]; reactionSensitivity: { grid: { points: unknown[] }; measures: { pairs: number; holding: number; flipped: unknown[] }[]; cost: { ordinaryRuns: number; extraRuns: number; naiveExtraRuns: number } } };
    const s = report.reactionSensitivity;
    expect(s.grid.points).toHaveLength(1 + 6);
    expect(s.measures.map((m) => m.pairs)).toEqual([3, 3, 3]);
    for (const m of s.measures) expect(m.holding + m.flipped.length).toBe(m.pairs);
    expect(s.cost.extraRuns).toBeLessThan(s.cost.naiveExtraRuns);
    expect(report.rows.every((r) => !("reactionGrid" in r))).toBe(true);
    expect(report.reproduce).toContain("--reaction-grid 3x2");
    expect(readFileSync(join(one, "compare.md"), "utf8")).toMatch(/## Reaction sensitivity\n\nEvery pairwise order of the guards on each headline measure, recomputed at each of 6 reaction models/);
  });

  it("refuses a bad grid, and a grid without real sessions, in one line each", () => {
    const bad = loopsim([...args.slice(0, -1), "3x", "--out", tempDir()]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    const simulated = loopsim(["compare", "--targets", "none", "--agents", "12", "--reaction-grid", "3x3"]);
    expect(simulated.code).toBe(2);
    expect(simulated.stderr.trim()).toMatch(/--reaction-grid 3x3: applies to real sessions/);
  });

  it("--reaction fitted refuses with the count of interventions; calibrate --fit-reaction prints it", () => {
    const fitted = loopsim([...args.slice(0, -2), "--reaction", "fitted"]);
    expect(fitted.code).toBe(2);
    expect(fitted.stderr.trim()).toMatch(/--reaction fitted: 3 sessions under .* hold 0 guard interventions \(0 warnings, 0 blocks\); fitting needs at least 20/);
    const out = tempDir();
    const c = loopsim(["calibrate", dir, "--fit-reaction", "--out", out]);
    expect(c.code, c.stderr).toBe(0);
    expect(c.stdout).toMatch(/3 sessions read from .*; 0 guard interventions found, in 0 sessions\./);
    expect(JSON.parse(readFileSync(join(out, "reaction-fit.json"), "utf8"))).toMatchObject({ schema: "loopsim/reaction-fit@1", interventions: 0 });
  });
});
