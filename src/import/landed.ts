// Whether a recorded edit attempt took effect: the decision the miner's unlanded-edits rule
// (src/realLoops/unlandedEdits.ts) rests on. It sits with the importers, beside writes.ts and
// facts.ts, because it reads one call (its tool, its args and its answer as recorded) and the
// facts those files already give (a refusal, an action the harness never parsed). Pure and
// deterministic.
import { type FactCall, failureFamily, INSTALL_FAILED, neverTookEffect, ownProgramUnparsed, writeKindOf } from "./facts.js";
import { perCall } from "./perCall.js";
import { SHELL_TOOLS } from "./writes.js";

/** Whether a call writes nothing: the rule asks it of each call around each attempt. */
export const writesNothing = (c: FactCall): boolean => writeKindOf(c).kind === "none";

/**
 * A named tool that edits files (an editor's str_replace, CaM's code_replace, save_code_to_file).
 * A chat runtime's state-changing tool (book_reservation, update_reservation_flights) is no file
 * edit: a refused booking with other args is news about that booking, which the other rules judge.
 */
const FILE_TOOL = /edit|replace|patch|insert|file|code|write/i;

/**
 * A call that tries to change a file: a write by writes.ts (sed -i, a patch, an editor
 * tool, a script body that writes), or a command the record names only by a variable (CaM's
 * exec_bash_cmd(cmd): what it was is not known, but most are the patch scripts the answer
 * reports on). A new file created whole (cat > fix.py <<EOF) is preparation, not an attempt.
 */
export const attemptsWrite = perCall((c: FactCall): boolean => {
  if (!SHELL_TOOLS.has(c.call.tool) && !FILE_TOOL.test(c.call.tool)) return false;
  const kind = writeKindOf(c).kind;
  return kind === "writes" || kind === "unknown";
});

/**
 * The attempt never ran, so it changed nothing, whatever it meant to write:
 *  - the environment refused it or never parsed it (facts.ts neverTookEffect: a patch that did
 *    not apply, "Code to replace not found", an edit script that says it found no target, the
 *    harness's File "<string>" ... SyntaxError, a command line bash could not parse); a failed
 *    install is no edit and is left to the other rules;
 *  - its own program could not be parsed: Python reports a SyntaxError in the script it was given
 *    (File "<stdin>", "<string>") with no "Traceback" before it: a compile-time error, raised
 *    before the first statement ran (a SyntaxError after a Traceback was raised by a running
 *    script, importing the file it may have just written: that edit landed); sed's or perl's
 *    refusal of its own expression ("sed: -e expression #1, char 9: unterminated `s' command",
 *    "Execution of -e aborted due to compilation errors").
 * Why these only: a shell script that failed otherwise (a traceback half way) may have written
 * before it failed, and an attempt that ran may have landed; the readers' protocol counts edits
 * that landed and broke the file differently as work. Those are decided by a re-view instead
 * (unlandedEdits.ts), or not at all.
 */
export const neverRan = perCall((c: FactCall): boolean => {
  if (c.outcome === undefined) return false;
  if (neverTookEffect(c)) return !(failureFamily(c) ?? "").startsWith(INSTALL_FAILED);
  return ownProgramUnparsed(c);
});
