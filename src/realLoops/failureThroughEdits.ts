// The miner's failure-through-edits rule (see mine.ts), round 8: the same check answered by the same
// failure again and again, with writes between that changed nothing that mattered. The readers'
// longest misses of this shape: "edit/verify cycles ... each ending with the same TypeError: Cannot
// extend enumerations"; "three cycles of edit -> lint -> same RuntimeError: Dropped elements in
// sequence matching". Every other rule breaks a failure chain at a write that took effect (a test
// failing the same way after a real change was judged work by the round-1 and round-6 precision
// readers: revert-and-baseline chains; edit-test-revert cycles with a different patch each time).
// Where the line is drawn (the evidence that the writes changed nothing that mattered), found on the
// fit split of round 8 (each version's stretches read by the precision criteria):
//   - the check's WHOLE answer as recorded, the same as the hearing before; or
//   - an answer that ENDS on its exception, whose traceback is the same frame for frame as the
//     hearing before (file, line number as printed, function), with the same source text at the
//     innermost frame (the line that raised) and the same exception line: the same line of the
//     same file raised the same error. The text an OUTER frame prints may differ: a write that
//     re-worded a line on the path (class X(int, Choices) given a metaclass) and left the failure
//     raised where it was ("Cannot extend enumerations" from the same frames) did not reach it.
// Versions read and dropped: the failure line alone (mask.ts signature) flagged debug-print cycles
// whose every run printed new values, a fix that moved the error to the next line of the same
// kind, and views that print an error line (3 of 7 fit stretches stuck); whole answers masked made
// line 228 and line 231 one line (a moved parse error); a traceback followed by more output (a
// start-up warning's traceback, then a linter's own report) is compared whole: the report is news.
// Three hearings, each after the one before with at most BETWEEN calls between and a write among
// them; a write with the check chained after it (code_replace, then the run) whose traceback is the
// same frame for frame is a write and a hearing in one call. From the first write after the first
// hearing (that hearing was news) to the last hearing.
// What is not flagged, and why: a failure that moved (another frame, another line number, another
// message, other output: the write landed where it mattered, which is work); a test's assertion or a
// runner's tally of failures (the same assertion after a real change is work: the round-6 and
// round-7 precision readings); a restore between (git checkout f, git reset --hard, cp f.bak f: the
// check after it is a baseline, which round 1 judged work; a run may start again there); a
// different check (another command: another script, another test target; a sweep of checks each
// heard once); a script between that ran and answered (news); two hearings only; the same answer
// with no write between (unchanged-recheck and the failure rules read those); a view or a grep that
// prints an error line of the file it shows (no check); more than BETWEEN calls between.
import { answerBody, type FactCall } from "../import/facts.js";
import { attemptsWrite, writesNothing } from "../import/landed.js";
import { failureSignature } from "../import/mask.js";
import { perCall } from "../import/perCall.js";
import { restoredFiles } from "../import/restores.js";
import { viewsFile } from "./unlandedEdits.js";

/** A call as this rule reads it: what it taught, its masked shape, its position among the session's calls. */
export interface FailureThroughEditsCall extends FactCall {
  readonly index: number;
  readonly shape: string;
}

/** How many calls may sit between two hearings (the writes, and looks at the files). */
export const BETWEEN = 6;

/** A check whose answer this rule compares: it failed (or its answer reports a failure, as through a pipe), wrote nothing, said something, and is no view of a file. */
function isCheck(c: FailureThroughEditsCall): boolean {
  return c.outcome !== undefined && c.rejected === undefined && !c.silent && writesNothing(c) && !viewsFile(c) && !TEST_VERDICT.test(c.rawResult) && (c.failed || failureSignature(c.rawResult, c.rawArgs, undefined) !== undefined);
}

/**
 * A test's verdict: an assertion that failed, a test runner's tally of failures. Not this rule's:
 * the same assertion failing after a real change is work (the round-6 and round-7 precision
 * readings; test/unmovedBreak.test.ts holds the miner to it), and no fit stretch rested on one.
 */
const TEST_VERDICT = /\bAssertionError\b|\b\d+ failed\b|^FAILED /m;

/** How two answers of one check are compared: the whole answer as recorded only, or also its traceback's frames (framesOf). */
export type Hearing = "whole" | "frames";

/** The last line of an answer that ends on a raised exception (TypeError: ..., pkg.errors.ParseError: ...). */
const RAISED = /^[\w.]*(?:Error|Exception|Exit|Interrupt)\b/;

/** A traceback's frame line (File "x.py", line 12, in f), read as printed: the line number is evidence. */
const FRAME = /File "[^"\n]*", line [^,\n]*(?:, in [^\s]+)?/g;

/**
 * What a failure's answer says of where it failed: its traceback's frames in order (file, line as
 * printed, function), then its failure line (mask.ts failureSignature); undefined when the answer
 * holds no traceback or does not end on its exception. The source lines a traceback
 * prints under each frame are left out: a write may re-word a line on the path and leave the
 * failure where it was.
 */
const framesOf = perCall((c: FactCall): string | undefined => {
  // Only an answer that ends on its exception: output after a traceback (a warning's traceback
  // printed at start-up, then the tool's own report) is what the check said, and it may be news.
  const body = answerBody(c.rawResult).trimEnd();
  const lines = body.split("\n");
  if (!RAISED.test((lines[lines.length - 1] ?? "").trim())) return undefined;
  const frames = [...body.matchAll(FRAME)];
  const innermost = frames[frames.length - 1];
  if (innermost === undefined) return undefined;
  // The innermost frame's source text is kept: the line that raised, re-written and raising the
  // same error still, is a write that landed on it (unmovedBreak.ts reads parse errors alike).
  const raisedAt = (body.slice(innermost.index + innermost[0].length).split("\n", 3)[1] ?? "").trim();
  // And the exception as printed, the answer's last line.
  return `${frames.map((m) => m[0]).join("\n")}\n${raisedAt}\n${(lines[lines.length - 1] as string).trim()}`;
});

/** The same check answered the same: the same masked command, the same whole answer as recorded (or, "frames", the same framesOf). */
function sameHearing(a: FailureThroughEditsCall, b: FailureThroughEditsCall, hearing: Hearing): boolean {
  if (a.shape !== b.shape) return false;
  // As recorded: masking would make line 228 and line 231 one line.
  if (answerBody(a.rawResult) === answerBody(b.rawResult)) return true;
  if (hearing !== "frames") return false;
  const frames = framesOf(a);
  return frames !== undefined && frames === framesOf(b);
}

/**
 * Runs of `need` or more hearings of one check's same failure (sameHearing; "whole" compares whole
 * answers only), not yet taken, each after the one before with at most BETWEEN calls
 * between, a write among them, none a restore, a script that ran and answered, or the same check
 * answered otherwise.
 * From the first write after the first hearing (that hearing was news) to the last hearing.
 */
export function failureThroughEditsRuns(calls: readonly FailureThroughEditsCall[], taken: readonly boolean[], need: number, hearing: Hearing = "frames"): [number, number][] {
  const out: [number, number][] = [];
  if (need <= 0) return out;
  let i = 0;
  while (i < calls.length) {
    const first = calls[i] as FailureThroughEditsCall;
    if (taken[i] === true || !isCheck(first)) {
      i++;
      continue;
    }
    let last = i;
    let hearings = 1;
    for (;;) {
      let next = -1;
      let wrote = false;
      for (let n = last + 1; n < calls.length && n <= last + 1 + BETWEEN; n++) {
        const c = calls[n] as FailureThroughEditsCall;
        if (taken[n] === true || c.outcome === undefined) break;
        if (isCheck(c) && sameHearing(calls[last] as FailureThroughEditsCall, c, hearing)) {
          if (wrote) {
            next = n;
            break;
          }
          // The same answer with no write since the last hearing: a re-check, inside but not counted.
          last = n;
          n = last;
          continue;
        }
        // A write with the check chained after it (code_replace ...; then the run), its traceback the
        // same frame for frame: a write and a hearing in one call.
        if (hearing === "frames" && attemptsWrite(c) && framesOf(c) !== undefined && framesOf(c) === framesOf(calls[last] as FailureThroughEditsCall)) {
          next = n;
          break;
        }
        // The same check answered otherwise: the failure moved, or went away.
        if (c.shape === first.shape) break;
        // A restore ends the run: the check after it hears the restored file, a baseline (the
        // precision readers judged revert-and-baseline chains work); a run may start again there.
        if (restoredFiles(c) !== undefined) break;
        if (attemptsWrite(c)) {
          wrote = true;
          continue;
        }
        // A call that wrote nothing may sit between when it taught nothing new of the failure: a
        // look at a file, a failure, nothing said. A script that ran and answered is news.
        if (!(writesNothing(c) && (viewsFile(c) || c.failed || c.silent || failureSignature(c.rawResult, c.rawArgs, undefined) !== undefined))) break;
      }
      if (next < 0) break;
      last = next;
      hearings++;
    }
    if (hearings >= need) {
      let from = i + 1;
      while (from < last && !attemptsWrite(calls[from] as FailureThroughEditsCall)) from++;
      out.push([from, last]);
    }
    i = last + 1;
  }
  return out;
}
