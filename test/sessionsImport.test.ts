// Real sessions without loss: every command that ran is a call (timeouts, the final submit), the
// whole output is the result, format errors and harness steps are counted and are not calls, one
// definition of a failed call; Agent Data Protocol files, one session per trajectory; folders
// that survive unreadable files; a --format that contradicts the content is exit 2; stdin takes
// any format.
import { describe, expect, it } from "vitest";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runStats } from "../src/calibrate/runStats.js";
import { openSession } from "../src/import/session.js";
import { sessionRefs } from "../src/import/sessionRefs.js";
import type { ToolEvent } from "../models/events.js";
import { loopsim, tempDir } from "./cli/run.js";

const FIXTURES = join(import.meta.dirname, "fixtures", "sessions");
const CORPUS = join(import.meta.dirname, "..", "..", "shared", "corpus");
const HAVE_CORPUS = existsSync(CORPUS);
if (!HAVE_CORPUS) console.log(`SKIPPED: the corpus-with-bad-files test needs ../shared/corpus, which is not here (${CORPUS})`);

async function read(ref: string) {
  const opened = await openSession(ref);
  const events: ToolEvent[] = [];
  const at: string[] = [];
  for await (const e of opened.events) {
    events.push(e.event);
    at.push(e.at);
  }
  return { opened, events, at };
}

const textOf = (e: ToolEvent | undefined): string => (e?.type === "outcome" ? String((e.result as { content: { text: string }[] }).content[0]?.text) : "");

describe("mini-swe-agent: every command that ran", () => {
  it("imports timed-out commands as calls, counted as failed by the one definition; the submission answers nothing", async () => {
    const { opened, events } = await read(join(FIXTURES, "mini-timeouts.traj.json"));
    // The final submit is echoed back as the patch, not an observation: not a call (issue 35's convention).
    expect(opened.stats).toMatchObject({ calls: 28, outcomes: 28, errors: 25, formatErrors: 2 });
    const calls = events.filter((e) => e.type === "call");
    expect(calls.at(-1)).not.toMatchObject({ params: { command: "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git diff" } });
    expect(events.filter((e) => e.type === "outcome").slice(0, 25).every((e) => e.type === "outcome" && (e.result as { details: { status: string } }).details.status === "timeout")).toBe(true);
    // calibrate reads the same failures: 25 of 28 outcomes.
    expect(runStats(events)[0]?.errorRate).toBeCloseTo(25 / 28, 6);
  });
  it("keeps the whole output: head, the elided marker and tail, so two reads of a changed file differ", async () => {
    const { events } = await read(join(FIXTURES, "mini-timeouts.traj.json"));
    const cats = events.filter((e, i) => e.type === "outcome" && events[i - 1]?.type === "call" && JSON.stringify(events[i - 1]).includes("cat src/app.py"));
    expect(cats).toHaveLength(2);
    expect(textOf(cats[0])).toContain("<output_head>");
    expect(textOf(cats[0])).toContain("1200 characters elided");
    expect(textOf(cats[0])).toContain("revision 1");
    expect(textOf(cats[1])).toContain("revision 2");
  });
  it("the summary line says what was not a call", () => {
    const r = loopsim(["import", join(FIXTURES, "mini-timeouts.traj.json"), "--out", join(tempDir(), "t.jsonl")]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/28 calls, 28 outcomes \(25 errors, 0 orphan\).*2 format errors \(/);
  });
});

describe("SWE-agent: malformed actions and harness steps are not calls", () => {
  it("counts the DISCUSSION step as a format error and exit_cost as a harness step; a timeout is a failure", async () => {
    const { opened, events } = await read(join(FIXTURES, "swe-agent-malformed.traj"));
    expect(events.filter((e) => e.type === "call").map((e) => (e.type === "call" ? e.tool : ""))).toEqual(["open", "python"]);
    expect(opened.stats).toMatchObject({ calls: 2, outcomes: 2, errors: 1, formatErrors: 1, harnessSteps: 1 });
  });
});

describe("Agent Data Protocol", () => {
  it("is detected; each trajectory is a session named file#id, repeated ids told apart by occurrence", async () => {
    const { refs } = await sessionRefs([join(FIXTURES, "adp-mini.json")]);
    expect(refs.map((r) => r.id)).toEqual(["t1", "dup", "dup~2"].map((id) => `${join(FIXTURES, "adp-mini.json")}#${id}`));
    const folder = await sessionRefs([FIXTURES]);
    expect(folder.refs.filter((r) => r.id.startsWith("adp-mini.json#")).map((r) => r.id)).toEqual(["adp-mini.json#t1", "adp-mini.json#dup", "adp-mini.json#dup~2"]);
  });
  it("api_action and code_action are calls, the next observation their outcome; ERROR: and a non-zero exit code are failures", async () => {
    const { opened, events, at } = await read(`${join(FIXTURES, "adp-mini.json")}#t1`);
    expect(opened.format).toBe("adp");
    expect(events.filter((e) => e.type === "call").map((e) => (e.type === "call" ? [e.tool, e.params] : []))).toEqual([
      ["bash", { command: "pytest -x" }],
      ["str_replace_editor", { command: "view", path: "/w/a.py" }],
      ["finish", {}],
    ]);
    expect(opened.stats).toMatchObject({ calls: 3, outcomes: 2, errors: 2, runs: 1 });
    expect(events[0]?.runId).toBe("t1");
    expect(at[0]).toMatch(/adp-mini\.json#\[0\]\.content\[1\]$/);
    const second = await read(`${join(FIXTURES, "adp-mini.json")}#dup~2`);
    expect(second.events[0]).toMatchObject({ type: "call", tool: "python", params: { code: "print(1)" }, runId: "dup~2" });
  });
});

/** A folder with good sessions and three bad files: cut short, binary, empty. */
function folderWithBadFiles(): string {
  const dir = join(tempDir(), "sessions");
  mkdirSync(dir);
  copyFileSync(join(FIXTURES, "pi-tree.jsonl"), join(dir, "pi-tree.jsonl"));
  copyFileSync(join(FIXTURES, "mini-timeouts.traj.json"), join(dir, "mini-timeouts.traj.json"));
  writeFileSync(join(dir, "cut.traj.json"), readFileSync(join(FIXTURES, "mini-timeouts.traj.json"), "utf8").slice(0, 2000));
  writeFileSync(join(dir, "binary.jsonl"), Buffer.from([0x7b, 0x00, 0xff, 0x10, 0x00, 0x22]));
  writeFileSync(join(dir, "empty.jsonl"), "");
  return dir;
}

describe("folders that survive bad files", () => {
  it("scan reports every good session, lists each bad file with why, and exits 1; --strict stops at the first with exit 2", () => {
    const dir = folderWithBadFiles();
    const r = loopsim(["scan", dir, "--json"]);
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout) as { sessions: { id: string }[]; unreadable: { file: string; reason: string }[]; summary: { unreadable: number } };
    expect(report.sessions.map((s) => s.id).sort()).toEqual(["mini-timeouts.traj.json", "pi-tree.jsonl"]);
    expect(report.summary.unreadable).toBe(3);
    const reasons = Object.fromEntries(report.unreadable.map((b) => [b.file.slice(dir.length + 1), b.reason]));
    expect(reasons["cut.traj.json"]).toMatch(/cut short: the document ends at byte 2000/);
    expect(reasons["binary.jsonl"]).toMatch(/binary content/);
    expect(reasons["empty.jsonl"]).toMatch(/empty file/);
    expect(r.stderr).toMatch(/3 unreadable files skipped; the other 2 sessions are in the report/);
    const strict = loopsim(["scan", dir, "--strict"]);
    expect(strict.code).toBe(2);
    expect(strict.stderr.trim().split("\n")).toHaveLength(1);
  });
  it("import writes every good session, no partial trace for a bad one, and exits 1", () => {
    const dir = folderWithBadFiles();
    const out = join(tempDir(), "traces");
    const r = loopsim(["import", dir, "--out", out]);
    expect(r.code, r.stderr).toBe(1);
    expect(existsSync(join(out, "pi-tree.jsonl"))).toBe(true);
    expect(existsSync(join(out, "mini-timeouts.jsonl"))).toBe(true);
    expect(existsSync(join(out, "cut.jsonl"))).toBe(false);
    expect(r.stderr).toMatch(/cut\.traj\.json: skipped: not valid JSON/);
  });
  it("tune --sessions and calibrate go on past a bad file, report it and exit 1", () => {
    const dir = folderWithBadFiles();
    const out = tempDir();
    const tune = loopsim(["tune", "--agents", "8", "--grid", "warningThreshold=5", "--sessions", dir, "--out", out, "--force"]);
    expect(tune.code, tune.stderr).toBe(1);
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8")) as { sessions: { count: number; unreadable: unknown[] } };
    expect(report.sessions.count).toBe(2);
    expect(report.sessions.unreadable).toHaveLength(3);
    const calibrate = loopsim(["calibrate", dir, "--agents", "8", "--json"]);
    expect(calibrate.code).toBe(1);
    expect((JSON.parse(calibrate.stdout) as { sessions: { files: number } }).sessions.files).toBe(2);
  });
  it.skipIf(!HAVE_CORPUS)("scan of the whole corpus (ADP included) with a truncated, a binary and an empty file added prints every good session and exits 1", async () => {
    const bad = folderWithBadFiles();
    const good = (await sessionRefs([CORPUS])).refs.length;
    const r = loopsim(["scan", CORPUS, bad, "--json"]);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as { sessions: unknown[]; unreadable: unknown[] };
    expect(report.sessions).toHaveLength(good + 2);
    expect(report.unreadable).toHaveLength(3);
    expect(good).toBeGreaterThan(175);
  });
});

describe("--format and stdin", () => {
  it("a --format the content contradicts is exit 2, not 0 calls", () => {
    const file = join(FIXTURES, "mini-timeouts.traj.json");
    for (const args of [["trace", file, "--format", "claude-code"], ["import", file, "--format", "codex"], ["scan", file, "--format", "swe-agent"], ["trace", file, "--format", "trace"]]) {
      const r = loopsim(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(/--format \S+, but the content is a mini-swe-agent session/);
    }
  });
  it("trace - and scan - take any format on stdin with --format", () => {
    const input = readFileSync(join(FIXTURES, "mini-timeouts.traj.json"), "utf8");
    const viaStdin = loopsim(["trace", "-", "--format", "mini-swe-agent", "--json"], input);
    expect(viaStdin.code, viaStdin.stderr).toBe(0);
    const direct = loopsim(["trace", join(FIXTURES, "mini-timeouts.traj.json"), "--json"]);
    // The run is named after the file; stdin has no name, so only the run names differ.
    const runless = (text: string) => text.replace(/"runId":"[^"]*"/g, '"runId":"-"');
    expect(runless(viaStdin.stdout)).toBe(runless(direct.stdout));
    expect(viaStdin.stderr).toMatch(/<stdin>: mini-swe-agent, 28 calls/);
    const auto = loopsim(["trace", "-", "--format", "auto", "--json"], input);
    expect(runless(auto.stdout)).toBe(runless(direct.stdout));
    const scan = loopsim(["scan", "-", "--json"], input);
    expect(scan.code, scan.stderr).toBe(0);
    expect((JSON.parse(scan.stdout) as { sessions: { id: string; stats: { calls: number } }[] }).sessions[0]).toMatchObject({ id: "<stdin>", stats: { calls: 28 } });
  });
});
