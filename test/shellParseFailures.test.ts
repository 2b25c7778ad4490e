// Command lines bash (or the interpreter after a never-closed here-document) could not parse, sent
// again and again with the script's body rewritten and the broken wrapper kept (round 7): what the
// miner chains as one lesson, and the near neighbours it must leave alone (a script that ran and
// said something new before the trailing error: the round-2 precision reading judged chains
// resting on that error false alarms). Tiny sessions in the shapes the code's comments describe,
// written for these tests; no dataset is copied.
import { describe, expect, it } from "vitest";
import type { ToolEvent } from "../models/events.js";
import { factCallOf, failureFamily, HEREDOC_NEVER_CLOSED, heredocSwallowedScript, neverTookEffect, ownProgramUnparsed, ranBeforeSyntaxError } from "../src/import/facts.js";
import { mineStretches } from "../src/realLoops/mine.js";
import { session } from "./fixtures/noNewFactSessions.js";

/** The stretches of a session as `RULE FIRST-LAST`. */
const mined = (events: ToolEvent[]) => mineStretches(events).map((s) => `${s.rule} ${s.firstCall}-${s.lastCall}`);
const sh = (command: string, text: string, exitCode = 0) =>
  factCallOf(
    { type: "call", runId: "r", callId: "c", tool: "bash", params: { command } },
    { type: "outcome", runId: "r", callId: "c", tool: "bash", params: {}, result: { content: [{ type: "text", text }], details: { status: exitCode === 0 ? "completed" : "failed", exitCode } } },
  );

/** Words that tell the calls of a session apart (digits are masked in a call's shape). */
const WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"];
const word = (n: number) => WORDS[n % WORDS.length] as string;
/** A patch script whose terminator line carries `&& ...`: bash never closes the here-document, Python gets the line. */
const swallowed = (n: number, message = "invalid syntax"): [string, string, number] => [
  `python - <<'PY'\nfrom pathlib import Path\np = Path('a.py')\np.write_text(p.read_text().replace('${word(n)}', 'y'))\nPY && sed -n '1,20p' a.py`,
  `bash: line ${6 + n}: warning: here-document at line 1 delimited by end-of-file (wanted \`PY')\n  File "<stdin>", line ${5 + n}\n    PY && sed -n '1,20p' a.py\n        ^\nSyntaxError: ${message}`,
  1,
];
/** A repro project written with `&&` at the start of the line after a heredoc: bash rejects the line. */
const rejected = (n: number, before = ""): [string, string, number] => [
  `mkdir -p repro && cat > repro/conf.py <<'PY'\nextensions = ['${word(n)}']\nPY\n&& cat > repro/index.rst <<'RST'\nTest\nRST\n&& python -m sphinx repro repro/_build`,
  `${before}bash: -c: line ${4 + n}: syntax error near unexpected token \`&&'\nbash: -c: line ${4 + n}: \`&& cat > repro/index.rst <<'RST''`,
  2,
];
/** A patch script that ran (printing `said`), then the `&&` after its terminator that bash could not parse. */
const ranThenRejected = (n: number, said: string): [string, string, number] => [
  `python - <<'PY'\nfrom pathlib import Path\np = Path('a.py')\np.write_text(p.read_text().replace('${word(n)}', 'y'))\nprint('${said}')\nPY\n&& python -m pytest -q`,
  `${said}\nbash: -c: line ${7 + n}: syntax error near unexpected token \`&&'\nbash: -c: line ${7 + n}: \`&& python -m pytest -q'`,
  2,
];
const view: [string, string] = ["sed -n '1,4p' b.py", "def g():\n    return compute(1)\n\n# the end of b"];
/** A look at another file, after the calls: news. */
const after: [string, string] = ["sed -n '1,4p' c.py", "def h():\n    return other(2)\n\n# the end of c"];

describe("facts.ts: what ran before a parse failure", () => {
  it("reads a script swallowed by a never-closed here-document as unparsed, one family whatever Python's message", () => {
    const [command, text, code] = swallowed(1, "unexpected character after line continuation character");
    const c = sh(command, text, code);
    expect(ownProgramUnparsed(c)).toBe(true);
    expect(heredocSwallowedScript(c)).toBe(true);
    expect(failureFamily(c)).toBe(HEREDOC_NEVER_CLOSED);
    expect(neverTookEffect(c)).toBe(true);
    // Without bash's warning the SyntaxError is the script's own: its message is the lesson.
    const own = sh("python - <<'PY'\nx = (\nPY", '  File "<stdin>", line 1\n    x = (\n        ^\nSyntaxError: unexpected EOF while parsing', 1);
    expect(heredocSwallowedScript(own)).toBe(false);
    expect(failureFamily(own)).toBe("SyntaxError: unexpected EOF while parsing");
    // A script that ran and raised after the warning is no parse failure of it.
    expect(heredocSwallowedScript(sh("python - <<'PY'\nimport a\nPY", "bash: line 3: warning: here-document at line 1 delimited by end-of-file (wanted `PY')\nTraceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\nImportError: x", 1))).toBe(false);
  });

  it("hears nothing before bash's syntax error in bash's own errors, one of them spanning lines, or in an edit's report that it changed nothing", () => {
    const ran = (before: string, command = rejected(1)[0]) => ranBeforeSyntaxError(sh(command, `${before}bash: -c: line 9: syntax error near unexpected token \`&&'`, 2));
    expect(ran("")).toBe(false);
    expect(ran("bash: line 29: REPLACE_ME: command not found\n")).toBe(false);
    expect(ran("bash: line 42: , REPLACED)\n    source[0] = result\n&& sed -n '1,9p' x.html: No such file or directory\n")).toBe(false);
    expect(ran("already patched\n", ranThenRejected(1, "x")[0])).toBe(false);
    expect(ran("pattern not found, no changes made\n", ranThenRejected(1, "x")[0])).toBe(false);
    // A script that printed anything else said something; and a look-up that found nothing found that out.
    expect(ran("patched a.py\n", ranThenRejected(1, "x")[0])).toBe(true);
    expect(ran("bash: line 42: , REPLACED)\n    source[0] = result\n")).toBe(true);
    expect(ran("already patched\n", "grep -c x a.py\n&& echo done")).toBe(true);
  });

  it("takes an edit's no-target report followed by bash's syntax error for a refusal, not one followed by anything else", () => {
    const [command] = ranThenRejected(1, "x");
    expect(sh(command, "pattern not found in a.py\nbash: -c: line 8: syntax error near unexpected token `&&'\nbash: -c: line 8: `&& python -m pytest -q'", 2).rejected).toBe("replacement not performed");
    expect(sh(command, "pattern not found in a.py\nbash: -c: line 8: syntax error near unexpected token `&&'\n3 passed", 2).rejected).toBeUndefined();
    expect(sh(command, "pattern not found in a.py\nremoved 2 lines\nbash: -c: line 8: syntax error near unexpected token `&&'", 2).rejected).toBeUndefined();
  });
});

describe("facts.ts: where bash's error spans lines", () => {
  it("hears a line of output between a caret or a bash error that does not end and the bash error that does", () => {
    const trailerAt = (line: number) => `bash: -c: line ${line}: syntax error near unexpected token \`&&'\nbash: -c: line ${line}: \`&& x'`;
    expect(ranBeforeSyntaxError(sh("python run.py\n&& x", `   ^\nsaid something\nbash: line 3: foo: command not found\n${trailerAt(4)}`, 2))).toBe(true);
    expect(ranBeforeSyntaxError(sh("python run.py\n&& x", `bash: line 3: , REPLACED)\nsaid something\n${trailerAt(4)}`, 2))).toBe(true);
    // bash run as /bin/bash names itself so: its syntax error is still the error, not output before it.
    expect(ranBeforeSyntaxError(sh("python run.py\n&& x", "/bin/bash: line 1: foo: command not found\n/bin/bash: -c: line 3: syntax error: unexpected end of file", 2))).toBe(false);
    // ... and its error about a word that holds newlines spans lines as bash's does.
    expect(ranBeforeSyntaxError(sh("python run.py\n&& x", "/bin/bash: line 42: , REPLACED)\n    source[0] = result\n&& sed -n '1,9p' x.html: No such file or directory\n/bin/bash: -c: line 9: syntax error near unexpected token `&&'", 2))).toBe(false);
  });
});

describe("same-failure: bash parse failures sent again", () => {
  it("chains scripts a never-closed here-document swallowed, whatever Python said of each", () => {
    expect(mined(session([view, swallowed(1, "unexpected character after line continuation character"), swallowed(2), swallowed(3), swallowed(4), after]))).toEqual(["same-failure 1-4"]);
    // Without the warning each message is the script's own: two of one message are no chain of three.
    const own = (n: number, message: string): [string, string, number] => [`python - <<'PY'\n${word(n)} = (\nPY`, `  File "<stdin>", line ${n}\n    x = (\n        ^\nSyntaxError: ${message}`, 1];
    expect(mined(session([view, own(1, "unexpected character after line continuation character"), own(2, "invalid syntax"), own(3, "invalid syntax"), after]))).toEqual([]);
  });

  it("chains them whatever their exit status: piped to tail, the pipe exits 0, and still none of the script ran", () => {
    const piped = (n: number): [string, string, number] => {
      const [command, text] = swallowed(n);
      return [command.replace("sed -n '1,20p' a.py", "sed -n '1,20p' a.py | tail -n 5"), text, 0];
    };
    expect(mined(session([view, piped(1), piped(2), piped(3), after]))).toEqual(["same-failure 1-3"]);
  });

  it("chains a command line bash rejected, the same one written with bash -lc, and one whose only output before the error is bash's errors for its pieces", () => {
    const lc = (n: number): [string, string, number] => [`bash -lc "${rejected(n)[0]}"`, rejected(n)[1], 127];
    expect(mined(session([view, rejected(1), lc(2), rejected(3, "bash: line 29: REPLACE_ME: command not found\nbash: line 42: , REPLACED)\n    source[0] = result\n&& sed -n '1,9p' x.html: No such file or directory\n"), after]))).toEqual(["same-failure 1-3"]);
  });

  it("opens a chain on a script that ran and said something, then met the error the calls after it meet with nothing new said", () => {
    expect(mined(session([view, ranThenRejected(1, "patched a.py"), ranThenRejected(2, "already patched"), rejected(3), after]))).toEqual(["same-failure 1-3"]);
    // The first call's output heard again whole, then the error again: nothing new either.
    expect(mined(session([view, ranThenRejected(1, "created"), rejected(2), rejected(3), ranThenRejected(1, "created"), after]))).toEqual(["same-failure 1-4"]);
  });

  it("leaves alone scripts that each ran and said something new before the same trailing error", () => {
    expect(mined(session([view, ranThenRejected(1, "patched a.py"), ranThenRejected(2, "fixed the indentation"), ranThenRejected(3, "removed the extra append"), after]))).toEqual([]);
    // A new report in the middle parts the chain (A X A: the call between is not counted), two of the same error are no three.
    expect(mined(session([view, rejected(1), ranThenRejected(2, "files written"), rejected(3), after]))).toEqual([]);
  });

  it("chains edits that found nothing to replace, the error after them or not, as one refusal", () => {
    const noTarget = (n: number): [string, string, number] => [ranThenRejected(n, "x")[0], `pattern not found in a.py\nbash: -c: line ${7 + n}: syntax error near unexpected token \`&&'\nbash: -c: line ${7 + n}: \`&& python -m pytest -q'`, 2];
    const plain: [string, string, number] = ["python - <<'PY'\nfrom pathlib import Path\np = Path('a.py')\np.write_text(p.read_text().replace('omega', 'y'))\nPY", "pattern not found", 1];
    expect(mined(session([view, noTarget(1), noTarget(2), plain, after]))).toEqual(["same-rejection 1-3"]);
  });

  it("chains calls that ran and said the same, then met the same error, only when one before in the chain said it whole", () => {
    expect(mined(session([ranThenRejected(0, "created"), rejected(1), ranThenRejected(2, "created")]))).toEqual(["same-failure 0-2"]);
    expect(mined(session([ranThenRejected(0, "created"), ranThenRejected(1, "created"), ranThenRejected(2, "created")]))).toEqual(["same-failure 0-2"]);
    // Another syntax error after the same output is another lesson: it joins no chain, not even after a call between that met it.
    const endOfFile = (n: number): [string, string, number] => [ranThenRejected(n, "created")[0], `created\nbash: -c: line ${7 + n}: syntax error: unexpected end of file`, 2];
    expect(mined(session([ranThenRejected(0, "created"), ranThenRejected(1, "created"), ranThenRejected(2, "created"), endOfFile(3)]))).toEqual(["same-failure 0-2"]);
    expect(mined(session([ranThenRejected(0, "created"), endOfFile(1), ranThenRejected(2, "created"), endOfFile(3)]))).toEqual([]);
  });

  it("reads bash's syntax error in the middle of an answer that ends in another failure by that failure, each call's output aside", () => {
    const middle = (n: number): [string, string, number] => [ranThenRejected(n, "x")[0], `created ${word(n)}\nbash: -c: line 3: syntax error near unexpected token \`&&'\nbash: -c: line 3: \`&& x'\nTraceback (most recent call last):\n  File "/w/b.py", line 2, in <module>\nValueError: boom`, 1];
    expect(mined(session([middle(0), middle(1), middle(2)]))).toEqual(["same-failure 0-2"]);
  });

  it("tells failures apart by their exit status outside bash's syntax errors, and chains a missing module whatever the route and status", () => {
    const boom = (n: number, code: number): [string, string, number] => [`python run_${word(n)}.py`, "Traceback (most recent call last):\n  File \"/w/b.py\", line 2, in <module>\nValueError: boom", code];
    // (no-new-fact may flag them as heard again: what is checked is that same-failure does not chain them)
    expect(mined(session([boom(0, 1), boom(1, 2), boom(2, 1)])).filter((s) => s.startsWith("same-failure"))).toEqual([]);
    // Each call's own failure line differs (none, the error, unittest's summary): the missing module is what they share.
    const missing: [string, string, number][] = [
      ["python -m pytest -q || echo 'pytest not available'", "/usr/bin/python: No module named pytest\npytest not available", 0],
      ["python -c 'import pytest'", 'Traceback (most recent call last):\n  File "<string>", line 1, in <module>\nModuleNotFoundError: No module named \'pytest\'', 1],
      ["python -m unittest tests.test_a", "ImportError: No module named pytest\nFAILED (errors=1)", 1],
    ];
    expect(mined(session(missing))).toEqual(["same-failure 0-2"]);
  });

  it("makes no stretch of one call: a call alone between two runs of one unparsed action is left to the runs", () => {
    const unparsed = (what: string): [string, string, number] => [`<format_example> exec_bash_cmd('${what}') </format_example>`, `File "<string>", line 865\n    <format_example>\n    ^\nSyntaxError: invalid syntax`, 1];
    const again = unparsed("grep -n x a.py");
    expect(mined(session([view, again, again, again, unparsed("nl -ba a.py"), again, again, again, after]))).toEqual(["repeat 1-3", "repeat 5-7"]);
    // Nor a call before a run of it, or a call after a look that follows a run.
    expect(mined(session([view, unparsed("nl -ba a.py"), again, again, again, after]))).toEqual(["repeat 2-4"]);
    const look: [string, string] = ["grep -n handle b.py", "12: def handle(self):\n30:     self.handle = None"];
    expect(mined(session([view, again, again, again, look, unparsed("nl -ba a.py"), again, again, again, after]))).toEqual(["repeat 1-3", "repeat 6-8"]);
  });
});
