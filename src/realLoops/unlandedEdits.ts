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
// Narrowed after the round-5 precision reading judged only 9 of its 17 new stretches stuck (8
// false alarms): unlanded is not enough. The readers' stuck ones "keep hitting the same quoting or
// escaping error three or more times", the file never changing; their false alarms were "a series
// of different failures", each attempt getting past the previous one's mistake ("#8 gets past it
// and hits a different error, which #9 fixes"), or a 'marker_not_found' that was news, or "only 2
// calls share a failure". So a run of unlanded attempts is a stretch only where ONE lesson
// (lessonOf: the same masked failure, or the same silent no-op re-shown) comes back 3 times or
// more; other unlanded attempts and looks between stay inside the stretch but do not count, and
// the stretch runs from the first of the repeated lessons to the last (sameLessonSpan).
import { answerBody, correctedRefusal, filesOf, type FactCall, NEW_FACT_WINDOW, sameRegion, WITHIN_MIN_LINES } from "../import/facts.js";
import { attemptsWrite, neverRan, writesNothing } from "../import/landed.js";
import { failureSignature } from "../import/mask.js";
import { perCall } from "../import/perCall.js";
import { createdFileOf, SHELL_TOOLS } from "../import/writes.js";

/** A call as this rule reads it: what it taught, and its position among the session's calls. */
export interface UnlandedCall extends FactCall {
  readonly index: number;
}

/** How many calls that write nothing (looks at the file) may sit between two attempts. */
const LOOKS_BETWEEN = 3;

// Worked out once per call: reShownUnchanged asks it of every call in the window behind each attempt.
const namedFiles = perCall((c: FactCall): readonly string[] => {
  const f = filesOf(c);
  return f === "" ? [] : f.split(" ");
});

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
  if (after === undefined && viewChainedLast(c)) after = c;
  if (after === undefined || after.silent) return false;
  // Back no further than the last write that may have landed (an attempt that did not land moved nothing).
  for (let p = k - 1; p >= Math.max(0, k - NEW_FACT_WINDOW); p--) {
    const q = calls[p] as UnlandedCall;
    if (!writesNothing(q) && unlanded[p] !== true) return false;
    // An earlier attempt that did not land and showed the file after it showed the file as it was.
    const shown = looksAt(q) || (unlanded[p] === true && viewChainedLast(q) && namedFiles(q).some((f) => files.includes(f)));
    if (!shown) continue;
    if (after === c || !looksAt(q) ? reShownWithin(q, after) : reShownAsPrinted(q, after)) return true;
  }
  return false;
}

/** A command whose last part views a file (nl, cat, sed -n, head, tail, each maybe piped to sed -n or head): what it shows comes after the write before it. */
const VIEW_CHAINED_LAST = /(?:&&|;|\\n)\s*(?:nl -ba|cat -n|cat|sed -n|head|tail)\b[^&;|"]*(?:\|\s*(?:sed -n|head|tail|nl)\b[^&;|"]*)*"\}$/;
/** VIEW_CHAINED_LAST tested once per call: the look back from each attempt asks it of the same calls again. */
const viewChainedLast = perCall((c: FactCall): boolean => VIEW_CHAINED_LAST.test(c.rawArgs));
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
  return sameLinesAgain(() => numberedLines(look), numberedLines(c));
}
/**
 * A later look re-shows what an earlier look printed, character for character (indentation
 * included, nothing masked): every line of it, 3 or more, printed before, covering at least two
 * thirds of the earlier view. Not facts.ts hearsAgain, which masks numbers and makes white space
 * one space (right for "nothing new was heard", wrong for "nothing was written": a re-indent
 * changes only white space, and the readers count an edit that landed as work).
 */
function reShownAsPrinted(look: FactCall, after: FactCall): boolean {
  return sameLinesAgain(() => printedLines(look), printedLines(after));
}
/**
 * `now` is 3 or more lines, each among `before`'s, covering two thirds of them. The earlier look's
 * lines are worked out only for a `now` long enough, and its set made only when `now`'s first line
 * is among them (most looks show another region): the same answer as the set made first
 * (test/loopsFastPaths.test.ts).
 */
export function sameLinesAgain(beforeOf: () => readonly string[], now: readonly string[]): boolean {
  if (now.length < WITHIN_MIN_LINES) return false;
  const before = beforeOf();
  if (before.length === 0 || !before.includes(now[0] as string)) return false;
  const had = new Set(before);
  return now.every((l) => had.has(l)) && sameRegion(new Set(now), before);
}
/** The non-blank lines an answer printed, as recorded (trailing white space aside), without the importer's details line. */
// One pass: a line with its trailing white space trimmed is blank exactly when it is empty.
export const printedLines = perCall((c: FactCall): readonly string[] => {
  const out: string[] = [];
  for (const line of answerBody(c.rawResult).split("\n")) {
    const printed = line.trimEnd();
    if (printed !== "") out.push(printed);
  }
  return out;
});

/**
 * A call that shows a file's lines rather than running anything: a named viewer (print_code_context,
 * a read tool), or a shell command that only prints or searches (cat, nl, sed -n, head, tail, grep,
 * git diff, git show). A run of a script that prints the same after an edit is no look: the readers'
 * protocol counts a test re-run after a real change as work even when it fails the same way.
 */
// Worked out once per call: the look back from each attempt asks it of the same calls again.
export const viewsFile = perCall((c: FactCall): boolean => {
  if (!SHELL_TOOLS.has(c.call.tool)) return !/run|exec|bash|python|test/i.test(c.call.tool);
  return VIEW_COMMAND.test(c.rawArgs);
});
const VIEW_COMMAND = /^\{"command":"(?:cd [^\s&;]+ && )?(?:cat|nl|sed -n|head|tail|grep|rg|git (?:diff|show))\b[^|;&]*(?:\|\s*(?:sed -n|head|tail|grep|nl)\b[^|;&]*)*"\}$/;

/**
 * Runs of attempts to write that did not land (unlandedAttempts), not yet taken,
 * on one file, with at most LOOKS_BETWEEN calls between two of them that write nothing and look
 * at that file (or name no file and taught nothing: failed, or said nothing). The stretch runs from the
 * first attempt to the last. Attempts whose files the record does not give (a command known only
 * by a variable) join when they never ran: an action that never ran changed no file, whichever
 * it was meant for. Not a run: an attempt that landed between (the file moved: the next attempt
 * meets a new file), a new file created, a look at another file (work elsewhere, a new fact).
 * Of each run, only the part one lesson spans `need` times or more is a stretch (sameLessonSpan).
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
    // The counted attempts of the run (corrected refusals aside), in order.
    const counted: number[] = [i];
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
      if (!corrected) counted.push(next);
    }
    const repeated = sameLessonSpan(calls, counted, need);
    if (repeated !== undefined) out.push(repeated);
    i = last + 1;
  }
  return out;
}

/**
 * What an unlanded attempt told the agent, as one masked line: the kind of refusal, the failure's
 * masked signature (mask.ts failureSignature, read from the answer even when a pipe made the exit
 * status 0), or for a script that ran and changed nothing, its whole masked answer ("ERROR:
 * markers not found" again). Not facts.ts failureFamily, which makes every action the harness
 * could not parse one family: "invalid syntax" at a nested triple quote, then "unexpected
 * character after line continuation character", then "EOL while scanning string literal" are
 * three different quoting mistakes, each fixed by the next (the round-5 precision reading judged
 * such stretches false alarms).
 */
export const lessonOf = perCall((c: FactCall): string => {
  if (c.rejected !== undefined) return `refused: ${c.rejected}`;
  // A script's own parse error with a view chained after it (python - <<EOF ... EOF; nl -ba a.py):
  // the error is what it said, not the lines the view re-showed.
  // A signature that is only the importer's details line ({"status":"failed",...}) says nothing of what failed.
  const said = (x: string | undefined) => (x === undefined || x.replace(/^exit -?\d+: /, "").startsWith("{") ? undefined : x);
  const signature = said(c.signature) ?? said(failureSignature(c.rawResult, c.rawArgs, undefined)) ?? OWN_PARSE_ERROR.exec(c.result)?.[0];
  if (signature === undefined) return `no effect: ${answerBody(c.result)}`;
  // How it was run (exit status, bash -lc) and where it was reported are not what failed (facts.ts familyOf).
  return signature
    .replace(/^exit -?\d+: /, "")
    .replace(/\bbash\b/g, "<arg>")
    .replace(/^Sorry: /, "")
    .replace(/\s*\([^()]*\)$/, "");
});

const OWN_PARSE_ERROR = /^(?:SyntaxError|IndentationError|TabError): [^\n]*/m;

/**
 * The part of a run that the same lesson spans: from the first to the last of the counted
 * attempts whose lesson comes back `need` times or more (every such lesson, if several), or
 * undefined when no lesson does.
 */
function sameLessonSpan(calls: readonly UnlandedCall[], counted: readonly number[], need: number): [number, number] | undefined {
  const seen = new Map<string, number[]>();
  for (const k of counted) {
    const lesson = lessonOf(calls[k] as UnlandedCall);
    const at = seen.get(lesson);
    if (at === undefined) seen.set(lesson, [k]);
    else at.push(k);
  }
  let span: [number, number] | undefined;
  for (const at of seen.values()) {
    if (at.length < need) continue;
    const first = at[0] as number;
    const last = at[at.length - 1] as number;
    span = span === undefined ? [first, last] : [Math.min(span[0], first), Math.max(span[1], last)];
  }
  return span;
}
