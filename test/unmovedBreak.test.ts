// The unmoved-break rule (src/realLoops/unmovedBreak.ts, round 7) on tiny sessions: repairs after
// each of which the check reports the same parse error at the same line, and beside each case the
// near neighbour it must not flag (the error moved, a test failing the same way, the agent's own
// script unparsed, a run between that said something new, two sightings only, no repair between).
// Written for these tests; no dataset is copied.
import { describe, expect, it } from "vitest";
import type { ToolEvent } from "../models/events.js";
import { factCallOf } from "../src/import/facts.js";
import { DEFAULT_MINE_PARAMETERS, kindOfRule, minimumLength, mineStretches } from "../src/realLoops/mine.js";
import { restoredFiles, WHOLE_TREE } from "../src/import/restores.js";
import { breakOf, sameBreak, unmovedBreakRuns } from "../src/realLoops/unmovedBreak.js";
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
    expect(mineStretches(session([compile(228), repair(0), compile(228), repair(1), compile(228)]))[0]?.repeats).toBe("repairs after each of which the check reports the same parse error at the same line");
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

/** One recorded bash call (or another tool's), as the miner's rules read it. */
const fact = (command: string, text: string | undefined, exitCode = 0, tool = "bash") =>
  factCallOf(
    { type: "call", runId: "r", callId: "c", tool, params: { command } },
    text === undefined ? undefined : { type: "outcome", runId: "r", callId: "c", tool, params: {}, result: { content: [{ type: "text", text }], details: { status: exitCode === 0 ? "completed" : "failed", exitCode } } },
  );
const restored = (command: string, exitCode = 0, tool = "bash") => restoredFiles(fact(command, "", exitCode, tool));
/** The calls of a session as unmovedBreakRuns reads them, straight (no other rule takes any first). */
const runs = (calls: Call[], taken: boolean[] = [], need = 3) => unmovedBreakRuns(calls.map(([c, o, code], index) => Object.assign(fact(c, o, code ?? 0), { index })), taken, need);
const traceback = (line: number, shown: string, error = "IndentationError: expected an indented block") =>
  `Traceback (most recent call last):\n  File "<string>", line 1, in <module>\n  File "/w/a.py", line ${line}\n    ${shown}\n    ^\n${error}`;
const imported = (line: number, shown: string): Call => ["python -c 'import a'", traceback(line, shown), 1];

describe("restores.ts: which files a call restores", () => {
  it("reads git checkout/restore/stash/reset and a copy back from a backup, chained or after a cd", () => {
    expect(WHOLE_TREE).toBe("*");
    const cases: [string, string[] | undefined][] = [
      ["git checkout -- a.py", ["a.py"]],
      ["git checkout HEAD -- pkg/a.py", ["pkg/a.py"]],
      ["git checkout -f -- a.py", ["a.py"]],
      ["git restore a.py b.py", ["a.py", "b.py"]],
      ["git checkout .", ["*"]],
      ["git stash", ["*"]],
      ["git stash push", ["*"]],
      ["git stash save wip", ["*"]],
      ["git reset --hard", ["*"]],
      ["cd /testbed && git checkout a.py", ["a.py"]],
      ["git checkout a.py;git checkout b.py", ["a.py", "b.py"]],
      ["git checkout a.py\npython -m py_compile a.py", ["a.py"]],
      ["git checkout a.py 2>/dev/null || true", ["a.py"]],
      ["git checkout a.py|| true", ["a.py"]],
      ["git checkout  a.py", ["a.py"]],
      ["  git checkout a.py  ", ["a.py"]],
      ["cp a.py.bak a.py", ["a.py"]],
      ["mv -f /tmp/a.py.orig src/a.py", ["src/a.py"]],
    ];
    for (const [command, files] of cases) expect(restored(command), command).toEqual(files);
  });

  it("leaves alone what restores no file: a branch, a stash pop, a soft reset, a backup made, a failed or unanswered call, another tool", () => {
    const none = [
      "git checkout main",
      "git checkout main a.py",
      "git checkout -b fix/issue",
      "git checkout -B fix/issue",
      "git checkout",
      "git stash pop",
      "git reset HEAD~1",
      "git reset HEAD a.py",
      "git status",
      "grep -n x a.py || git checkout a.py",
      "cp a.py a.py.bak",
      "cp b.py.bak a.py",
      "cp a.py.bak a.py b.py",
      "diff -u a.py.bak a.py; cp a.py a.py.orig",
    ];
    for (const command of none) expect(restored(command), command).toBeUndefined();
    expect(restoredFiles(fact("git checkout -- a.py", "error: pathspec 'a.py' did not match any file(s) known to git", 1))).toBeUndefined();
    expect(restoredFiles(fact("git checkout -- a.py", undefined))).toBeUndefined();
    expect(restored("git checkout -- a.py", 0, "str_replace_editor")).toBeUndefined();
  });
});

describe("unmoved-break: where a break is read", () => {
  it("names the error, the file's last segment, the line and the broken line's text as printed", () => {
    const read = (text: string) => breakOf(fact("python -c 'import a'", text, 1));
    expect(read("Sorry: IndentationError: expected an indented block (pkg/a.py, line 228)")).toBe("IndentationError: expected an indented block @ a.py:228\t");
    expect(read(traceback(228, "if x:", "IndentationError: expected an indented block  "))).toBe("IndentationError: expected an indented block @ a.py:228\tif x:");
    expect(read(collect(50)[1])).toBe("IndentationError: expected an indented block @ a.py:50\tsettings_module = os.environ.get(NAME)");
    // No source line shown (the caret, or the error, right after the location): no text.
    expect(read('  File "/w/a.py", line 7\n    ^\nSyntaxError: invalid syntax')).toBe("SyntaxError: invalid syntax @ a.py:7\t");
    expect(read('  File "/w/a.py", line 7\nSyntaxError: invalid syntax')).toBe("SyntaxError: invalid syntax @ a.py:7\t");
    // The last report counts: py_compile's after a traceback, a traceback after py_compile's.
    expect(read(`${traceback(3, "if y:")}\nSorry: TabError: inconsistent use of tabs (b.py, line 9)`)).toBe("TabError: inconsistent use of tabs @ b.py:9\t");
    expect(read(`Sorry: TabError: inconsistent use of tabs (b.py, line 9)\n${traceback(3, "if y:")}`)).toBe("IndentationError: expected an indented block @ a.py:3\tif y:");
    // Two tracebacks: the error after the last location is its error.
    expect(read(`${traceback(3, "if y:", "SyntaxError: invalid syntax")}\n${traceback(5, "if z:")}`)).toBe("IndentationError: expected an indented block @ a.py:5\tif z:");
  });

  it("reads py_compile's message as a traceback's, white space around it aside: one break, whichever reported it", () => {
    const read = (text: string) => breakOf(fact("python -m py_compile a.py", text, 1));
    const compiled = read("Sorry: IndentationError:  expected an indented block  (a.py, line 228)");
    expect(compiled).toBe("IndentationError: expected an indented block @ a.py:228\t");
    expect(sameBreak(compiled as string, read(traceback(228, "if x:")) as string)).toBe(true);
  });

  it("keeps the broken line's text as printed: only pytest's E prefix and the caret line under it are no text", () => {
    const read = (text: string) => breakOf(fact("python -c 'import a'", text, 1));
    // An E followed by a space inside the line (MAX_SIZE = ...) is the line's own text, with or without pytest's prefix.
    expect(read(traceback(3, "MAX_SIZE = (", "SyntaxError: '(' was never closed"))).toBe("SyntaxError: '(' was never closed @ a.py:3\tMAX_SIZE = (");
    expect(read('E     File "/testbed/a.py", line 3\nE       MAX_SIZE = (\nE       ^\nE   SyntaxError: \'(\' was never closed')).toBe("SyntaxError: '(' was never closed @ a.py:3\tMAX_SIZE = (");
    // A line of code that ends in a caret (an operator with no right side) is text; the caret line starts with one.
    expect(read(traceback(9, "mask = flags ^", "SyntaxError: invalid syntax"))).toBe("SyntaxError: invalid syntax @ a.py:9\tmask = flags ^");
  });

  it("reads a traceback that the tool which ran Python prints indented (pip's build output): the file is as broken", () => {
    const pip = [
      "  error: subprocess-exited-with-error",
      "  × python setup.py egg_info did not run successfully.",
      "  ╰─> [6 lines of output]",
      "      Traceback (most recent call last):",
      '        File "<string>", line 2, in <module>',
      '        File "/testbed/setup.py", line 12',
      "          version=(",
      "                  ^",
      "      SyntaxError: '(' was never closed",
      "      [end of output]",
    ].join("\n");
    expect(breakOf(fact("pip install -e .", pip, 1))).toBe("SyntaxError: '(' was never closed @ setup.py:12\tversion=(");
  });

  it("reads no break from an error that is not a parse error, or is the agent's own program's, after a report", () => {
    const read = (text: string) => breakOf(fact("python -c 'import a'", text, 1));
    const compiled = "Sorry: IndentationError: expected an indented block (a.py, line 228)";
    // A later runtime traceback leaves the parse error reported before it as the answer's break...
    expect(read(`${compiled}\nTraceback (most recent call last):\n  File "/w/b.py", line 3, in f\nValueError: x`)).toBe("IndentationError: expected an indented block @ a.py:228\t");
    // ... the agent's own script that Python could not parse, after it, leaves none.
    expect(read(`${compiled}\n  File "<stdin>", line 2\n    x=(\n      ^\nSyntaxError: unexpected EOF while parsing`)).toBeUndefined();
    // A runtime error whose source line only mentions a SyntaxError, and a bare message with no place.
    expect(read("Traceback (most recent call last):\n  File \"/w/a.py\", line 4, in f\n    msg = 'SyntaxError: oops'\nValueError: bad")).toBeUndefined();
    expect(read("SyntaxError: invalid syntax")).toBeUndefined();
  });

  it("takes two reports for one break when the place agrees and at most one prints the line's text", () => {
    expect(sameBreak("E @ a.py:1\t", "E @ a.py:1\tif x:")).toBe(true);
    expect(sameBreak("E @ a.py:1\tif x:", "E @ a.py:1\t")).toBe(true);
    expect(sameBreak("E @ a.py:1", "E @ a.py:1\tif x:")).toBe(true);
    expect(sameBreak("E @ a.py:1\tif x:", "E @ a.py:1")).toBe(true);
    expect(sameBreak("E @ a.py:1\tif x:", "E @ a.py:1\tif y:")).toBe(false);
    expect(sameBreak("E @ a.py:1\t", "E @ a.py:2\t")).toBe(false);
  });
});

describe("unmoved-break: the run's bounds", () => {
  it("allows six calls between two checks, not seven", () => {
    const six: Call[] = [repair(0), view, repair(1), view, repair(2), view];
    expect(runs([compile(228), ...six, compile(228), ...six, compile(228)])).toEqual([[1, 14]]);
    expect(runs([compile(228), ...six, repair(3), compile(228), ...six, compile(228)])).toEqual([]);
  });

  it("starts no run at a call taken, and ends one at a call taken", () => {
    const calls = [compile(228), repair(0), compile(228), repair(1), compile(228)];
    expect(runs(calls)).toEqual([[1, 4]]);
    expect(runs(calls, [true])).toEqual([]);
    expect(runs(calls, [false, false, true])).toEqual([]);
  });

  it("keeps `need` calls when each check is its own repair, back to the first sighting", () => {
    const chained = (n: number): Call => [`sed -i 's/${["x", "y", "z"][n] as string}/w/' a.py && python -c 'import a'`, traceback(430, "if isinstance(object, enum.Enum):"), 1];
    expect(runs([chained(0), chained(1), chained(2)])).toEqual([[0, 2]]);
  });

  it("ends the run at a call with another parse error, even one a repair stands for, and at an unanswered call", () => {
    expect(runs([compile(228), repair(0), compile(228), repair(1), compile(231), repair(2), compile(228)])).toEqual([]);
    const unanswered = session([compile(228), repair(0), compile(228), repair(1), compile(228)]).filter((e, k) => k !== 7);
    expect(mined(unanswered).filter((s) => s.startsWith("unmoved-break"))).toEqual([]);
  });

  it("makes the break more precise by the first check that prints the line's text, and compares later checks with that", () => {
    expect(runs([compile(228), repair(0), imported(228, "if a:"), repair(1), imported(228, "if b:")])).toEqual([]);
    expect(runs([imported(228, "if a:"), repair(0), compile(228), repair(1), imported(228, "if b:")])).toEqual([]);
    expect(runs([compile(228), repair(0), imported(228, "if a:"), repair(1), imported(228, "if a:")])).toEqual([[1, 4]]);
  });
});
