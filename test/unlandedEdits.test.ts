// The unlanded-edits rule (src/realLoops/unlandedEdits.ts, src/import/landed.ts) on tiny sessions,
// each written to tell one of its decisions from a near neighbour: the tests a hand-run of Stryker
// over those two files showed missing (mutants that survived test/realLoopsRules.test.ts). Each
// session is a few calls in the shapes the code's comments describe; no dataset is copied.
import { describe, expect, it } from "vitest";
import type { ToolEvent } from "../models/events.js";
import { factCallOf, ownProgramUnparsed } from "../src/import/facts.js";
import { attemptsWrite, neverRan } from "../src/import/landed.js";
import { mineStretches } from "../src/realLoops/mine.js";
import { lessonOf, unlandedAttempts, unlandedEditRuns, viewsFile } from "../src/realLoops/unlandedEdits.js";
import { session } from "./fixtures/noNewFactSessions.js";

/** Only this rule's stretches: the other rules are tested elsewhere. */
const unlanded = (events: ToolEvent[]) => mineStretches(events).filter((s) => s.rule === "unlanded-edits").map((s) => `${s.firstCall}-${s.lastCall}`);

type Call = [string, string, number?];
const view: Call = ["sed -n '10,13p' a.py", "def f():\n    x = g()\n    return 1\n# end"];
const moved: Call = ["sed -n '10,13p' a.py", "def f():\n    x = g()\n    return 2\n# end"];
/** A silent in-place edit of a.py (its effect known only from a view after it), each one different (numbers are masked). */
const edit = (n: number): Call => [`sed -i 's/${["alpha", "beta", "gamma", "delta", "epsilon", "zeta"][n] as string}/return 2/' a.py`, ""];
/** sed refusing its own expression: it never ran. */
const refused = (n: number): Call => [`sed -i 's/return ${n}/return 2' a.py`, `sed: -e expression #1, char ${18 + n}: unterminated \`s' command`, 1];
/** A look at a.py that finds nothing (grep exits 1): it names the file, shows no lines of it. */
const grepNothing = (word: string): Call => [`grep -n ${word} a.py`, "", 1];

/** One call of any tool, answered with text (failed when exitCode is not 0). */
const callOf = (tool: string, params: Record<string, unknown>, text: string, exitCode = 0) =>
  factCallOf(
    { type: "call", runId: "r", callId: "c", tool, params },
    { type: "outcome", runId: "r", callId: "c", tool, params: {}, result: { content: [{ type: "text", text }], details: { status: exitCode === 0 ? "completed" : "failed", exitCode } } },
  );
/** Which calls of a session are attempts that did not land (unlandedAttempts), the other rules aside. */
const attempts = (calls: ReturnType<typeof callOf>[]) => unlandedAttempts(calls.map((c, index) => ({ ...c, index })));
const sh = (command: string, text: string, exitCode = 0) => callOf("bash", { command }, text, exitCode);
const shCall = ([command, text, exitCode]: Call) => sh(command, text, exitCode ?? 0);
/** nl -ba's numbered lines of a.py 10-13, line 12 as given. */
const numbered = (last: string) => `    10\tdef f():\n    11\t    x = g()\n    12\t    ${last}\n    13\t# end`;
const viewNumbered = (last: string) => sh("nl -ba a.py | sed -n '10,13p'", numbered(last));
/** An edit with a view of the region chained after it: its own answer shows the file after the write. */
const editChained = (word: string, text: string, exitCode = 0) => sh(`sed -i 's/${word}/return 2/' a.py && nl -ba a.py | sed -n '10,13p'`, text, exitCode);

describe("landed.ts: what is an attempt, what never ran", () => {
  it("takes a shell write, a command known only by a variable and a named file editor as attempts; not a booking", () => {
    expect(attemptsWrite(sh("sed -i 's/a/b/' a.py", ""))).toBe(true);
    expect(attemptsWrite(sh("python - << 'PY'\n{patch_script}\nPY", "patched"))).toBe(true);
    expect(attemptsWrite(callOf("str_replace_editor", { command: "str_replace", path: "a.py", old_str: "x", new_str: "y" }, "done"))).toBe(true);
    expect(attemptsWrite(callOf("book_reservation", { user_id: "u1", flight: "HAT001" }, "Error: not enough seats", 1))).toBe(false);
    expect(attemptsWrite(sh("sed -n '1,4p' a.py", "x"))).toBe(false);
  });

  it("leaves a failed install to the other rules, and a call with no answer never ran nothing", () => {
    expect(neverRan(sh("pip install nosuchpkg && sed -i 's/a/b/' a.py", "ERROR: Could not find a version that satisfies the requirement nosuchpkg\nERROR: No matching distribution found for nosuchpkg", 1))).toBe(false);
    expect(neverRan(factCallOf({ type: "call", runId: "r", callId: "c", tool: "bash", params: { command: "sed -i 's/a/b' a.py" } }, undefined))).toBe(false);
    expect(neverRan(sh("pip install nosuchpkg", "ERROR: No matching distribution found for nosuchpkg", 1))).toBe(false);
    expect(neverRan(sh("sed -i 's/a/b' a.py", "sed: -e expression #1, char 7: unterminated `s' command", 1))).toBe(true);
  });
});

describe("unlanded edits: which attempts did not land (unlandedAttempts)", () => {
  it("asks only of attempts: a view whose sed refused its expression is no attempt", () => {
    expect(attempts([sh("sed -n 's/x' a.py", "sed: -e expression #1, char 4: unterminated `s' command", 1)])).toEqual([false]);
  });

  it("takes a look only from a viewer (not a run printing the same), at the attempt's own file", () => {
    const shown = "def f():\n    x = g()\n    return 1\n# end";
    expect(attempts([sh("python a.py", shown), sh("sed -i 's/alpha/beta/' a.py", ""), sh("python a.py", shown)])).toEqual([false, false, false]);
    expect(attempts([shCall(view), sh("sed -i 's/alpha/beta/' a.py", ""), sh("head -4 a.py b.py", shown)])).toEqual([false, true, false]);
    expect(attempts([sh("head -4 a.py b.py", shown), sh("sed -i 's/alpha/beta/' a.py", ""), shCall(view)])).toEqual([false, true, false]);
    // A named viewer is a look; a named runner is not.
    const viewFile = callOf("view_file", { path: "a.py" }, shown);
    const replace = callOf("str_replace", { path: "a.py", old_str: "retrun 1", new_str: "return 2" }, "done");
    expect(attempts([viewFile, replace, viewFile])).toEqual([false, true, false]);
    expect(attempts([viewFile, replace, callOf("run_python", { path: "a.py" }, shown)])).toEqual([false, false, false]);
  });

  it("reads a view chained after the attempt only when no look follows it, and compares its numbered lines as printed (trailing white space aside)", () => {
    expect(attempts([viewNumbered("return 1"), editChained("alpha", ""), viewNumbered("return 1")])).toEqual([false, true, false]);
    expect(attempts([viewNumbered("return 1  "), editChained("alpha", `replaced\n${numbered("return 1")}`)])).toEqual([false, true]);
    expect(attempts([viewNumbered("return 1"), editChained("alpha", `replaced\n${numbered("return 2")}`)])).toEqual([false, false]);
  });

  it("compares with an earlier attempt that never ran and showed the file after it, and with nothing that was no look", () => {
    const refusedChained = sh("sed -i 's/return 1/return 2' a.py; nl -ba a.py | sed -n '10,13p'", `sed: -e expression #1, char 20: unterminated \`s' command\n${numbered("return 1")}`, 1);
    expect(attempts([refusedChained, editChained("alpha", `replaced\n${numbered("return 1")}`)])).toEqual([true, true]);
    expect(attempts([sh("python show.py", numbered("return 1")), editChained("alpha", `replaced\n${numbered("return 1")}`)])).toEqual([false, false]);
  });
});

describe("unlanded edits: the looks it reads", () => {
  const shown = "def f():\n    x = g()\n    return 1\n# end";
  it("finds no view more than 3 calls after the attempt, however quiet the calls between", () => {
    const quiet = [sh("true", ""), sh("make lint", "make: *** No rule to make target.  Stop.", 2), sh("true", "")];
    expect(attempts([shCall(view), sh("sed -i 's/alpha/beta/' a.py", ""), ...quiet, shCall(view)])).toEqual([false, false, false, false, false, false]);
  });

  it("takes a search for a quote and a brace as a look, but not when it is piped to a script (a run, not a look)", () => {
    expect(viewsFile(sh(`grep -n '"}' config.json`, '12:  "name": "x"}'))).toBe(true);
    expect(viewsFile(sh(`grep -n '"}' config.json | python3 summarize.py`, "1 object closes on line 12"))).toBe(false);
  });

  it("takes a view after cd as a look, and a view piped without a space; not a line with a number and a tab inside a message", () => {
    const cdView = sh("cd /w && sed -n '10,13p' a.py", shown);
    expect(attempts([cdView, sh("sed -i 's/alpha/beta/' a.py", ""), cdView])).toEqual([false, true, false]);
    expect(attempts([viewNumbered("return 1"), sh("sed -i 's/alpha/beta/' a.py && nl -ba a.py |sed -n '10,13p'", `replaced\n${numbered("return 1")}`)])).toEqual([false, true]);
    expect(attempts([viewNumbered("return 1"), editChained("alpha", `replaced 3\tlines\n${numbered("return 1")}`)])).toEqual([false, true]);
  });

  it("takes an attempt with no answer as of unknown effect, and a view chained without a pipe or piped without a space", () => {
    const unanswered = factCallOf({ type: "call", runId: "r", callId: "c", tool: "bash", params: { command: "sed -i 's/alpha/beta/' a.py" } }, undefined);
    expect(attempts([shCall(view), unanswered, shCall(view)])).toEqual([false, false, false]);
    // A view with no answer showed nothing: the look after the attempt is the next one.
    const unansweredView = factCallOf({ type: "call", runId: "r", callId: "c", tool: "bash", params: { command: "sed -n '10,13p' a.py" } }, undefined);
    expect(attempts([shCall(view), sh("sed -i 's/alpha/beta/' a.py", ""), unansweredView, shCall(view)])).toEqual([false, true, false, false]);
    expect(attempts([viewNumbered("return 1"), sh("sed -i 's/alpha/beta/' a.py && nl -ba a.py", `replaced\n${numbered("return 1")}`)])).toEqual([false, true]);
    const piped = sh("cat a.py |head -4", shown);
    expect(attempts([piped, sh("sed -i 's/alpha/beta/' a.py", ""), piped])).toEqual([false, true, false]);
  });

  it("compares with an earlier call's chained view only when that call was an attempt that did not land, on the same file", () => {
    const ranThenView = sh("python a.py; nl -ba a.py | sed -n '10,13p'", `ok\n${numbered("return 1")}`);
    expect(attempts([ranThenView, editChained("alpha", `replaced\n${numbered("return 1")}`)])).toEqual([false, false]);
    const refusedOnTwo = sh("sed -i 's/return 1/return 2' a.py b.py; nl -ba a.py | sed -n '10,13p'", `sed: -e expression #1, char 20: unterminated \`s' command\n${numbered("return 1")}`, 1);
    expect(attempts([refusedOnTwo, editChained("alpha", `replaced\n${numbered("return 1")}`)])).toEqual([true, true]);
  });
});

describe("unlanded edits: runs (unlandedEditRuns, one lesson enough)", () => {
  const refusedCall = (n: number) => shCall(refused(n));
  const runs = (calls: ReturnType<typeof callOf>[], taken: boolean[] = []) => unlandedEditRuns(calls.map((c, index) => ({ ...c, index })), taken, 1);
  it("starts no run at a call another rule took, and ends one there", () => {
    const calls = [refusedCall(1), shCall(view), refusedCall(2), shCall(view), refusedCall(3), shCall(view), refusedCall(4)];
    expect(runs(calls, [true])).toEqual([[2, 6]]);
    expect(runs(calls, [false, false, true])).toEqual([[0, 0], [4, 6]]);
  });

  it("ends a run at a call with no answer, and at a write that is no attempt", () => {
    const unanswered = { ...factCallOf({ type: "call", runId: "r", callId: "c", tool: "bash", params: { command: "sed -n '10,13p' a.py" } }, undefined) };
    expect(runs([refusedCall(1), unanswered, refusedCall(2)])).toEqual([[0, 0], [2, 2]]);
    expect(runs([refusedCall(1), callOf("set_config", { level: 2 }, ""), refusedCall(2)])).toEqual([[0, 0], [2, 2]]);
  });

  it("keeps in the run, uncounted, a refused edit corrected from lines first shown between, and counts it when they were shown before", () => {
    const replace = (old: string) => callOf("code_replace", { file: "a.py", old_code: old, new_code: "    total = 0" }, "Error: Code to replace not found in a.py", 1);
    const shows: ReturnType<typeof callOf> = sh("sed -n '20,21p' a.py", "    total = compute(y)\n    return total");
    expect(replace("    value = compute(x)").rejected).toBeDefined();
    expect(runs([replace("    value = compute(x)"), shows, replace("    total = compute(y)")])).toEqual([[0, 0]]);
    expect(runs([shows, replace("    value = compute(x)"), shows, replace("    total = compute(y)")])).toEqual([[1, 3]]);
    // Lines shown more than NEW_FACT_WINDOW (10) calls before the first refusal are forgotten: news again.
    const others = Array.from({ length: 10 }, (_, i) => sh(`echo step${"abcdefghij"[i] as string}`, `step${"abcdefghij"[i] as string}`));
    expect(runs([shows, ...others, replace("    value = compute(x)"), shows, replace("    total = compute(y)")])).toEqual([[11, 11]]);
    // Lines shown only after it taught it nothing.
    expect(runs([replace("    value = compute(x)"), sh("sed -n '1,2p' a.py", "import os\nimport sys"), replace("    total = compute(y)"), shows])).toEqual([[0, 2]]);
  });

  it("lets a run begun by an attempt that names no file go on to the file the next looks name", () => {
    const harness = sh("python - << 'PY'\n{patch_script}\nPY", '  File "<string>", line 870\n    exec_bash_cmd(x)\n        ^\nSyntaxError: invalid syntax', 1);
    expect(runs([harness, shCall(view), sh("sed -i 's/alpha/beta/' a.py", ""), shCall(view)])).toEqual([[0, 2]]);
  });
});

describe("unlanded edits: which attempts did not land", () => {
  it("a silent edit followed by another write is of unknown effect, and so is every attempt that looks back past it", () => {
    // The first two edits are followed by writes, not looks: taken to have landed, so the look back
    // from the third stops at them (a write that may have landed moved the file).
    expect(unlanded(session([view, edit(1), edit(2), edit(3), view]))).toEqual([]);
    expect(unlanded(session([view, edit(0), edit(1), view, edit(2), view, edit(3), view, edit(4), view]))).toEqual(["4-8"]);
    expect(unlanded(session([view, edit(1), view, edit(2), view, edit(3), view]))).toEqual(["1-5"]);
  });

  it("looks back past a look that showed no lines, and past an earlier attempt that did not land, to the view before", () => {
    expect(unlanded(session([view, edit(1), view, grepNothing("zz"), edit(2), view, grepNothing("yy"), edit(3), view]))).toEqual(["1-7"]);
    expect(unlanded(session([view, edit(1), view, refused(1), edit(2), view, refused(2), edit(3), view]))).toEqual(["1-7"]);
  });

  it("finds the view after an attempt up to 3 calls on, not 4", () => {
    // Calls between that name no file and taught nothing (said nothing, failed) are no look.
    const gap: Call[] = [["true", ""], ["make lint", "make: *** No rule to make target.  Stop.", 2]];
    expect(unlanded(session([view, edit(1), ...gap, view, edit(2), ...gap, view, edit(3), ...gap, view]))).toEqual(["1-9"]);
    expect(unlanded(session([view, edit(1), ...gap, ["true", ""], view, edit(2), ...gap, view, edit(3), ...gap, view, edit(4), ...gap, view]))).toEqual(["6-14"]);
  });
});

describe("unlanded edits: which runs they make", () => {
  it("starts a run only at an attempt that did not land: a landed edit before is no part of it", () => {
    expect(unlanded(session([view, edit(1), moved, edit(2), moved, edit(3), moved]))).toEqual([]);
  });

  it("ends a run at an attempt that landed", () => {
    expect(unlanded(session([view, edit(1), view, edit(2), view, edit(3), moved, edit(4), moved]))).toEqual([]);
    expect(unlanded(session([view, edit(1), view, edit(2), view, edit(4), view, edit(5), moved]))).toEqual(["1-5"]);
  });

  it("lets up to 3 looks at the file sit between two attempts, not 4", () => {
    const looks = (w: string[]): Call[] => w.map((x) => [`grep -n ${x} a.py`, `11:    ${x} = g()`]);
    expect(unlanded(session([refused(1), ...looks(["a", "b", "c"]), refused(2), ...looks(["d", "e", "f"]), refused(3)]))).toEqual(["0-8"]);
    expect(unlanded(session([refused(1), ...looks(["a", "b", "c", "g"]), refused(2), ...looks(["d", "e", "f", "h"]), refused(3)]))).toEqual([]);
  });

  it("keeps a run across a call that names no file only when it taught nothing (failed, or said nothing)", () => {
    const between = (c: Call) => session([refused(1), view, c, refused(2), view, c, refused(3)]);
    expect(unlanded(between(["ls", "a.py b.py"]))).toEqual([]);
    expect(unlanded(between(["true", ""]))).toEqual(["0-6"]);
    expect(unlanded(between(["make lint", "make: *** No rule to make target.  Stop.", 2]))).toEqual(["0-6"]);
  });

  it("ends a run at a file created whole over the target, and at an attempt that ran on another file", () => {
    expect(unlanded(session([refused(1), view, ["cat > a.py <<'EOF'\ndef f():\n    return 2\nEOF", ""], refused(2), view, refused(3)]))).toEqual([]);
    const regionB = "     1\timport os\n     2\timport sys\n     3\t\n     4\tX = 1";
    const regionA = "    10\tdef f():\n    11\t    x = g()\n    12\t    return 1\n    13\t# end";
    const viewA: Call = ["nl -ba a.py | sed -n '10,13p'", regionA];
    expect(unlanded(session([["nl -ba b.py | sed -n '1,4p'", regionB], viewA, edit(1), viewA, ["sed -i 's/X = 1/X = 2/' b.py && nl -ba b.py | sed -n '1,4p'", regionB], edit(2), viewA, edit(3), viewA]))).toEqual([]);
  });

  it("widens the run to every file its attempts name, not to files of attempts on others that never ran", () => {
    const onB: Call = ["sed -i 's/return 1/return 2' b.py", "sed: -e expression #1, char 20: unterminated `s' command", 1];
    const onBoth: Call = ["sed -i 's/return 1/return 2' a.py b.py", "sed: -e expression #1, char 20: unterminated `s' command", 1];
    const viewB: Call = ["sed -n '1,4p' b.py", "import os\nimport sys\n\nX = 1"];
    expect(unlanded(session([refused(1), view, onB, viewB, refused(2), view, refused(3)]))).toEqual([]);
    expect(unlanded(session([refused(1), view, onBoth, viewB, refused(2)]))).toEqual(["0-4"]);
  });

  it("spans every lesson that comes back 3 times, from the first of them to the last", () => {
    const script = (n: number) => `python - <<'PY'\nfrom pathlib import Path\np = Path('a.py')\np.write_text(p.read_text().replace("return ${n}", "return 2"))\nPY`;
    const unparsed = '  File "<stdin>", line 4\n    p.write_text(p.read_text().replace("return\n                           ^\nSyntaxError: EOL while scanning string literal';
    expect(unlanded(session([["ls", "a.py b.py"], [script(1), unparsed], view, refused(1), [script(2), unparsed], ["sed -n '1,4p' a.py", "import os\nimport sys\n\nX = 1"], refused(2), [script(3), unparsed], refused(3), ["pytest -q", "1 passed"]]))).toEqual(["1-8"]);
  });
});

describe("unlanded edits: what an attempt told the agent (lessonOf)", () => {
  const call = (command: string, text: string, exitCode = 0) =>
    factCallOf(
      { type: "call", runId: "r", callId: "c", tool: "bash", params: { command } },
      { type: "outcome", runId: "r", callId: "c", tool: "bash", params: {}, result: { content: [{ type: "text", text }], details: { status: exitCode === 0 ? "completed" : "failed", exitCode } } },
    );
  it("drops how it was run and where it was reported: the exit status, 'Sorry: ', the trailing (file, line)", () => {
    expect(lessonOf(call("python a.py", "Sorry: IndentationError: unexpected indent (a.py, line 3)", 12))).toBe("IndentationError: unexpected indent");
    expect(lessonOf(call("python a.py", "ERROR: markers not found", 1))).toBe("ERROR: markers not found");
    expect(lessonOf(call("python a.py", "patched\nnothing else"))).toBe("no effect: patched\nnothing else");
    expect(lessonOf(call("python - <<'PY'\nx\nPY", "SyntaxError: bad thing here"))).toBe("SyntaxError: bad thing here");
    expect(lessonOf(call("python - <<'PY'\nx\nPY", "SyntaxError: cannot call bash here"))).toBe("SyntaxError: cannot call <arg> here");
    expect(lessonOf(call("python a.py", "TypeError: f() takes 2 arguments (3 given)", 1))).toBe("TypeError: f() takes # arguments");
    expect(lessonOf(call("python a.py", "NameError: name g is not defined(x)", 1))).toBe("NameError: name g is not defined");
    expect(lessonOf(call("python a.py", '{"status": "error", "message": "bad"}', 1))).toBe('no effect: {"status": "error", "message": "bad"}');
    expect(lessonOf(call("python a.py", '{"status": "error", "message": "bad"}', 12))).toBe('no effect: {"status": "error", "message": "bad"}');
    expect(lessonOf(call("python a.py", "ValueError: Sorry: no such key", 1))).toBe("ValueError: Sorry: no such key");
    // A script's own parse error with a view chained after it: the error, not the lines.
    const unparsedThenView = '  File "<stdin>", line 3\n    x = (\n        ^\nSyntaxError: invalid syntax here\n    10\tdef f():';
    expect(lessonOf(call("python - <<'PY'\nx = (\nPY\nnl -ba a.py | sed -n '10,10p'", unparsedThenView))).toBe("SyntaxError: invalid syntax here");
    expect(lessonOf(call("python - <<'PY'\nx = (\nPY\nnl -ba a.py | sed -n '10,10p'", `note: not a SyntaxError: at all\n${unparsedThenView}`))).toBe("SyntaxError: invalid syntax here");
    // The same with a longer view after it (six lines: the failure line is then no longer among the
    // answer's last few, where a failure is looked for first): still the whole error line, read
    // where it opens a line, not from a mention of one inside another line.
    const longView = ["def f():", "    x = g()", "    y = h()", "    z = x + y", "    return z", "# end"].map((l, i) => `    ${10 + i}\t${l}`).join("\n");
    const unparsedThenLongView = `  File "<stdin>", line 3\n    x = (\n        ^\nSyntaxError: invalid syntax here\n${longView}`;
    const script = "python - <<'PY'\nx = (\nPY\nnl -ba a.py | sed -n '10,15p'";
    expect(lessonOf(call(script, unparsedThenLongView))).toBe("SyntaxError: invalid syntax here");
    expect(lessonOf(call(script, unparsedThenLongView.replace("invalid syntax here", "invalid decimal literal")))).toBe("SyntaxError: invalid decimal literal");
    expect(lessonOf(call(script, `note: not a SyntaxError: at all\n${unparsedThenLongView}`))).toBe("SyntaxError: invalid syntax here");
    expect(lessonOf(callOf("edit", { start: 10, end: 12, text: "x" }, "Your proposed edit has introduced new syntax error(s). Please read this error message carefully and then retry editing the file.\nERRORS:\n- E999 IndentationError: unexpected indent"))).toBe("refused: edit rejected by the linter");
  });
});

describe("facts.ts ownProgramUnparsed: a program that could not be parsed ran none of it", () => {
  const run = (text: string, exitCode = 1) => ownProgramUnparsed(callOf("bash", { command: "python - <<'PY'\nx = (\nPY" }, text, exitCode));
  const report = 'File "<stdin>", line 2\n    x = (\n        ^\nSyntaxError: unexpected EOF while parsing';
  it("says nothing of a call with no answer", () => {
    expect(ownProgramUnparsed(factCallOf({ type: "call", runId: "r", callId: "c", tool: "bash", params: { command: "sed -i 's/a/b' a.py" } }, undefined))).toBe(false);
  });

  it("reads Python's report after the harness's 'bash execution output:' however it is spaced", () => {
    expect(run(report)).toBe(true);
    expect(run(`  \nbash execution output:\n${report}`)).toBe(true);
    expect(run(`bash execution output:\n\n  ${report}`)).toBe(true);
  });

  it("needs the location line alone (a frame 'in <module>' ran), and the error opening a line of the first few", () => {
    expect(run('File "<stdin>", line 2, in <module>\n    x = (\nSyntaxError: invalid syntax')).toBe(false);
    expect(run('File "<stdin>", line 2\n    raise SyntaxError("no")\nValueError: x')).toBe(false);
    expect(run('File "<stdin>", line 2\n    a\n    b\n    c\n    d\n    e\nSyntaxError: invalid syntax')).toBe(false);
  });

  it("reads only the first 20000 characters for Python's report and the first 3000 for a refused expression", () => {
    expect(run(`File "<stdin>", line 2\n    ${"x".repeat(25_000)}\nSyntaxError: invalid syntax`)).toBe(false);
    expect(run(`${"ok\n".repeat(1500)}sed: -e expression #1, char 5: unterminated \`s' command`)).toBe(false);
  });

  it("knows sed's, perl's and awk's refusals, whatever their numbers", () => {
    expect(run("sed: -e expression #12, char 5: unknown option to `s'")).toBe(true);
    expect(run("Execution of -e aborted due to compilation errors.")).toBe(true);
    expect(run("awk: line 12: syntax error at or near }")).toBe(true);
    expect(run("awk: cmd. line:1: syntax error at source line 1")).toBe(true);
    expect(run("awk: line 3: missing ) near end of file")).toBe(true);
    expect(run("awk: line 3: missing ]) near end of file")).toBe(true);
  });
});
