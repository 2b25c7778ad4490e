// The restore-cycle rule (src/realLoops/restoreCycles.ts) on tiny sessions, each written to tell one
// of its decisions from a near neighbour: what it flags (the same result after each attempt across
// identical restores; the same first write re-sent after a restore and undone again) and each case
// it leaves alone (an A/B check, a cycle that heard something new, different restores, a re-sent
// write that was kept or whose cycle ran something new). Written for these tests; no dataset is copied.
import { describe, expect, it } from "vitest";
import type { ToolEvent } from "../models/events.js";
import { factCallOf } from "../src/import/facts.js";
import { mineStretches } from "../src/realLoops/mine.js";
import { restoredFiles } from "../src/realLoops/restoreCycles.js";
import { session } from "./fixtures/noNewFactSessions.js";

/** Only this rule's stretches: the other rules are tested elsewhere. */
const cycles = (events: ToolEvent[]) => mineStretches(events).filter((s) => s.rule === "restore-cycle").map((s) => `${s.firstCall}-${s.lastCall}`);
const sh = (command: string, text = "", exitCode = 0) => factCallOf({ type: "call", runId: "r", callId: "c", tool: "bash", params: { command } }, { type: "outcome", runId: "r", callId: "c", tool: "bash", params: {}, result: { content: [{ type: "text", text }], details: { status: exitCode === 0 ? "completed" : "failed", exitCode } } });

type Call = [string, string, number?];
/** A different edit script each time (each writes a.py, each says it did). */
const edit = (n: number): Call => [`python - <<'PY'\nopen('src/a.py','w').write(fix${["one", "two", "three", "four"][n] as string}())\nPY`, `fixed ${["one", "two", "three", "four"][n] as string}`];
const lint: Call = ["echo 'select 1;;' | lint - 2>&1 | tail -3", "Traceback (most recent call last):\n  File \"/x/helpers.py\", line 30, in check\nRuntimeError: Dropped elements in sequence matching! 'select 1;;' != ';'"];
const otherError: Call = ["echo 'select 1;;' | lint - 2>&1 | tail -3", "Traceback (most recent call last):\n  File \"/x/parse.py\", line 12, in parse\nKeyError: 'delimiter'"];
const checkout: Call = ["git checkout src/a.py", "Updated 1 path from the index"];
const restoreBackup: Call = ["cp src/a.py.bak src/a.py", ""];
const view: Call = ["sed -n '890,905p' src/a.py", "        else:\n            try:\n                value = data[name]\n            validated = unmarshal(value)"];
const deleteLines: Call = ["sed -i '895,897d' src/a.py", ""];
const test: Call = ["python test_a.py", "  File \"/testbed/src/a.py\", line 904\n    def _invoke(\nSyntaxError: expected 'except' or 'finally' block", 1];

describe("restoredFiles: which calls undo a write", () => {
  it("reads git checkout, git restore, git stash, git reset --hard and a copy back from a backup", () => {
    expect(restoredFiles(sh("git checkout -- src/a.py"))).toEqual(["src/a.py"]);
    expect(restoredFiles(sh("cd /testbed && git checkout src/a.py 2>/dev/null || true"))).toEqual(["src/a.py"]);
    expect(restoredFiles(sh("git restore src/a.py"))).toEqual(["src/a.py"]);
    expect(restoredFiles(sh("git checkout ."))).toEqual(["*"]);
    expect(restoredFiles(sh("git stash"))).toEqual(["*"]);
    expect(restoredFiles(sh("git reset --hard"))).toEqual(["*"]);
    expect(restoredFiles(sh("cp src/a.py.bak src/a.py"))).toEqual(["src/a.py"]);
    expect(restoredFiles(sh("mv src/a.py.orig src/a.py"))).toEqual(["src/a.py"]);
  });

  it("takes no backup, branch switch, stash listing, failed or unparsed checkout for a restore", () => {
    expect(restoredFiles(sh("cp src/a.py src/a.py.bak"))).toBeUndefined();
    expect(restoredFiles(sh("git checkout -b fix"))).toBeUndefined();
    expect(restoredFiles(sh("git checkout main"))).toBeUndefined();
    expect(restoredFiles(sh("git stash list"))).toBeUndefined();
    expect(restoredFiles(sh("git checkout src/b.py", "error: pathspec 'src/b.py' did not match any file(s) known to git", 1))).toBeUndefined();
    expect(restoredFiles(sh("git checkout src/a.py && sed -i 's/(/' src/a.py", "bash: -c: line 1: syntax error near unexpected token `('", 2))).toBeUndefined();
  });
});

describe("restore cycles: the same result after each attempt, across the same restore", () => {
  it("flags three cycles of edit, the same failure, the same checkout (from the first hearing to the last restore)", () => {
    expect(cycles(session([edit(0), lint, checkout, edit(1), lint, checkout, edit(2), lint, checkout]))).toEqual(["1-8"]);
  });

  it("counts the cycle after the last restore, up to its hearing", () => {
    expect(cycles(session([edit(0), lint, checkout, edit(1), lint, checkout, edit(2), lint]))).toEqual(["1-7"]);
  });

  it("does not flag an A/B check: a baseline run right after a checkout hears the restored file, not an attempt", () => {
    expect(cycles(session([edit(0), lint, checkout, lint, edit(1), lint]))).toEqual([]);
    expect(cycles(session([edit(0), lint, checkout, lint, checkout, lint]))).toEqual([]);
  });

  it("does not flag two cycles only: the same failure twice is a retry", () => {
    expect(cycles(session([edit(0), lint, checkout, edit(1), lint, checkout]))).toEqual([]);
  });

  it("does not flag cycles when one between heard something new (the agent moved on)", () => {
    expect(cycles(session([edit(0), lint, checkout, edit(1), otherError, checkout, edit(2), lint, checkout]))).toEqual([]);
  });

  it("does not chain different undos (a checkout, then a copy back from a backup) into one loop", () => {
    expect(cycles(session([edit(0), lint, checkout, edit(1), lint, restoreBackup, edit(2), lint, checkout]))).toEqual([]);
  });

  it("does not chain restores more than RESTORE_GAP calls apart", () => {
    const reads: Call[] = Array.from({ length: 10 }, (_, n) => [`grep -n name${n} src/b.py`, `${n}: name${n} = 1`]);
    expect(cycles(session([edit(0), lint, checkout, edit(1), lint, ...reads, checkout, edit(2), lint, checkout]))).toEqual([]);
  });
});

describe("restore cycles: the same first write re-sent after a restore, undone again", () => {
  it("flags it when only looks at the file sit between the re-send and the second undo", () => {
    expect(cycles(session([view, deleteLines, view, test, checkout, view, deleteLines, view, checkout]))).toEqual(["1-8"]);
  });

  it("does not flag a write re-applied after an A/B check and kept (no second undo)", () => {
    expect(cycles(session([view, deleteLines, view, test, checkout, test, deleteLines, view]))).toEqual([]);
  });

  it("does not flag it when a run between the re-send and the undo said something new", () => {
    const passed: Call = ["python test_b.py", "all 4 checks passed"];
    expect(cycles(session([view, deleteLines, view, test, checkout, view, deleteLines, passed, checkout]))).toEqual([]);
  });

  it("does not take a write of another file (git diff > patch.txt) for the attempt re-sent", () => {
    const diff: Call = ["git diff src/a.py > patch.txt", ""];
    expect(cycles(session([diff, view, checkout, diff, view, checkout]))).toEqual([]);
  });
});

describe("restore cycles: the same state re-made at once after a restore", () => {
  const diff = (hunk: string): Call => [`git diff src/a.py > patch.txt && echo '=== patch ===' && cat patch.txt`, `=== patch ===\ndiff --git a/src/a.py b/src/a.py\nindex 6d69846..0986a3f 100644\n--- a/src/a.py\n+++ b/src/a.py\n@@ -1,3 +1,4 @@\n${hunk}`];
  const misplaced = diff("+    if location is None:\n+        return None");

  it("flags a checkout, at once a new attempt, and the identical diff the cycle before showed (from the first diff to the second)", () => {
    expect(cycles(session([edit(0), misplaced, checkout, edit(1), misplaced, view]))).toEqual(["1-4"]);
  });

  it("does not flag it when the restored file was heard first (an A/B check, then the fix again)", () => {
    expect(cycles(session([edit(0), misplaced, checkout, lint, edit(1), misplaced]))).toEqual([]);
  });

  it("does not flag a new attempt whose diff differs", () => {
    expect(cycles(session([edit(0), misplaced, checkout, edit(1), diff("+    if location is None and pkg:\n+        return None")]))).toEqual([]);
  });
});
