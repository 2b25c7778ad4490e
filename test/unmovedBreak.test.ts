// The unmoved-break rule (src/realLoops/unmovedBreak.ts, round 7) on tiny sessions: repairs after
// each of which the check reports the same parse error at the same line, and beside each case the
// near neighbour it must not flag (the error moved, a test failing the same way, the agent's own
// script unparsed, a run between that said something new, two sightings only, no repair between).
// Written for these tests; no dataset is copied.
import { describe, expect, it } from "vitest";
import type { ToolEvent } from "../models/events.js";
import { factCallOf } from "../src/import/facts.js";
import { DEFAULT_MINE_PARAMETERS, kindOfRule, minimumLength, mineStretches } from "../src/realLoops/mine.js";
import { breakOf } from "../src/realLoops/unmovedBreak.js";
import { session } from "./fixtures/noNewFactSessions.js";

/** Every stretch, as `RULE FIRST-LAST`: the new rule must leave the others' stretches as they were. */
const mined = (events: ToolEvent[]) => mineStretches(events).map((s) => `${s.rule} ${s.firstCall}-${s.lastCall}`);

type Call = [string, string, number?];
const compile = (line: number): Call => ["python -m py_compile a.py", `Sorry: IndentationError: expected an indented block (a.py, line ${line})`, 1];
/** pytest failing at collection: the file it imports cannot be parsed. */
const collect = (line: number): Call => [
  "pytest -q tests/test_a.py",
  `==================================== ERRORS ====================================\n_____ ERROR collecting tests/test_a.py _____\nE     File "/testbed/pkg/a.py", line ${line}\nE       settings_module = os.environ.get(NAME)\nE       ^\nE   IndentationError: expected an indented block\n!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!\n1 error in 0.0${line % 10}s`,
  2,
];
/** A repair of another part of a.py, each one different, whose effect the answer does not show. */
const repair = (n: number): Call => [`sed -i 's/${["alpha", "beta", "gamma", "delta", "epsilon"][n] as string}/omega/' a.py`, ""];
const view: Call = ["nl -ba a.py | sed -n '225,230p'", "   225\tclass W:\n   226\t    def get_context(self, name):\n   227\t        if x:\n   228\t        return 1"];

describe("unmoved-break: what it flags", () => {
  it("py_compile's same error at the same line after each repair: from the first repair to the last check", () => {
    expect(mined(session([compile(228), repair(0), compile(228), repair(1), compile(228)]))).toEqual(["unmoved-break 1-4"]);
    expect(kindOfRule("unmoved-break")).toBe("changing-args");
    expect(minimumLength("unmoved-break", DEFAULT_MINE_PARAMETERS)).toBe(3);
  });

  it("py_compile's short report, then a traceback that prints the line: one break", () => {
    const imported: Call = ["python -c 'import a'", 'Traceback (most recent call last):\n  File "<string>", line 1, in <module>\n  File "/w/a.py", line 228\n    if self.check_test(value):\n    ^\nIndentationError: expected an indented block', 1];
    expect(mined(session([compile(228), repair(0), imported, repair(1), imported]))).toEqual(["unmoved-break 1-4"]);
  });

  it("a test run's collection error, with a view of the file between repairs", () => {
    expect(mined(session([collect(50), repair(0), view, collect(50), repair(1), collect(50)]))).toEqual(["unmoved-break 1-5"]);
  });

  it("a repair with its check chained after it, sent three times with views between: from the second", () => {
    const chained = (n: number): Call => [
      `git checkout -- a.py && sed -i '/try:/i\\ if ${["x", "y", "z"][n] as string}:' a.py && python -c 'import a'`,
      'Traceback (most recent call last):\n  File "<string>", line 1, in <module>\n  File "/testbed/a.py", line 430\n    if isinstance(object, enum.Enum):\n    ^\nIndentationError: expected an indented block',
      1,
    ];
    expect(mined(session([chained(0), view, chained(1), view, chained(2)]))).toEqual(["unmoved-break 2-4"]);
  });
});

describe("unmoved-break: what it does not flag", () => {
  it("an error that moved (a repair landed and broke the file elsewhere)", () => {
    expect(mined(session([compile(228), repair(0), compile(231), repair(1), compile(228)]))).toEqual([]);
  });

  it("the same error at the same line with other text on it (each write landed on the broken line)", () => {
    const landed = (n: number): Call => [`sed -i 's/return ${n - 1}(/return ${n}(/' a.py`, ""];
    const imported = (n: number): Call => ["python -c 'import a'", `Traceback (most recent call last):\n  File "<string>", line 1, in <module>\n  File "/w/a.py", line 12\n    return ${n}(\n           ^\nSyntaxError: '(' was never closed`, 1];
    expect(mined(session([imported(1), landed(2), imported(2), landed(3), imported(3)]))).toEqual([]);
  });

  it("a test failing the same way after each repair (a re-run after a real change is work)", () => {
    const failing: Call = ["pytest -q tests/test_a.py", "E   AssertionError: assert 1 == 2\n1 failed in 0.05s", 1];
    expect(mined(session([failing, repair(0), failing, repair(1), failing]))).toEqual([]);
  });

  it("the agent's own script that Python could not parse is no break in the file", () => {
    expect(breakOf(factCallOf({ type: "call", runId: "r", callId: "c", tool: "bash", params: { command: "python - <<'PY'\nx=(\nPY" } }, {
      type: "outcome", runId: "r", callId: "c", tool: "bash", params: {}, result: { content: [{ type: "text", text: '  File "<stdin>", line 3\n    x=(\n      ^\nSyntaxError: unexpected EOF while parsing' }], details: { status: "failed", exitCode: 1 } },
    }))).toBeUndefined();
  });

  it("a restore between makes the next check a baseline (revert-and-baseline is work)", () => {
    const restore: Call = ["git checkout -- a.py && git status --porcelain", ""];
    expect(mined(session([compile(228), repair(0), compile(228), restore, compile(228), repair(1), compile(228)]))).toEqual([]);
  });

  it("a script between that ran and said something new ends the run", () => {
    const ran: Call = ["python3 inspect_lines.py", "line 228 has 8 spaces, line 227 has 8 spaces"];
    expect(mined(session([compile(228), repair(0), compile(228), ran, repair(1), compile(228)]))).toEqual([]);
  });

  it("two sightings only, or the same check again with no repair between", () => {
    expect(mined(session([compile(228), repair(0), compile(228), repair(1)]))).toEqual([]);
    expect(mined(session([compile(228), view, compile(228), repair(0), compile(228)])).filter((s) => s.startsWith("unmoved-break"))).toEqual([]);
  });
});
