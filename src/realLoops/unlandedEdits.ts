// The miner's unlanded-edits rule (see mine.ts): runs of attempts to change one file, none of
// which took effect, with only looks at that file between. Round 5, the readers' biggest miss on
// the development readings: "patch never lands", "attempts to repair visit_Constant all fail to
// apply", "same one-line edit rejected 3 times ... file unchanged until the agent switched to
// sed", "fix_datetime.py had no effect: the view shows line 1117 unchanged". Each attempt fails
// with a different message (a patch that does not apply, then a corrupt patch, then a harness
// SyntaxError, then a script that ran and changed nothing), so the rules that need one signature
// (same-failure, same-rejection) break; yet the file never moved, so no attempt after the first
// taught the agent anything about the file that the first did not (the readers' protocol). One
// principled test, not the wording of any error: did the write take effect?
import { answerBody, correctedRefusal, filesOf, type FactCall, NEW_FACT_WINDOW, sameRegion, WITHIN_MIN_LINES } from "../import/facts.js";
import { attemptsWrite, neverRan, writesNothing } from "../import/landed.js";
import { perCall } from "../import/perCall.js";
import { createdFileOf, SHELL_TOOLS } from "../import/writes.js";

/** A call as this rule reads it: what it taught, and its position among the session's calls. */
export interface UnlandedCall extends FactCall {
  readonly index: number;
}

/** How many calls that write nothing (looks at the file) may sit between two attempts. */
const LOOKS_BETWEEN = 3;

const namedFiles = (c: FactCall): string[] => {
  const f = filesOf(c);
  return f === "" ? [] : f.split(" ");
};

/**
 * For each call, whether it is an attempt to write that did not land: it never ran (landed.ts
 * neverRan), or it ran and the next look at its file, before anything else wrote, re-read the
 * same region as a look before the attempt did, line for line (facts.ts hearsAgain "again": the
 * same answer, or two thirds and more of the same lines): the file's lines re-shown unchanged.
 * Why not more: an attempt whose effect is unknown (a script that printed nothing or "patched",
 * the file not re-shown) is taken to have landed, so it ends a run; the readers' protocol counts
 * edits that landed and broke the file differently as work, and a run resting on a guess would
 * be a false alarm the precision readers would cut.
 */
export function unlandedAttempts(calls: readonly UnlandedCall[]): boolean[] {
  const unlanded: boolean[] = [];
  for (const c of calls) {
    const k = c.index;
    if (!attemptsWrite(c)) {
      unlanded.push(false);
      continue;
    }
    unlanded.push(neverRan(c) || reShownUnchanged(calls, unlanded, k));
  }
  return unlanded;
}

/** After the attempt at k, a look at its file hears again what a look before it heard (see unlandedAttempts). */
function reShownUnchanged(calls: readonly UnlandedCall[], unlanded: readonly boolean[], k: number): boolean {
  const c = calls[k] as UnlandedCall;
  const files = namedFiles(c);
  if (files.length === 0 || c.outcome === undefined) return false;
  const looksAt = (x: UnlandedCall) => x.outcome !== undefined && viewsFile(x) && writesNothing(x) && namedFiles(x).some((f) => files.includes(f));
  let after: UnlandedCall | undefined;
  for (let n = k + 1; n < calls.length && n <= k + LOOKS_BETWEEN; n++) {
    const x = calls[n] as UnlandedCall;
    if (!writesNothing(x)) break;
    if (looksAt(x)) {
      after = x;
      break;
    }
  }
  // The attempt's own answer may re-show the file: a view chained last, after the write
  // (python fix.py && nl -ba a.py | sed -n '200,236p').
  if (after === undefined && VIEW_CHAINED_LAST.test(c.rawArgs)) after = c;
  if (after === undefined || after.silent) return false;
  // Back no further than the last write that may have landed (an attempt that did not land moved nothing).
  for (let p = k - 1; p >= Math.max(0, k - NEW_FACT_WINDOW); p--) {
    const q = calls[p] as UnlandedCall;
    if (!writesNothing(q) && unlanded[p] !== true) return false;
    // An earlier attempt that did not land and showed the file after it showed the file as it was.
    const shown = looksAt(q) || (unlanded[p] === true && VIEW_CHAINED_LAST.test(q.rawArgs) && namedFiles(q).some((f) => files.includes(f)));
    if (!shown) continue;
    if (after === c || !looksAt(q) ? reShownWithin(q, after) : reShownAsPrinted(q, after)) return true;
  }
  return false;
}

/** A command whose last part views a file (nl, cat, sed -n, head, tail, each maybe piped to sed -n or head): what it shows comes after the write before it. */
const VIEW_CHAINED_LAST = /(?:&&|;|\\n)\s*(?:nl -ba|cat -n|cat|sed -n|head|tail)\b[^&;|"]*(?:\|\s*(?:sed -n|head|tail|nl)\b[^&;|"]*)*"\}$/;
/**
 * The lines a view printed with their numbers (nl -ba: "  183\tcode"), as recorded: a region
 * re-shown unchanged prints every one of them again, numbers and all.
 */
const numberedLines = perCall((c: FactCall): readonly string[] => c.rawResult.split("\n").filter((l) => NUMBERED_LINE.test(l)).map((l) => l.trimEnd()));
const NUMBERED_LINE = /^\s*\d+\t/;
/**
 * The attempt's own answer (a view chained after it) re-shows the region an earlier view showed,
 * unchanged: 3 or more numbered lines, every one printed by the earlier view with the same number
 * and text, covering at least two thirds of that view (facts.ts sameRegion). Numbered lines only,
 * compared as printed: a blank line inserted shifts every number after it (the edit landed), and
 * the attempt's own messages around the view are no lines of the file.
 */
function reShownWithin(look: FactCall, c: FactCall): boolean {
  return sameLinesAgain(numberedLines(look), numberedLines(c));
}
/**
 * A later look re-shows what an earlier look printed, character for character (indentation
 * included, nothing masked): every line of it, 3 or more, printed before, covering at least two
 * thirds of the earlier view. Not facts.ts hearsAgain, which masks numbers and makes white space
 * one space (right for "nothing new was heard", wrong for "nothing was written": a re-indent
 * changes only white space, and the readers count an edit that landed as work).
 */
function reShownAsPrinted(look: FactCall, after: FactCall): boolean {
  return sameLinesAgain(printedLines(look), printedLines(after));
}
function sameLinesAgain(before: readonly string[], now: readonly string[]): boolean {
  if (now.length < WITHIN_MIN_LINES || before.length === 0) return false;
  const had = new Set(before);
  return now.every((l) => had.has(l)) && sameRegion(new Set(now), before);
}
/** The non-blank lines an answer printed, as recorded (trailing white space aside), without the importer's details line. */
const printedLines = perCall((c: FactCall): readonly string[] => answerBody(c.rawResult).split("\n").map((l) => l.trimEnd()).filter((l) => l.trim() !== ""));

/**
 * A call that shows a file's lines rather than running anything: a named viewer (print_code_context,
 * a read tool), or a shell command that only prints or searches (cat, nl, sed -n, head, tail, grep,
 * git diff, git show). A run of a script that prints the same after an edit is no look: the readers'
 * protocol counts a test re-run after a real change as work even when it fails the same way.
 */
function viewsFile(c: UnlandedCall): boolean {
  if (!SHELL_TOOLS.has(c.call.tool)) return !/run|exec|bash|python|test/i.test(c.call.tool);
  return VIEW_COMMAND.test(c.rawArgs);
}
const VIEW_COMMAND = /^\{"command":"(?:cd [^\s&;]+ && )?(?:cat|nl|sed -n|head|tail|grep|rg|git (?:diff|show))\b[^|;&]*(?:\|\s*(?:sed -n|head|tail|grep|nl)\b[^|;&]*)*"\}$/;

/**
 * Runs of `need` or more attempts to write that did not land (unlandedAttempts), not yet taken,
 * on one file, with at most LOOKS_BETWEEN calls between two of them that write nothing and look
 * at that file (or name no file and taught nothing: failed, or said nothing). The stretch runs from the
 * first attempt to the last. Attempts whose files the record does not give (a command known only
 * by a variable) join when they never ran: an action that never ran changed no file, whichever
 * it was meant for. Not a run: an attempt that landed between (the file moved: the next attempt
 * meets a new file), a new file created, a look at another file (work elsewhere, a new fact).
 */
export function unlandedEditRuns(calls: readonly UnlandedCall[], taken: readonly boolean[], need: number): [number, number][] {
  const unlanded = unlandedAttempts(calls);
  const out: [number, number][] = [];
  let i = 0;
  while (i < calls.length) {
    if (taken[i] === true || unlanded[i] !== true) {
      i++;
      continue;
    }
    const target = new Set(namedFiles(calls[i] as UnlandedCall));
    const onTarget = (c: UnlandedCall) => {
      const files = namedFiles(c);
      return files.length === 0 || target.size === 0 || files.some((f) => target.has(f));
    };
    // A call between two attempts must look at the file, or teach nothing (fail, say nothing): a
    // search elsewhere that answered is a new fact (the readers started a stretch after "#13/#14
    // in between looked at new things", not before).
    const looksAtTarget = (c: UnlandedCall) => (namedFiles(c).length > 0 ? onTarget(c) : c.failed || c.silent);
    let last = i;
    let attempts = 1;
    for (;;) {
      let next = -1;
      for (let n = last + 1; n < calls.length && n <= last + 1 + LOOKS_BETWEEN; n++) {
        const c = calls[n] as UnlandedCall;
        if (taken[n] === true || c.outcome === undefined) break;
        if (attemptsWrite(c)) {
          if (unlanded[n] === true && (onTarget(c) || neverRan(c))) next = n;
          break;
        }
        if (createdFileOf(c.rawArgs) !== undefined || !writesNothing(c) || !looksAtTarget(c)) break;
      }
      if (next < 0) break;
      // A refused edit corrected from lines the looks between showed first is a new attempt, not
      // the same one again (facts.ts correctedRefusal; the round-4 precision reading judged chains
      // of such corrections false alarms): it stays in the run but does not count.
      const corrected = correctedRefusal(calls[last] as UnlandedCall, calls[next] as UnlandedCall, calls.slice(Math.max(0, last - NEW_FACT_WINDOW), last), calls.slice(last + 1, next));
      // A never-ran action on another file joins, but does not widen what the run is about.
      if (onTarget(calls[next] as UnlandedCall)) for (const f of namedFiles(calls[next] as UnlandedCall)) target.add(f);
      last = next;
      if (!corrected) attempts++;
    }
    if (attempts >= need) out.push([i, last]);
    i = last + 1;
  }
  return out;
}
