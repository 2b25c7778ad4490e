// An edit that found nothing to change, or an editor that turned it back, is a refusal however the
// agent's own script words it (round 7): what it was to replace "not found" in any words, "no
// changes made", an editor raising in its own lookup of the old text, an editor reporting Old ==
// New. Tiny sessions built here (a few calls each), for what same-rejection now flags and for each
// case it still leaves alone: a search that finds nothing, a refusal line inside a longer useful
// answer, an editor raising in its own function (its input, another kind), an exception raised in
// the repository's code, a real replacement.
import { describe, expect, it } from "vitest";
import type { ToolEvent } from "../models/events.js";
import { factCallOf } from "../src/import/facts.js";
import { mineStretches } from "../src/realLoops/mine.js";
import { bash, session } from "./fixtures/noNewFactSessions.js";

const rules = (events: ToolEvent[]) => mineStretches(events).map((s) => `${s.rule} ${s.firstCall}-${s.lastCall} ${s.kind}`);

/** The refusal kind one recorded call gets (the first call of its events). */
const refusalOf = (events: ToolEvent[]): string | undefined => {
  const [call, outcome] = events;
  if (call?.type !== "call" || outcome?.type !== "outcome") throw new Error("a call and its outcome");
  return factCallOf(call, outcome).rejected;
};

/** A heredoc patch script for one file, a different needle each time (the args change). */
const patchScript = (n: number) => `python3 - <<'PY'\nfrom pathlib import Path\np = Path('sphinx/environment/adapters/toctree.py')\ns = p.read_text()\nneedle = 'docname_join${n}('\nif needle not in s:\n    print('not found')\nelse:\n    p.write_text(s.replace(needle, 'x'))\nPY`;
const trailer = (line: number) => `bash: -c: line ${line}: syntax error near unexpected token \`&&'\nbash: -c: line ${line}: \`&& echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT'`;
const view: [string, string] = ["sed -n '40,60p' sphinx/environment/adapters/toctree.py", "def resolve(self, docname):\n    return docname_join(docname)"];

/** A named editor tool's call (CaM's code_replace) answered with `text`. */
const editor = (i: number, tool: string, params: Record<string, unknown>, text: string, exitCode = 0): ToolEvent[] => [
  { type: "call", runId: "r", callId: `c${i}`, tool, params },
  { type: "outcome", runId: "r", callId: `c${i}`, tool, params, result: { content: [{ type: "text", text }], details: { status: exitCode === 0 ? "completed" : "failed", exitCode } } },
];
const replaceCall = (n: number) => ({ calls: [{ tool: "bash", params: { command: "nl -ba sphinx/domains/python.py | sed -n '1140,1166p'" } }, { tool: "code_replace", params: { file_path: "sphinx/domains/python.py", old_code: { expr: `old${n}` }, new_code: { expr: "new" } } }] });
const crash = (inner: string[], error: string) => ["Traceback (most recent call last):", '  File "<string>", line 801, in <module>', '  File "<string>", line 726, in wrapper', ...inner.map((f, k) => `  File "<string>", line ${300 - k}, in ${f}`), error, "bash execution output:", "  1140\t        newname = None"].join("\n");
const lookupCrash = crash(["patch_find_obj", "code_replace", "find_code_block_lines", "normalize"], "AttributeError: 'NoneType' object has no attribute 'splitlines'");
const block = "parent_links = {}\n        for base in reversed([new_class] + parents):\n            if not hasattr(base, '_meta'):\n                continue";
const oldNew = (oldText: string, newText: string) => `Replaced L195-207 (13 lines) -> L195-207 (13 lines)\n  Old: ${oldText}\n  New: ${newText}\n`;

describe("an edit's refusal in the agent's own words", () => {
  it("chains patch scripts each saying in other words that what they were to replace is not there, bash's complaint about the line after the heredoc aside", () => {
    const events = session([
      view,
      [patchScript(1), `pattern not found in sphinx/environment/adapters/toctree.py\n${trailer(20)}`, 2],
      [patchScript(2), `pattern not found, no changes made\n${trailer(25)}`, 2],
      [patchScript(3), "target location not found, no changes made"],
      [patchScript(4), "needle not found, aborting", 1],
      [patchScript(5), "START_MARKER_NOT_FOUND", 1],
      ["grep -rn docname_join sphinx/util", "sphinx/util/__init__.py:12:def docname_join(basedocname, docname):"],
    ]);
    expect(rules(events)).toEqual(["same-rejection 1-5 changing-args"]);
    for (const answer of ["start/end not found or order wrong", "Could not find insertion point in a.py", "no change", "context mismatch for block1; aborting", "nothing to replace"]) {
      expect(refusalOf(bash(0, patchScript(1), answer)), answer).toBe("replacement not performed");
    }
  });

  it("leaves alone searches that find nothing, a refusal line inside a longer answer, and bash failing to find a command", () => {
    const search = (n: number) => `python3 - <<'PY'\ns = open('sphinx/directives/other.py').read()\nprint('found' if 'needle${n}' in s else 'needle not found')\nPY`;
    expect(rules(session([[search(1), "needle not found"], [search(2), "needle not found"], [search(3), "pattern not found"]]))).toEqual([]);
    const longer = session([
      [patchScript(1), "pattern not found, showing context:\nimport logging\nfrom typing import Any\nlogger = logging.getLogger(__name__)\nclass Foo:"],
      [patchScript(2), "pattern not found, trying alternative approach\nAdded visit_unknown method (alternative approach)"],
      [patchScript(3), "pattern not found"],
    ]);
    expect(rules(longer)).toEqual([]);
    expect(refusalOf(bash(0, `${patchScript(1)} && tree`, "bash: line 1: tree: command not found", 127))).toBeUndefined();
  });

  it("takes an editor that raised while looking up its old text for a refused replacement, with re-views between; in its own function, a rejected input", () => {
    const view2 = (i: number) => editor(i, "print_code_context", { file_path: "sphinx/domains/python.py", lines: [1125 + i, 1166] }, `1140         newname = None\n1141         if searchmode == ${i}:`);
    const events = [...editor(0, "bash", replaceCall(0), lookupCrash, 1), ...view2(1), ...view2(2), ...editor(3, "bash", replaceCall(3), lookupCrash, 1), ...editor(4, "bash", replaceCall(4), lookupCrash, 1)];
    expect(rules(events)).toEqual(["same-rejection 0-4 changing-args"]);
    const ownInput = editor(0, "code_replace", { file_path: "a.py", new_code: [263, 276] }, crash(["fix_consume_field", "code_replace"], "ValueError: too many values to unpack (expected 2)"), 1);
    expect(refusalOf(ownInput)).toBe("tool input rejected");
    const syntaxCheck = editor(0, "code_replace", { file_path: "a.sty", old_code: "\\def\\a#1{#1}", new_code: "\\def\\a#1{x#1}" }, 'Error: Syntax error in replaced code\n  File "/tmp/tmp2yokeodf.py", line 1\n    %% TEXT STYLING\n    ^\nSyntaxError: invalid syntax');
    expect(refusalOf(syntaxCheck)).toBe("edit rejected by the linter");
  });

  it("leaves alone an exception raised in the repository's code or the agent's own function, and a traceback deep in a long output", () => {
    const inRepo = ["Traceback (most recent call last):", '  File "<string>", line 801, in <module>', '  File "<string>", line 349, in code_replace', '  File "/testbed/sphinx/util/__init__.py", line 12, in helper', "AttributeError: 'NoneType' object has no attribute 'x'"].join("\n");
    expect(refusalOf(editor(0, "bash", replaceCall(0), inRepo, 1))).toBeUndefined();
    expect(refusalOf(editor(0, "bash", replaceCall(0), crash(["patch_attr_docs"], "AttributeError: 'NoneType' object has no attribute 'replace'"), 1))).toBeUndefined();
    expect(refusalOf(editor(0, "bash", replaceCall(0), `${"x".repeat(2000)}\n${lookupCrash}`, 1))).toBeUndefined();
  });

  it("takes an editor's report of replacing the old text with itself (Old == New) for an edit that changed nothing; a real replacement is none", () => {
    const replace = (i: number, text: string) => editor(i, "code_replace", { file_path: "django/db/models/base.py", new_code: `        ${block}\n${"#".repeat(i)}`, line_numbers: [195, 207] }, text);
    const same = oldNew(block, block);
    expect(refusalOf(replace(0, same))).toBe("edit changed nothing");
    expect(rules([...replace(0, oldNew(`${block}\n            x = 1`, block)), ...replace(1, same), ...replace(2, same), ...replace(3, same)])).toEqual(["same-rejection 1-3 changing-args"]);
    expect(refusalOf(replace(0, oldNew(block, `${block}\n            y = 2`)))).toBeUndefined();
  });
});

describe("an edit's refusal: the bounds of what is read", () => {
  const refusal = (answer: string) => refusalOf(bash(0, patchScript(1), answer));
  it("reads at most four short lines, after the wrapper's prefix, up to bash's complaint however long the line it quotes", () => {
    expect(refusal("bash execution output:\npattern not found")).toBe("replacement not performed");
    // The wrapper's prefix on the report's own line is no part of the few words before "not found".
    expect(refusal(`bash execution output: ${"the anchor ".repeat(4)}was not found`)).toBe("replacement not performed");
    // bash's warning about the here-document before the report is bash's, not the script's.
    expect(refusal("bash: line 5: warning: here-document at line 1 delimited by end-of-file (wanted `PY')\npattern not found")).toBe("replacement not performed");
    expect(refusal(Array(4).fill("pattern not found").join("\n"))).toBe("replacement not performed");
    expect(refusal(Array(5).fill("pattern not found").join("\n"))).toBeUndefined();
    expect(refusal(`pattern not found: ${"x".repeat(700)}`)).toBeUndefined();
    const exactly = (n: number, text: string) => text + "x".repeat(n - text.length);
    expect(refusal(exactly(600, "pattern not found: "))).toBe("replacement not performed");
    const quoted = (n: number) => `pattern not found\n${trailer(20)}\nbash: -c: line 20: \`&& ${"x".repeat(n)}'`;
    expect(refusal(quoted(1000))).toBe("replacement not performed");
    expect(refusal(quoted(4000))).toBeUndefined();
    const atBound = quoted(1000 + 4000 - quoted(1000).length);
    expect(atBound.length).toBe(4000);
    expect(refusal(atBound)).toBe("replacement not performed");
    // bash's complaint alone, quoting a line that says "not found", is no edit's report.
    expect(refusal("bash: -c: line 1: syntax error near unexpected token `&&'\nbash: -c: line 1: `&& echo not found'")).toBeUndefined();
  });

  it("looks for the editor's traceback in the answer's first 1500 characters, from its first line", () => {
    const after = (n: number) => refusalOf(editor(0, "bash", replaceCall(0), `${"x".repeat(n - 1)}\n${lookupCrash}`, 1));
    expect(after(1450)).toBe("replacement not performed");
    expect(after(1500)).toBe("replacement not performed");
    expect(after(1503)).toBeUndefined();
    expect(after(1510)).toBeUndefined();
  });

  it("compares Old and New trimmed, takes no empty Old for a no-op, and reads no report over 20000 characters", () => {
    const replace = (text: string) => refusalOf(editor(0, "code_replace", { file_path: "django/db/models/base.py", new_code: block, line_numbers: [195, 207] }, text));
    expect(replace(oldNew(`${block}  `, block))).toBe("edit changed nothing");
    expect(replace(oldNew(" ", " "))).toBeUndefined();
    const sized = (n: number) => {
      const base = oldNew("", "").length;
      const half = Math.floor((n - base) / 2);
      // New padded with spaces, which the comparison trims: Old == New at any size.
      return oldNew("y".repeat(half), "y".repeat(half) + " ".repeat(n - base - 2 * half));
    };
    expect(sized(20_001).length).toBe(20_001);
    expect(replace(sized(20_001))).toBeUndefined();
    expect(sized(20_000).length).toBe(20_000);
    expect(replace(sized(20_000))).toBe("edit changed nothing");
  });
});
