// The failure-through-edits rule (src/realLoops/failureThroughEdits.ts, round 8) on tiny sessions:
// the same check answered by the same failure (the whole answer, or a traceback ending it the same
// frame for frame) three times with writes between, and beside each case the near neighbour it must
// not flag (the failure moved, a restore then one baseline, a different check, a traceback followed
// by news, a test's assertion, two hearings, no write between, a view). Written for these tests; no
// dataset is copied.
import { describe, expect, it } from "vitest";
import type { ToolEvent } from "../models/events.js";
import { DEFAULT_MINE_PARAMETERS, kindOfRule, minimumLength, mineStretches } from "../src/realLoops/mine.js";
import { session } from "./fixtures/noNewFactSessions.js";

/** Every stretch, as `RULE FIRST-LAST`. */
const mined = (events: ToolEvent[]) => mineStretches(events).map((s) => `${s.rule} ${s.firstCall}-${s.lastCall}`);
const ours = (events: ToolEvent[]) => mined(events).filter((s) => s.startsWith("failure-through-edits"));

type Call = [string, string, number?];
/** The check's answer: a traceback through the edited module into the standard library, ending on the error. */
const traceback = (line: number, shown: string, error = "TypeError: Cannot extend enumerations", script = "verify.py") =>
  `Traceback (most recent call last):\n  File "${script}", line 1, in <module>\n    from pkg import enums\n  File "/w/pkg/enums.py", line ${line}, in <module>\n    ${shown}\n  File "/usr/lib/python3.6/enum.py", line 438, in _get_mixins_\n    raise TypeError("Cannot extend enumerations")\n${error}`;
const check = (line = 74, shown = "class IntegerChoices(int, Choices):"): Call => ["python3 verify.py", traceback(line, shown), 1];
/** A different edit each time, whose effect the answer does not show. */
const write = (n: number): Call => [`sed -i 's/${["alpha", "beta", "gamma", "delta"][n] as string}/omega/' pkg/enums.py`, ""];

describe("failure-through-edits: what it flags", () => {
  it("the same check, the same whole failure, after each of two writes: from the first write to the last check", () => {
    expect(mined(session([check(), write(0), check(), write(1), check()]))).toEqual(["failure-through-edits 1-4"]);
    expect(kindOfRule("failure-through-edits")).toBe("changing-args");
    expect(minimumLength("failure-through-edits", DEFAULT_MINE_PARAMETERS)).toBe(3);
  });

  it("a write that re-words a line on the path, the traceback the same frame for frame and the same error", () => {
    expect(ours(session([check(), write(0), check(74, "class IntegerChoices(int, Choices, metaclass=M):"), write(1), check(74, "class IntegerChoices(int, Choices, flag=1):")]))).toEqual(["failure-through-edits 1-4"]);
  });

  it("a write with the check chained after it, answering the same traceback: a write and a hearing in one call", () => {
    const chained: Call = ["sed -i 's/epsilon/omega/' pkg/enums.py && python3 verify.py", traceback(74, "class IntegerChoices(int, Choices):"), 1];
    const view: Call = ["nl -ba pkg/enums.py | sed -n '70,76p'", "    74\tclass IntegerChoices(int, Choices):"];
    expect(ours(session([check(), write(0), check(), view, chained]))).toEqual(["failure-through-edits 1-4"]);
  });

  it("a re-worded outer frame (a line on the path, not the one that raised): the same failure", () => {
    expect(ours(session([check(74, "class A(int, Choices):"), write(0), check(74, "class A(int, Choices, metaclass=M):"), write(1), check(74, "class A(int, Choices, flag=1):")]))).toEqual(["failure-through-edits 1-4"]);
  });

  it("a look, a failure or nothing said between hearings stays inside", () => {
    const view: Call = ["nl -ba pkg/enums.py | sed -n '70,76p'", "    74\tclass IntegerChoices(int, Choices):"];
    const failedElsewhere: Call = ["python3 -c 'import other'", "ModuleNotFoundError: No module named 'other'", 1];
    expect(ours(session([check(), view, write(0), failedElsewhere, check(), write(1), check()]))).toEqual(["failure-through-edits 2-6"]);
  });

  it("0 turns it off", () => {
    expect(mineStretches(session([check(), write(0), check(), write(1), check()]), { ...DEFAULT_MINE_PARAMETERS, failureThroughEdits: 0 })).toEqual([]);
  });
});

describe("failure-through-edits: what it does not flag", () => {
  it("a failure that moved: another error, or raised from another place", () => {
    const moved = (error: string): Call => ["python3 verify.py", traceback(74, "class IntegerChoices(int, Choices):", error), 1];
    expect(ours(session([check(), write(0), moved("TypeError: metaclass conflict"), write(1), moved("TypeError: duplicate base class")]))).toEqual([]);
  });

  it("with the traceback's source text unlike, a moved line is no same failure either (another frame)", () => {
    expect(ours(session([check(74, "a"), write(0), check(75, "b"), write(1), check(74, "a")]))).toEqual([]);
  });

  it("a restore ends the run: the check after it is a baseline (revert-and-baseline is work)", () => {
    const restore: Call = ["git checkout -- pkg/enums.py", ""];
    expect(ours(session([check(), write(0), check(), restore, check()]))).toEqual([]);
    expect(ours(session([check(), write(0), check(), restore, write(1), check()]))).toEqual([]);
  });

  it("a line number that moved (as recorded, not masked) is another place", () => {
    expect(ours(session([check(74), write(0), check(75), write(1), check(76)]))).toEqual([]);
  });

  it("a script between that ran and said something new ends the run", () => {
    const ran: Call = ["python3 inspect_mro.py", "IntegerChoices bases: (int, Choices)"];
    expect(ours(session([check(), write(0), check(), ran, write(1), check()]))).toEqual([]);
  });

  it("a different check between, each heard once or twice (a sweep)", () => {
    const other: Call = ["python3 verify_two.py", traceback(74, "class IntegerChoices(int, Choices):", "TypeError: Cannot extend enumerations", "verify_two.py"), 1];
    expect(ours(session([check(), write(0), other, write(1), check()]))).toEqual([]);
  });

  it("output after the traceback that differs (a start-up warning's traceback, then the tool's own report): news", () => {
    const noisy = (name: string): Call => ["pylint foo.py", `Error processing line 1 of site.pth:\n  Traceback (most recent call last):\n    File "/usr/lib/site.py", line 177, in addpackage\n  ModuleNotFoundError: No module named '_hack'\nRemainder of file ignored\nfoo.py:1:0: C0104: Disallowed name "${name}" (disallowed-name)`, 16];
    expect(ours(session([noisy("foo"), write(0), noisy("bar"), write(1), noisy("baz")]))).toEqual([]);
  });

  it("a test's assertion failing the same way after each write (a re-run after a real change is work)", () => {
    const failing: Call = ["pytest -q tests/test_a.py", "E   AssertionError: assert 1 == 2\n1 failed in 0.05s", 1];
    expect(ours(session([failing, write(0), failing, write(1), failing]))).toEqual([]);
  });

  it("two hearings only, or the same failure again with no write between", () => {
    expect(ours(session([check(), write(0), check(), write(1)]))).toEqual([]);
    expect(ours(session([check(), check(), check()]))).toEqual([]);
  });

  it("a view that prints an error line of the file it shows is no check", () => {
    const view: Call = ["nl -ba pkg/enums.py | sed -n '430,440p'", '   438\t        raise TypeError("Cannot extend enumerations")\nTypeError: Cannot extend enumerations'];
    expect(ours(session([view, write(0), view, write(1), view]))).toEqual([]);
  });

  it("a call between that is the same check answered otherwise ends the run", () => {
    const passed: Call = ["python3 verify.py", "ok"];
    expect(ours(session([check(), write(0), check(), passed, write(1), check(), write(2), check()]))).toEqual([]);
  });
});
