// The candidate guard rules (src/targets/candidates) on tiny traces: what stops a run and what
// does not. They are candidates, shipped by no runtime; their summaries must say so.
import { describe, expect, it } from "vitest";
import { configFrom } from "../models/configResolution.js";
import type { ToolEvent } from "../models/events.js";
import { CANDIDATE_TARGETS } from "../src/targets/candidates/index.js";
import { findBuiltInTarget } from "../src/targets/registry.js";
import { runTarget, type Target } from "../src/targets/target.js";
import { rowNames } from "../src/compare/rows.js";

const config = configFrom({ enabled: true });
const target = (name: string): Target => {
  const t = findBuiltInTarget(name);
  if (t === undefined) throw new Error(name);
  return t;
};
const exec = (command: string, output: string, exitCode: number): ToolEvent[] => {
  const callId = `c-${command}`;
  return [
    { type: "call", runId: "r", callId, tool: "bash", params: { command } },
    { type: "outcome", runId: "r", callId, tool: "bash", params: { command }, result: { content: [{ type: "text", text: output }], details: { status: exitCode === 0 ? "completed" : "failed", exitCode } } },
  ];
};
/** The event index of the run's stop, or -1. */
const stopAt = (name: string, events: readonly ToolEvent[]) => runTarget(target(name), config, events).find((o) => o.kind === "abort")?.index ?? -1;

describe("candidate:failure-signature:N", () => {
  it("stops at the Nth same failure, whatever the args, a varying line number included", () => {
    const events = [1, 2, 3].flatMap((k) => exec(`python run${k}.py`, `  File "x.py", line ${10 + k}\nModuleNotFoundError: No module named 'foo'`, 1));
    expect(stopAt("candidate:failure-signature:3", events)).toBe(5);
    expect(stopAt("candidate:failure-signature:4", events)).toBe(-1);
  });
  it("does not stop on different failures, on successes, or on failures further apart than its window", () => {
    const different = [1, 2, 3].flatMap((k) => exec(`python run${k}.py`, `NameError: name 'v${"abc"[k - 1]}' is not defined`, 1));
    expect(stopAt("candidate:failure-signature:3", different)).toBe(-1);
    const succeeded = [1, 2, 3].flatMap((k) => exec(`grep -n x f${k}`, "no match", 0));
    expect(stopAt("candidate:failure-signature:3", succeeded)).toBe(-1);
    const fail = (k: number) => exec(`make t${k}`, "error: missing separator", 2);
    const between = (k: number) => [1, 2, 3, 4].flatMap((j) => exec(`cat f${k}-${j}`, `line ${k}${j} differs`, 0));
    // Three failures, four other answers between each: never 3 within the last 6 answers.
    expect(stopAt("candidate:failure-signature:3", [...fail(1), ...between(1), ...fail(2), ...between(2), ...fail(3)])).toBe(-1);
    // One answer between each: 3 within 6, stopped at the third.
    const close = [...fail(1), ...exec("cat a", "a", 0), ...fail(2), ...exec("cat b", "b", 0), ...fail(3)];
    expect(stopAt("candidate:failure-signature:3", close)).toBe(close.length - 1);
  });
  it("counts a tool's error (not only exit codes), across the session's runs (a user's reply between two attempts)", () => {
    const err = (k: number, runId: string): ToolEvent[] => [
      { type: "call", runId, callId: `e${k}`, tool: "browser", params: { click: k } },
      { type: "outcome", runId, callId: `e${k}`, tool: "browser", params: { click: k }, error: `Element ${k} not found (request ${1000 + k})` },
    ];
    expect(stopAt("candidate:failure-signature:3", [...err(1, "a"), ...err(2, "b"), ...err(3, "c")])).toBe(5);
    expect(stopAt("candidate:failure-signature:3", [...err(1, "a"), ...err(2, "a")])).toBe(-1);
    // The stop ends the session: a later run's call is not judged.
    const after = runTarget(target("candidate:failure-signature:3"), config, [...err(1, "a"), ...err(2, "b"), ...err(3, "c"), ...err(4, "d")]);
    expect(after.filter((o) => o.kind === "ignored").map((o) => o.run)).toEqual(["d", "d"]);
  });
});

describe("candidate:no-effect:N", () => {
  it("stops at the Nth same answer that did not fail, whatever the args", () => {
    const clicks = [4, 7, 9].flatMap((k) => exec(`click #item-${k}`, "Page unchanged: Search results (0 items)", 0));
    expect(stopAt("candidate:no-effect:3", clicks)).toBe(5);
  });
  it("never counts an empty answer or a failure", () => {
    const edits = [1, 2, 3, 4].flatMap((k) => exec(`sed -i s/a/b/ f${k}`, "", 0));
    expect(stopAt("candidate:no-effect:3", edits)).toBe(-1);
    const failures = [1, 2, 3].flatMap((k) => exec(`run ${k}`, "Error: same", 1));
    expect(stopAt("candidate:no-effect:3", failures)).toBe(-1);
  });
});

describe("candidate:recheck:N", () => {
  it("stops at the Nth same answer to the same question with nothing written between, reads in between allowed", () => {
    const view = (range: string) => exec(`sed -n '${range}p' src/a.py`, "def f():\n    return 1", 0);
    const events = [...view("1,2"), ...exec("ls", "a.py b.py", 0), ...view("1,3"), ...view("1,2")];
    expect(stopAt("candidate:recheck:3", events)).toBe(7);
  });
  it("does not stop when an edit comes between (the reproduce script after each change is work), nor on a new file written", () => {
    const run = () => exec("python repro.py", "Traceback ...\nValueError: bad", 1);
    const edited = [...run(), ...exec("sed -i s/a/b/ src/a.py", "", 0), ...run(), ...exec("sed -i s/b/c/ src/a.py", "", 0), ...run()];
    expect(stopAt("candidate:recheck:3", edited)).toBe(-1);
    const scratch = [1, 2, 3].flatMap((k) => exec(`cat > t${k}.py <<'EOF'\nprint(1)\nEOF`, "", 0));
    expect(stopAt("candidate:recheck:3", scratch)).toBe(-1);
  });
});

describe("candidate names", () => {
  it("resolve as targets, say they are candidates, and refuse settings out of range", () => {
    expect(findBuiltInTarget("candidate:no-effect:5")?.name).toBe("candidate:no-effect:5");
    expect(findBuiltInTarget("candidate:failure-signature:1")).toBeUndefined();
    expect(findBuiltInTarget("candidate:failure-signature:51")).toBeUndefined();
    expect(findBuiltInTarget("candidate:other:3")).toBeUndefined();
    expect(findBuiltInTarget("candidate:recheck:3")?.name).toBe("candidate:recheck:3");
    for (const t of CANDIDATE_TARGETS) expect(t.summary).toMatch(/^candidate rule, shipped by no runtime/);
    expect(rowNames("openclaw-enabled,candidates")).toEqual(["openclaw-enabled", ...CANDIDATE_TARGETS.map((t) => t.name)]);
  });
  it("is deterministic: the same trace gives the same outputs", () => {
    const events = [1, 2, 3].flatMap((k) => exec(`python run${k}.py`, `line ${k}: boom`, 1));
    expect(JSON.stringify(runTarget(target("candidate:failure-signature:3"), config, events))).toBe(JSON.stringify(runTarget(target("candidate:failure-signature:3"), config, events)));
  });
});

describe("candidate:no-new-fact:N", () => {
  it("stops at the Nth hearing of one fact with nothing changed between: the same patch file written again, the same failure whatever the args", () => {
    const patch = "cat > fix.patch << 'EOF'\n--- a/r.py\n+++ b/r.py\n@@ -1 +1 @@\n-return None\n+raise Http404\nEOF";
    const write = (k: number): ToolEvent[] => [
      { type: "call", runId: "r", callId: `w${k}`, tool: "bash", params: { command: patch } },
      { type: "outcome", runId: "r", callId: `w${k}`, tool: "bash", params: { command: patch }, result: { content: [{ type: "text", text: "" }], details: { status: "completed", exitCode: 0 } } },
    ];
    const view = exec("sed -n '250,270p' r.py", "def match(self, path):\n    return None", 0);
    const rewritten = [...write(1), ...write(2), ...view, ...write(3)];
    expect(stopAt("candidate:no-new-fact:3", rewritten)).toBe(rewritten.length - 1);
    const failures = [1, 2, 3].flatMap((k) => exec(`python run${k}.py`, `  File "x.py", line ${10 + k}\nModuleNotFoundError: No module named 'foo'`, 1));
    expect(stopAt("candidate:no-new-fact:3", failures)).toBe(5);
  });
  it("does not stop when a change took effect between (an edit, then the same failure is work), nor on different facts", () => {
    const fail = (k: number) => exec(`python repro${k}.py`, "ValueError: bad value", 1);
    const edit = (k: number) => exec(`sed -i 's/a${k}/b${k}/' src/m.py`, "", 0);
    expect(stopAt("candidate:no-new-fact:3", [...exec("cat src/m.py", "a1 a2", 0), ...fail(1), ...edit(1), ...fail(2), ...edit(2), ...fail(3)])).toBe(-1);
    const reads = [1, 2, 3].flatMap((k) => exec(`sed -n '${k},${k + 5}p' src/m.py`, `line ${"abc"[k - 1]} of the file`, 0));
    expect(stopAt("candidate:no-new-fact:3", reads)).toBe(-1);
    expect(CANDIDATE_TARGETS.map((t) => t.name)).not.toContain("candidate:no-new-fact:3");
  });
});
