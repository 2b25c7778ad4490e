// Stuck stretches in a recorded session, by a definition that belongs to no guard. A stretch is a
// run of (nearly) consecutive calls that bring the agent nothing new. Two kinds:
//
// Identical calls (kind "identical"): the agent sends the same masked call again.
//   - a repeat: the same masked call (mask.ts) answered by the same masked result, again and again;
//   - a failing run: the same masked call failing every time, whatever the error says;
//   - an alternation: two different calls taking turns, A B A B, each answered as before.
// Changing args (kind "changing-args"): the call is different every time, so nothing repeats, yet
// the answers show that no call moved the agent on. Real agents mostly loop this way (a different
// edit each time, each turned back by the linter with the same complaint; a line of prose sent to
// the shell, worded differently each time, each answered "command not found"):
//   - the same failure: consecutive failed calls whose failures read the same once masked
//     (mask.ts failureSignature: the last line of the answer that reports a failure, with what
//     the command put into it masked; a tool's report on its input, a warning, a test tally, a
//     linter's coded finding is no failure line);
//   - the same rejection: consecutive calls the environment refused without running them (a
//     linter's or a syntax check's refusal of an edit, a patch that did not apply, a tool input
//     rejected, a command not allowed: mask.ts rejectionOf), refused for the same reason;
//   - an unchanged re-check: consecutive calls that each ask again what one of the few calls
//     before asked (the same command, the same files, the same search terms) and hear the same
//     answer, with no write between (recheckRuns, writes). Nothing was changed, so nothing new
//     could be heard: the same region re-read, the same test re-run, a fix script that changed
//     nothing re-run. Not flagged: the same re-run AFTER an edit (the reproduce script after
//     each change is work), zooming into what was just read, different searches finding
//     nothing, A/B checks with a revert between, searches for different legs or fares;
//   - no effect: consecutive calls with different args that all get the same, non-empty masked
//     answer, as if none of them had been sent (the same file content after each edit, the same
//     listing).
//   - no new fact: a first call and at least two calls after it that each add no new fact to what
//     was heard since the last write that took effect (staleCalls, noNewFactRuns): the same
//     failure family again, the same answer to the same command or search, a re-read of the
//     same region, the same empty answer to the same search. This is the readers' own test (no
//     call after the first taught anything, whatever the arguments), and it finds what the rules
//     above miss because each demands one exact signature or one exact answer in consecutive
//     calls: retries around one failure whose text varies a little (a patch refused as "does not
//     apply", then "corrupt patch"), a harness that could not parse each differently worded
//     actions back to back (File "<string>" ... SyntaxError), the same install timing out with a
//     check between, the same region re-read between refused edits, the same write re-sent byte
//     for byte. It runs last, on the calls the other rules left.
//     Round 3 (made to generalise, after a blind batch showed round 2 fitted to its sessions, and
//     a precision reading judged about half of its new stretches false alarms): ONE fact must be
//     heard three times (not different facts heard twice each, added up), the run must be three
//     calls, installs are one family only for the same packages, unparsed actions only back to
//     back, bash's syntax error after output is no family (the script before it ran), a write
//     re-sent as recorded and answered as before is no change (redoneWrites), a lone backup
//     copy changes nothing read and a find that deletes is a change (writes.ts), a named tool's
//     failed call (book_reservation refused) changed nothing, and a wait that paid off is no
//     stretch.
// Round 4 (the readers' misses of batches 1-8): a refusal heard again after up to three reads of
// the file, nothing written between, continues its chain (refusedAgainAfterReads); an edit script
// whose whole answer says it found nothing to replace is refused like the editor's "Code to replace
// not found" (facts.ts); a missing module the answer ends on is one failure whatever route reached
// it (missingModuleOf). Narrowed on the round-4 precision reading: a refused edit corrected from
// lines the reads between showed first is a new attempt (facts.ts correctedRefusal), not counted.
// writes.ts reads a redirection and a late -i flag from the shell's own text (a '>' in a heredoc
// script is Python's; perl -pe '...' -i edits in place).
// An unchanged re-check stretch needs 2 calls that hear an answer of the stretch itself whole
// again: the precision reading judged stretches resting on one re-read, on narrower views, or on
// repeats of calls from before the stretch false alarms. In a same-failure chain, A r A lets one
// named tool's call that wrote nothing (a search, a think) sit between the same recorded call
// failing the same way twice (the same update rejected after a search), uncounted; counting the
// failed X of A X A was tried and judged a false alarm (a pip install between two runs is a change).
// Round 7: command lines bash could not parse, sent again with the script rewritten and the broken
// wrapper kept, chain like refusals (chainSignature, openingLesson, facts.ts heredocSwallowedScript
// and ranBeforeSyntaxError). Last of all, repairs after which the check reports the same parse error at the same
// line (unmovedBreak.ts).
// Round 8, last of all: one answer to a look heard three times with only calls between that did
// nothing (an attempt that never took effect, an empty answer, a zoom; idleRecheck.ts), taking
// in whole a shorter no-new-fact stretch it covers.
// Why consecutive: a failure followed by a call that succeeds may have been fixed by it (an edit,
// then the test again: work, even when the test fails the same way, since the files changed; the
// brief's false alarm). So a chain of failures ends at the first call that neither failed nor was
// refused. The slack inside a chain: one failed call of another kind may sit between two of the
// same (A X A: nothing succeeded between them), uncounted; two errors taking turns while the agent
// fights one quoting problem (A B A B A) chain that way, counted by the A's. The threshold counts the chain's failures plus one sighting of its
// first failure in the three calls before the chain (seen, then a look at the code, then the same
// failure twice more: three times the same lesson), but the stretch is the chain alone.
// Why empty answers never count: an edit answered by nothing succeeded, and greps for different
// things that all find nothing are a search, not a loop. Why short answers never count as "no
// effect": the same "OK" or "171.0" to different questions is news each time.
// Thresholds are the parameters below. No guard's counter, window or hash is used: masking is
// wider than any guard's (digits, ids, times, temp paths, quoted tokens), the calls must be
// consecutive (no guard demands that), and the signature is the error's, never the call's.
// The outcome labels of a dataset (resolved, failed) are never read here: they are for reporting.
import type { CallEvent, OutcomeEvent, ToolEvent } from "../../models/events.js";
import { callUnits } from "../scenario/eventPairs.js";
import { SHELL_TOOLS, changesWhatWasRead } from "../import/writes.js";
import { answerBody, answerOf, asksSomething, changedLines, correctedRefusal, type FactCall, filesOf, HEREDOC_NEVER_CLOSED, heredocSwallowedScript, maskedAnswerLines, maskedAnswerOf, neverTookEffect, quotedTerms, NEW_FACT_WINDOW, ranBeforeSyntaxError, sameDetails, sameResult, SHELL_SYNTAX, sameCommand, signatureFamily, substantial, unmaskedFactOf, waitPaidOff, WITHIN_MIN_LINES, writeKindOf } from "../import/facts.js";
import { perCall } from "../import/perCall.js";
import { failureSignature, lastAnswerLines, leadingLines, maskedShape, maskText, mayHoldMaskedLine } from "./mask.js";
import { noNewFactRuns, runWalk, staleCalls } from "./noNewFact.js";
import { unlandedEditRuns } from "./unlandedEdits.js";
import { unmovedBreakRuns } from "./unmovedBreak.js";
import { idleRecheckRuns } from "./idleRecheck.js";

export interface MineParameters {
  /** Calls in a row, same masked call and result, that make a repeat. */
  readonly repeat: number;
  /** Calls in a row, same masked call, every one failed, that make a failing run. */
  readonly failing: number;
  /** Calls in an A B A B alternation (both answered as before) that make one. */
  readonly alternation: number;
  /** Consecutive failed or refused calls, with changing args, each failing as one of the two before did. */
  readonly sameFailure: number;
  /** Consecutive calls that each re-check an earlier call with nothing written between (the re-checked call counts when it comes just before). */
  readonly recheck: number;
  /** Consecutive calls with changing args that all get the same non-empty masked answer. */
  readonly noEffect: number;
  /** A first call and the calls after it that each add no new fact (noNewFact), counting the first. */
  readonly noNewFact: number;
  /**
   * Attempts to write one file, none of which took effect, with only looks at it between
   * (unlandedEdits.ts); 3 when absent. Optional because it came after the others (0.1): a
   * parameters object written before it still compiles and mines as it did, plus this rule.
   */
  readonly unlandedEdits?: number;
  /**
   * Checks that report the same parse error at the same file and line, with attempts to write
   * between (unmovedBreak.ts); 3 when absent. Optional for the same reason as unlandedEdits (round 7).
   */
  readonly unmovedBreak?: number;
  /** One answer to a look heard this many times, only idle calls between (idleRecheck.ts); 3 when absent (round 8, optional as above). */
  readonly idleRecheck?: number;
}

/** The unmoved-break count a parameters object asks for (3, as in DEFAULT_MINE_PARAMETERS, when it names none). */
export function unmovedBreakOf(p: MineParameters): number {
  return p.unmovedBreak ?? 3;
}

/** The idle-recheck count a parameters object asks for (3, as in DEFAULT_MINE_PARAMETERS, when it names none). */
export function idleRecheckOf(p: MineParameters): number {
  return p.idleRecheck ?? 3;
}

/** The unlanded-edits length a parameters object asks for (3, as in DEFAULT_MINE_PARAMETERS, when it names none). */
export function unlandedEditsOf(p: MineParameters): number {
  return p.unlandedEdits ?? 3;
}

/**
 * Why these numbers (see reports/real-loops/README of the catalogue, "How the stretches were
 * judged"): the first call of a repeat is work, the second is a check an agent may make on
 * purpose (re-reading after a tool hiccup, re-running to confirm), a third identical answer
 * learned nothing twice. A failing command re-run twice after its failure is the same lesson
 * refused twice. An alternation needs three full turns (six calls) before it is told apart from
 * an agent that checks two things, edits, and checks them again.
 */
export const DEFAULT_MINE_PARAMETERS: MineParameters = { repeat: 3, failing: 3, alternation: 6, sameFailure: 3, recheck: 3, noEffect: 3, noNewFact: 3, unlandedEdits: 3, unmovedBreak: 3, idleRecheck: 3 };

/** The miner's rules, each a kind of stuck stretch, in the order a catalogue lists them. */
export const STRETCH_RULES = ["repeat", "failing", "alternation", "same-failure", "same-rejection", "unchanged-recheck", "no-effect", "no-new-fact", "unlanded-edits", "unmoved-break", "idle-recheck"] as const;
export type StretchRule = (typeof STRETCH_RULES)[number];

/** Whether the stretch's calls are the same call again, or different calls that all got nowhere (what a guard keyed on the call can see, or not). */
export type StretchKind = "identical" | "changing-args";

/** Whether a rule finds the same call again (`identical`) or different calls that got nowhere (`changing-args`). */
export function kindOfRule(rule: StretchRule): StretchKind {
  switch (rule) {
    case "repeat":
    case "failing":
    case "alternation":
      return "identical";
    case "same-failure":
    case "same-rejection":
    case "unchanged-recheck":
    case "no-effect":
    case "no-new-fact":
    case "unlanded-edits":
    case "unmoved-break":
    case "idle-recheck":
      return "changing-args";
    default: {
      const never: never = rule;
      return never;
    }
  }
}

/** The fewest calls a stretch of the rule has under the parameters (a repeat whose calls all failed is also a failing run: the smaller of the two). */
export function minimumLength(rule: StretchRule, p: MineParameters): number {
  switch (rule) {
    case "repeat":
      return Math.min(p.repeat, p.failing);
    case "failing":
      return p.failing;
    case "alternation":
      return p.alternation;
    case "same-failure":
    case "same-rejection":
      // A sighting of the chain's first failure just before it counts toward the threshold, and
      // the stretch is the chain alone: one call fewer, and a chain is never one call.
      return Math.max(2, p.sameFailure - 1);
    case "unchanged-recheck":
      return p.recheck;
    case "no-effect":
      return p.noEffect;
    case "no-new-fact":
      return p.noNewFact;
    case "unlanded-edits":
      return unlandedEditsOf(p);
    case "unmoved-break":
      return unmovedBreakOf(p);
    case "idle-recheck":
      return idleRecheckOf(p);
    default: {
      const never: never = rule;
      return never;
    }
  }
}

/** One call of a session, as the miner sees it: what it taught (facts.ts), where it sits, its masked shape. */
export interface MinedCall extends FactCall {
  /** Position among the session's calls (0-based). */
  readonly index: number;
  /** Positions of the call's events (the call, then its outcomes) in the session's events. */
  readonly events: readonly number[];
  readonly call: CallEvent;
  readonly shape: string;
}

export interface Stretch {
  readonly rule: StretchRule;
  readonly kind: StretchKind;
  /** First and last call (0-based positions among the session's calls), both inside the stretch. */
  readonly firstCall: number;
  readonly lastCall: number;
  readonly length: number;
  /** The masked call (for an alternation, the two, A then B). */
  readonly shape: readonly string[];
  /** What repeats: "call and result", "call; every outcome failed", or both. */
  readonly repeats: string;
  /** First and last event positions (the stretch's events are [firstEvent, lastEvent]). */
  readonly firstEvent: number;
  readonly lastEvent: number;
}

export function minedCalls(events: readonly ToolEvent[]): MinedCall[] {
  const calls: MinedCall[] = [];
  // callUnits lists units by their first event, so calls come in session order.
  for (const unit of callUnits(events)) {
    const call = events[unit[0] as number];
    if (call?.type !== "call") continue;
    const outcomeAt = unit[1];
    const outcome = outcomeAt === undefined ? undefined : (events[outcomeAt] as OutcomeEvent);
    const { message, details } = answerOf(outcome);
    // The shape, the masked answer and whether it is substantial are masked when a rule first
    // reads them (shapeOf, maskedAnswer), not for every call. Their getters are functions shared
    // by every call, each defined in the place its field always had: an accessor written into the
    // object literal made each call a slow dictionary object.
    const mined: Record<string, unknown> = { index: calls.length, events: unit };
    Object.defineProperty(mined, "shape", { get: shapeOfThis, enumerable: true });
    mined.call = call;
    if (outcome !== undefined) mined.outcome = outcome;
    Object.defineProperty(mined, "result", { get: resultOfThis, enumerable: true });
    const told = unmaskedFactOf(call, outcome, message, details);
    // Where the message ends in rawResult (the details line follows it): what maskedAnswer reads it back by.
    Object.defineProperty(mined, MESSAGE_LENGTH, { value: message.length });
    mined.rawArgs = told.rawArgs;
    mined.rawResult = told.rawResult;
    mined.failed = told.failed;
    mined.silent = told.silent;
    Object.defineProperty(mined, "substantial", { get: substantialOfThis, enumerable: true });
    if (told.rejected !== undefined) mined.rejected = told.rejected;
    if (told.signature !== undefined) mined.signature = told.signature;
    calls.push(mined as unknown as MinedCall);
  }
  return calls;
}

/**
 * A call's masked shape: the args' JSON that factCallOf made (rawArgs), masked (mask.ts
 * maskedShape, maskedCall without stringifying them again). Worked out the first time a rule
 * reads it, once: the rules compare shapes only of calls answered alike or failed alike
 * (sameAnswer, sameFailure compare the shape last) and of the stretches found, and masking every
 * call's args was a fiftieth of a `loops` run (issue 35). test/loopsFastPaths.test.ts holds the
 * lazy shape to maskedCall.
 */
const shapeOf = perCall((c: FactCall): string => maskedShape(c.call.tool, c.rawArgs));
function shapeOfThis(this: FactCall): string {
  return shapeOf(this);
}

/**
 * A call's masked answer and whether it is substantial (facts.ts maskedAnswerOf, what factCallOf
 * masks up front), worked out the first time a rule reads either, once. Masking every answer was
 * about a tenth of a `loops` run (issue 35), and most answers are never compared masked: the rules
 * compare the masked answers of calls already alike in something cheaper (the same args or the
 * same raw answer, the same command, the same files), and read only a successful call's
 * substantiality. The message and the details are read back from rawResult (the message, then a
 * newline and the details when there are any), cut where minedCalls noted the message's end.
 * test/loopsFastPaths.test.ts holds these fields to factCallOf's.
 */
const MESSAGE_LENGTH = Symbol("message length");
/** Where the message ends in a mined call's rawResult (minedCalls noted it). */
const messageLengthOf = (c: FactCall): number => (c as unknown as Record<symbol, number>)[MESSAGE_LENGTH] as number;
const maskedAnswer = perCall((c: FactCall): { readonly result: string; readonly substantial: boolean } => {
  const length = messageLengthOf(c);
  const raw = c.rawResult;
  return length === raw.length ? maskedAnswerOf(raw, "") : maskedAnswerOf(raw.slice(0, length), raw.slice(length + 1));
});
function resultOfThis(this: FactCall): string {
  return maskedAnswer(this).result;
}
function substantialOfThis(this: FactCall): boolean {
  return substantialOf(this);
}
/**
 * Whether a call's answer is substantial (maskedAnswer's), from the head of a long message when
 * that is enough: substantial reads the masked message from its start and says yes as soon as it
 * has seen enough letters, and masking goes line by line, so a head of whole lines that is
 * substantial once masked makes the whole message so. The rules ask it of calls whose masked
 * answers they then compare only if their raw answers have as many lines (sameResult), and a
 * long answer is masked whole only when its head says too little (test/loopsFastPaths.test.ts).
 */
const substantialOf = perCall((c: FactCall): boolean => {
  const length = messageLengthOf(c);
  // Heads of whole lines, each about four times the one before, while they end inside the message:
  // most answers say enough in their first line or two, and one that never does is masked about a
  // third more than whole.
  for (let from = SUBSTANTIAL_HEAD; from < length; from *= 4) {
    const cut = c.rawResult.indexOf("\n", from);
    if (cut === -1 || cut >= length) break;
    if (substantial(maskText(c.rawResult.slice(0, cut)))) return true;
    from = cut;
  }
  return maskedAnswer(c).substantial;
});
/** Where substantialOf's first head ends: at the first newline after this many characters. */
const SUBSTANTIAL_HEAD = 128;

/**
 * Nothing new: the same masked call and the same masked result, and not both changed in what the
 * mask hid. A call that differs only in a counter and gets the same answer, or the same call whose
 * answer differs only in a clock or a line number, taught nothing; a call that asked about another
 * thing (cabinet 3, then cabinet 4) and got an answer about that thing may have taught something.
 * A call never answered says nothing either way, so it never repeats.
 */
// The masked answers and shapes are compared last, after what was recorded: each is masked when
// first read (maskedAnswer, shapeOf), and most neighbours differ in both their args and their answers.
// The same args, as recorded, to the same tool are the same shape: a call sent again is compared without masking its args.
const sameAnswer = (a: MinedCall, b: MinedCall) => a.outcome !== undefined && b.outcome !== undefined && (a.rawResult === b.rawResult || (a.rawArgs === b.rawArgs && sameResult(a, b))) && sameShape(a, b);
const sameFailure = (a: MinedCall, b: MinedCall) => a.failed && b.failed && sameShape(a, b);
/** a.shape === b.shape, without masking the args of two calls that sent the same args to the same tool (the shape is the tool and the args masked). */
export const sameShape = (a: MinedCall, b: MinedCall): boolean => (a.rawArgs === b.rawArgs && a.call.tool === b.call.tool) || a.shape === b.shape;

/** The stuck stretches of a session, in order; they never overlap. */
export function mineStretches(events: readonly ToolEvent[], parameters: MineParameters = DEFAULT_MINE_PARAMETERS): Stretch[] {
  return stretchesOf(minedCalls(events), parameters);
}

export function stretchesOf(calls: readonly MinedCall[], parameters: MineParameters = DEFAULT_MINE_PARAMETERS): Stretch[] {
  const found: Stretch[] = [];
  const taken = new Array<boolean>(calls.length).fill(false);
  // Repeats and failing runs: maximal runs where each call answers as the one before, or fails as it did.
  let i = 0;
  while (i < calls.length) {
    let j = i;
    let allSame = true;
    let allFailed = (calls[i] as MinedCall).failed;
    while (j + 1 < calls.length) {
      const a = calls[j] as MinedCall;
      const b = calls[j + 1] as MinedCall;
      const same = sameAnswer(a, b);
      const failing = sameFailure(a, b);
      if (!same && !failing) break;
      allSame &&= same;
      allFailed &&= b.failed;
      j++;
    }
    const length = j - i + 1;
    const waited = allSame && waitPaidOff(calls, j);
    const need = allSame ? Math.min(parameters.repeat, allFailed ? parameters.failing : Infinity) : parameters.failing;
    if (length >= 2 && length >= need && (allSame || allFailed) && !waited) {
      found.push(stretch(calls, i, j, allFailed && !allSame ? "failing" : "repeat", allSame && allFailed ? "call and result; every outcome failed" : allSame ? "call and result" : "call; every outcome failed"));
      for (let k = i; k <= j; k++) taken[k] = true;
    } else if (length >= 2 && !allSame && !allFailed) {
      // A chain that mixes repeats and failures: no single rule holds over it. Look again from the next call.
      j = i;
    }
    i = j + 1;
  }
  // Alternations: A B A B ..., each call answered as the one two before, and unlike the one before.
  i = 0;
  while (i + 2 < calls.length) {
    if (taken[i] === true) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j + 1 < calls.length && taken[j + 1] !== true && taken[j] !== true && sameAnswer(calls[j + 1] as MinedCall, calls[j - 1] as MinedCall) && !sameAnswer(calls[j + 1] as MinedCall, calls[j] as MinedCall)) j++;
    const length = j - i + 1;
    if (length >= parameters.alternation && taken[j] !== true) {
      found.push(stretch(calls, i, j, "alternation", "call and result, taking turns"));
      // Taken, so that no later rule's stretch overlaps it.
      for (let k = i; k <= j; k++) taken[k] = true;
      i = j + 1;
    } else i++;
  }
  // Changing args, on the calls no identical rule took: the same failure or refusal, then no effect.
  const wrote = writesOf(calls);
  for (const [first, last] of failureChains(calls, taken, wrote, parameters.sameFailure)) {
    // Refused, every failure of the chain (reads between refusals are no failures of it).
    const refused = calls.slice(first, last + 1).every((c) => c.rejected !== undefined || (!c.failed && chainSignature(c) === undefined && wrote[c.index] !== true));
    found.push(stretch(calls, first, last, refused ? "same-rejection" : "same-failure", refused ? "refused, every call, for the same reason" : "the same failure, masked, with changing args"));
    for (let k = first; k <= last; k++) taken[k] = true;
  }
  // Unchanged re-checks, on the calls left: re-reading, re-running, re-asking with nothing written between.
  for (const [first, last] of recheckRuns(calls, taken, wrote, parameters.recheck)) {
    found.push(stretch(calls, first, last, "unchanged-recheck", "an earlier call's answer again, nothing written between"));
    for (let k = first; k <= last; k++) taken[k] = true;
  }
  // How often each answer comes in the session: an answer given all along (a harness's "Process
  // running with session ID 4711", the same passing test run) is an acknowledgement, not a sign
  // that the calls of one run had no effect.
  // Counted when a chain long enough first asks (rarely): hashing every answer of every session,
  // outputs of megabytes among them, for a count almost never read was a tenth of the miner's time.
  let answers: Map<string, number> | undefined;
  const timesAnswered = (result: string): number => {
    if (answers === undefined) {
      answers = new Map<string, number>();
      for (const c of calls) if (!c.silent) answers.set(c.result, (answers.get(c.result) ?? 0) + 1);
    }
    return answers.get(result) ?? 0;
  };
  for (const chain of chains(calls, taken, noEffectLink)) {
    if (chain.length < parameters.noEffect) continue;
    if (timesAnswered((calls[chain[0] as number] as MinedCall).result) > chain.length + NO_EFFECT_ELSEWHERE) continue;
    // Different args: a chain of one call sent again is a repeat's business (and was no repeat).
    if (new Set(chain.map((k) => (calls[k] as MinedCall).shape)).size < 2) continue;
    found.push(stretch(calls, chain[0] as number, chain[chain.length - 1] as number, "no-effect", "the same non-empty answer, masked, to different calls"));
    for (const k of chain) taken[k] = true;
  }
  // A chain of the same failure or refusal goes on through the calls after it that add no new
  // fact (the same refusal after a re-view of the unchanged lines, a parse error worded
  // differently): the readers mark them as one stretch, and a run of its own would have lost its
  // first calls to the chain.
  // What each call heard again is worked out once, for these chains and for the runs below.
  const heardAgain = staleCalls(calls, wrote);
  {
    // One walk for every chain: it reads `taken` as the chains before it left it.
    const walk = runWalk(calls, taken, heardAgain.changed, heardAgain.stale, heardAgain.zoom);
    for (const [at, s] of found.entries()) {
      if (s.rule !== "same-failure" && s.rule !== "same-rejection") continue;
      const last = walk.extend(s.lastCall);
      for (let k = s.lastCall + 1; k <= last; k++) taken[k] = true;
      if (last > s.lastCall) found[at] = stretch(calls, s.firstCall, last, s.rule, s.repeats);
    }
  }
  // Calls that add no new fact, on the calls left (see noNewFactRuns).
  for (const [first, last] of noNewFactRuns(calls, taken, heardAgain, parameters.noNewFact)) {
    found.push(stretch(calls, first, last, "no-new-fact", "answers already heard since the last change: the same failure, the same lines, the same non-answer"));
    for (let k = first; k <= last; k++) taken[k] = true;
  }
  // Attempts to write one file that never took effect, one failure among them at least 3 times
  // (narrowed after the round-5 precision reading), on the calls left (unlandedEdits.ts): last, so that a stretch the rules above find keeps its rule and range.
  for (const [first, last] of unlandedEditRuns(calls, taken, unlandedEditsOf(parameters))) {
    found.push(stretch(calls, first, last, "unlanded-edits", "attempts to write one file, none of which took effect"));
    for (let k = first; k <= last; k++) taken[k] = true;
  }
  // Repairs after which the check reports the same parse error at the same line (unmovedBreak.ts,
  // round 7), on the calls left: last of all, so that no stretch the rules above find changes.
  for (const [first, last] of unmovedBreakRuns(calls, taken, unmovedBreakOf(parameters))) {
    found.push(stretch(calls, first, last, "unmoved-break", "repairs after each of which the check reports the same parse error at the same line"));
    for (let k = first; k <= last; k++) taken[k] = true;
  }
  // One answer to a look heard 3 times, only idle calls between (idleRecheck.ts, round 8), on the
  // calls left and those of no-new-fact stretches, which a run may take whole when it is longer
  // (no-new-fact lets no call sit between a look and its first re-hearing, and cuts such runs short).
  const shorter = (s: Stretch, first: number, last: number) => s.rule === "no-new-fact" && s.firstCall >= first && s.lastCall <= last && s.length < last - first + 1;
  const freed = taken.map((t, k) => t && !found.some((s) => s.rule === "no-new-fact" && s.firstCall <= k && k <= s.lastCall));
  for (const [first, last] of idleRecheckRuns(calls, freed, heardAgain, idleRecheckOf(parameters))) {
    if (!calls.slice(first, last + 1).every((c) => taken[c.index] !== true || found.some((s) => shorter(s, first, last) && s.firstCall <= c.index && c.index <= s.lastCall))) continue;
    found.splice(0, found.length, ...found.filter((s) => !shorter(s, first, last)));
    found.push(stretch(calls, first, last, "idle-recheck", "the same answer to a look, heard again with only attempts that never took effect and idle looks between"));
    for (let k = first; k <= last; k++) taken[k] = true;
  }
  return found.sort((a, b) => a.firstCall - b.firstCall);
}

/** Calls a and b are the same recorded call (tool and args as recorded). */
function sameRecordedCall(calls: readonly MinedCall[], a: number, b: number): boolean {
  return (calls[b] as MinedCall).rawArgs === (calls[a] as MinedCall).rawArgs && (calls[b] as MinedCall).call.tool === (calls[a] as MinedCall).call.tool;
}

/**
 * The failure a same-failure chain compares: the call's signature, except where bash's syntax
 * error comes after output (a heredoc script that ran, then `PY && sed` it could not parse): the
 * script's own answer is what the agent learned, so the whole masked answer is compared (the
 * precision reading of round 2 judged chains resting on that trailing error false alarms: each
 * script had done something different).
 */
function chainSignature(c: MinedCall): string | undefined {
  const missing = missingModuleOf(c);
  if (missing !== undefined) return missing;
  // A script a never-closed here-document swallowed: the terminator is the lesson, whatever the
  // interpreter's message and whatever the exit status (piped to tail, the pipe exits 0: the
  // script still never ran; facts.ts heredocSwallowedScript; round 7).
  if (heredocSwallowedScript(c)) return HEREDOC_NEVER_CLOSED;
  if (c.signature === undefined) return undefined;
  if (!SHELL_SYNTAX.test(c.signature)) return c.signature;
  // bash's syntax error with nothing said before it (only bash's own errors, or an edit's report
  // that it changed nothing): the error as its family words it, so that `bash -lc "..."`
  // (127, "bash" masked as a word of the command) and the plain command (2) fail alike.
  return ranBeforeSyntaxError(c) ? c.result : signatureFamily(c.signature);
}

/**
 * What a call that opens a chain of failures taught: its chain signature, except that bash's
 * syntax error after output is the syntax error. The first call's output is its own news (a
 * script that patched, then `&&` bash could not parse), so it joins no chain as a repeat; but
 * it met the error the calls after it meet, and a call that then meets the error with nothing
 * new said before it (only the error, or "already patched", or the first call's output again,
 * whole) learned nothing more (round 7: "#8 patched then failed, #9 re-sent the patch (already
 * patched) with the same failing chain, #10 a cat-heredoc chain failing the same way; the repro
 * build never runs").
 */
function openingLesson(c: MinedCall): string | undefined {
  const signature = chainSignature(c);
  return signature !== undefined && c.signature !== undefined && SHELL_SYNTAX.test(c.signature) && ranBeforeSyntaxError(c) ? signatureFamily(c.signature) : signature;
}

/**
 * A module the answer says is missing, whatever route reached it and whatever the exit status
 * (pytest, python -m, an import check, a unittest loader, each piped to tail so the pipe exits 0:
 * "No module named pytest" every time). The readers marked such runs stuck ("four ways of running
 * the tests all fail with the same ModuleNotFoundError ... 41-43 add nothing beyond 40"). Read in
 * the answer's last lines only (mask.ts failureSignature), where a run reports how it ended.
 */
const missingModuleOf = perCall((c: MinedCall): string | undefined => {
  // One native scan first: most answers name no missing module, and some run to megabytes.
  if (c.rejected !== undefined || c.outcome === undefined || !c.rawResult.includes("No module named")) return undefined;
  // The answer ends on it (or on lines that say it again): a warning at start-up (a .pth file's
  // missing module) followed by the script's own output is no failure of the script.
  const lines = lastAnswerLines(answerBody(c.rawResult), 5);
  let at = lines.length - 1;
  while (at >= 0 && !MISSING_MODULE.test(lines[at] as string)) at--;
  if (at < 0 || !lines.slice(at + 1).every((l) => FAILURE_AFTER.test(l))) return undefined;
  const m = MISSING_MODULE.exec(lines[at] as string);
  return m === null ? undefined : `missing module: ${m[1] as string}`;
});
const MISSING_MODULE = /No module named '?([\w.]+)'?/;
/** A line after the missing module that says the same again (an `|| echo "pytest not available"`). */
const FAILURE_AFTER = /error|not available|not found|not installed|failed|missing|no module/i;

/**
 * A call that made a change that took effect and then ran tests that failed (a patch script, then
 * pytest; git checkout, then pytest): the readers' protocol says a test re-run after a real code
 * change is not stuck even when it fails the same way, and the first reading judged chains of
 * such calls (revert, baseline run, re-apply) false alarms. It joins no chain after its first call.
 */
function changedThenTested(c: MinedCall, wrote: boolean): boolean {
  return wrote && !neverTookEffect(c) && TEST_REPORT.test(c.rawResult.slice(-4000));
}
const TEST_REPORT = /\b\d+ (?:failed|passed|errors?)\b|^FAILED |\bTests? failed\b|^(?:FAIL|ERROR): test/m;

/** A call that neither failed nor was refused, and whose answer reports no failure either (a bash error inside a completed run is one). */
function worked(c: MinedCall): boolean {
  return !c.failed && c.rejected === undefined && failureSignature(c.rawResult, c.rawArgs, undefined) === undefined;
}

/** How many calls before a chain of failures an earlier sighting of its failure counts toward the threshold. */
const SIGHTING_WINDOW = 3;

/**
 * Chains of the same failure (see the header), as [first, last] call positions, on calls not yet
 * taken. A chain grows by a call that fails as the chain's first call did (its lesson), or by two
 * calls at once: a failed call of another kind (or with no failure line) and, after it, the
 * chain's failure again (A X A: nothing succeeded between them). A chain is a stretch when its
 * failures, plus an earlier sighting of its first failure in the few calls before it (the agent
 * looked at the code, then failed the same way twice more), number `need` or more.
 */
function failureChains(calls: readonly MinedCall[], taken: readonly boolean[], wrote: readonly boolean[], need: number): [number, number][] {
  const out: [number, number][] = [];
  const free = (k: number) => k < calls.length && taken[k] !== true;
  const failedAt = (k: number) => (calls[k] as MinedCall).failed || (calls[k] as MinedCall).rejected !== undefined;
  let i = 0;
  while (i < calls.length) {
    const start = openingLesson(calls[i] as MinedCall);
    if (!free(i) || start === undefined) {
      i++;
      continue;
    }
    let failures = 1;
    let j = i;
    // Whether call k fails as the chain's first call did (its lesson, `start`): a chain holds that
    // one lesson, so two errors taking turns (A B A B A) chain through the A X A allowance below.
    const meets = (k: number): boolean => {
      if (!free(k) || changedThenTested(calls[k] as MinedCall, wrote[k] === true)) return false;
      const c = calls[k] as MinedCall;
      const signature = chainSignature(c);
      if (signature === undefined) return false;
      if (signature === start) return true;
      // bash's syntax error after output heard whole before in the chain (the same "created",
      // then the same error): nothing new was said before the error (openingLesson).
      return openingLesson(c) === start && calls.slice(i, k).some((b) => sameResult(b, c));
    };
    for (;;) {
      // One call may sit between two of the same failure, inside the stretch but not counted
      // toward the threshold (only the failure after it is):
      // - A X A: a failed call of another kind (the precision reading judged chains that counted
      //   X false alarms: a pip install between two runs is a change);
      // - A r A: a call that succeeded but wrote nothing changed nothing the failing call depends
      //   on, so the same failure after it is the same lesson. Only a named tool's call
      //   (search_direct_flight, get_reservation_details) is known to write nothing: a shell
      //   command between (python fix.py) may well be the fix attempt. And only the same call, as
      //   recorded, again: another payment id answered by the same error text is news about that
      //   payment (the precision reading judged it a false alarm). An edit between is work.
      let step: number;
      if (meets(j + 1)) step = 1;
      else if (free(j + 1) && failedAt(j + 1) && meets(j + 2)) step = 2;
      else if (free(j + 1) && !failedAt(j + 1) && wrote[j + 1] !== true && !SHELL_TOOLS.has((calls[j + 1] as MinedCall).call.tool) && meets(j + 2) && sameRecordedCall(calls, j, j + 2)) step = 2;
      else {
        step = refusedAgainAfterReads(calls, j, free, wrote, meets);
        if (step === 0) break;
      }
      const from = j;
      j += step;
      // A refusal of an edit corrected from what the reads between showed first is a new attempt (see refusedAgainAfterReads).
      const corrected = correctedRefusal(calls[from] as MinedCall, calls[j] as MinedCall, calls.slice(Math.max(0, from - NEW_FACT_WINDOW), from), calls.slice(from + 1, j));
      if (!corrected) failures += 1;
    }
    let sighted = false;
    // The calls between the sighting and the chain must not have worked: no substantial answer
    // that reports no failure at all (a think or an empty answer is fine; the precision reading of round 2 judged a refusal sighted before a script
    // that ran and a fresh view, then refused twice, a false alarm).
    for (let k = Math.max(0, i - SIGHTING_WINDOW); k < i; k++) {
      if (chainSignature(calls[k] as MinedCall) !== start) continue;
      let clean = true;
      for (let b = k + 1; b < i; b++) if (worked(calls[b] as MinedCall) && (calls[b] as MinedCall).substantial) clean = false;
      if (clean) sighted = true;
    }
    if (j > i && failures + (sighted ? 1 : 0) >= need) out.push([i, j]);
    i = j + 1;
  }
  return out;
}

/** How many calls that wrote nothing may sit between two refusals of one edit (see refusedAgainAfterReads). */
const REFUSAL_BRIDGE = 3;

/**
 * The same refusal again after reads (an edit of a file refused, a look at the file, the same
 * refusal of an edit of it): the number of calls from `j` to that refusal, or 0. A refusal
 * changed nothing, and neither did a read, so the file the next edit meets is the one the last
 * edit met: the refusal heard again is the same lesson, whatever the reads between showed (the
 * readers marked "Code to replace not found" again and again with only re-views of the same
 * unchanged lines between as stuck). Only refusals (the environment said the action did not
 * happen): a failure after a read may come from a run the read prepared. Only with nothing
 * written between, and only on the same files. When the next edit carries text the reads between
 * showed for the first time (facts.ts correctedRefusal), the reads taught it something: the chain
 * goes on, but that refusal is a new attempt and does not count toward the threshold (the round-4
 * precision reading judged chains where every attempt was corrected from new reads false alarms,
 * and long chains with one such correction among the same refusals stuck).
 */
function refusedAgainAfterReads(calls: readonly MinedCall[], j: number, free: (k: number) => boolean, wrote: readonly boolean[], meets: (k: number) => boolean): number {
  const at = calls[j] as MinedCall;
  if (at.rejected === undefined) return 0;
  for (let n = j + 1; n <= j + 1 + REFUSAL_BRIDGE && free(n); n++) {
    const c = calls[n] as MinedCall;
    if (c.rejected !== undefined) return n > j + 1 && meets(n) && sharesFile(at, c) ? n - j : 0;
    if (wrote[n] === true || c.outcome === undefined) return 0;
  }
  return 0;
}

/** Two calls name a file in common (filesOf: the files their args name). */
function sharesFile(a: MinedCall, b: MinedCall): boolean {
  const mine = filesOf(a);
  if (mine === "") return false;
  const theirs = new Set(filesOf(b).split(" "));
  return mine.split(" ").some((f) => theirs.has(f));
}

/**
 * Answered, neither failed nor refused, by the same non-empty masked text as the call before, from
 * the same tool, acting on the same files. The same files: an edit of linkcheck.py tried three ways
 * that shows the same lines each time had no effect; three new test scripts (test_a.py, test_b.py,
 * test_c.py) or three different tests that print the same verdict are three experiments whose equal
 * answers are a finding (the reading of the first catalogue judged 4 of 6 such runs false alarms).
 */
function noEffectLink(chain: readonly MinedCall[], next: MinedCall): boolean {
  const before = chain[chain.length - 1] as MinedCall;
  const ok = (c: MinedCall) => c.outcome !== undefined && !c.failed && c.rejected === undefined && c.substantial;
  // The tools and files first: each answer is masked when first read (maskedAnswer), and most neighbours differ in one of them.
  return next.call.tool === before.call.tool && filesOf(next) === filesOf(before) && ok(before) && ok(next) && sameResult(next, before);
}

/** How many calls back a call may re-check an earlier one. */
const RECHECK_WINDOW = 8;



/** A line of a file as a view prints it, without the line number grep -n, nl or a code viewer puts before it. */
// An answer line is trimmed already (answerLines): only one that starts with the number's mask (#) changes.
export const codeLine = (line: string): string => (line.charCodeAt(0) === 35 /* # */ ? line.replace(/^#(?::|-|\s)\s*/, "").trim() : line);
/** Every line of answer a (as code lines) is a line of answer b: a narrower view of what b showed. */
export function linesWithin(a: MinedCall, b: MinedCall): boolean {
  // The first shown code lines masked alone (leadingCodeLines): a's answer is masked whole only
  // when b's may hold its first line.
  const leading = leadingCodeLines(a);
  // A line or two (grep finding the def just read) is a pointer into what was read, not a re-read.
  // (Checked before b's set is made: most views are never compared line by line.)
  if (leading.length < WITHIN_MIN_LINES) return false;
  // The first line looked up among b's before b's set is made (once per call, kept): most views
  // of a file after another start elsewhere, and no set is then needed. Before that, in b's raw
  // answer (mask.ts mayHoldMaskedLine): most of b's answers are then never masked.
  const first = leading[0] as string;
  if (!mayHoldMaskedLine(b.rawResult, first, false) || !codeLines(b).includes(first)) return false;
  const seen = codeLineSet(b);
  return shownCodeLines(a).every((l) => seen.has(l));
}
/** shownCodeLines(c).slice(0, WITHIN_MIN_LINES), masking only the lines it reads (mask.ts leadingLines). */
export const leadingCodeLines = perCall((c: MinedCall): readonly string[] => leadingLines(answerBody(c.rawResult), WITHIN_MIN_LINES, (line) => codeLine(maskText(line))));
/** A call's masked answer as code lines, blank ones included; the answer's own lines when no line starts with a number's mask. */
const codeLines = perCall((c: MinedCall): readonly string[] => changedLines(maskedAnswerLines(c), codeLine));
/** All of a call's code lines (what a later view may fall within), made into a set only for a call something is compared with. */
const codeLineSet = perCall((c: MinedCall): ReadonlySet<string> => new Set(codeLines(c)));
/** The non-blank code lines (what a view shows). */
const shownCodeLines = perCall((c: MinedCall): readonly string[] => {
  const lines = codeLines(c);
  return lines.includes("") ? lines.filter((l) => l !== "") : lines;
});
/** Re-checks of the run's own answers a run needs (see recheckRuns). */
const RECHECKS_INSIDE = 2;
/** The last lines of a masked answer: where a test run, a script or a build says how it ended. */
// lastAnswerLines reads from the end: a test run's output can run to megabytes.
// Each line masked alone (lastAnswerLines(c.result) are these lines masked: no mask matches across
// a newline or touches a line's ends), so that comparing two verdicts masks neither answer whole.
export const verdictOf = perCall((c: MinedCall): string => lastAnswerLines(c.rawResult, VERDICT_LINES).map(maskText).join("\n"));
const VERDICT_LINES = 5;

/**
 * Whether call j re-checks call i: j asks again what i asked and hears what i heard. Either the
 * same command (as the agent means it) with the same masked answer (or the same last lines); or
 * the same tool on the same files with the same substantial masked answer ("same"), or with a
 * substantial answer whose 3 or more lines are all lines of i's ("within": a narrower view); or the same tool on the same files for the same quoted terms with the
 * same answer, empty included (grep "def __ne__" a.py, then cat a.py | grep "def __ne__": nothing,
 * twice). Different searches that find nothing, or different regions of one file, are not re-checks.
 */
// j asks something (asksSomething): recheckSources asks that once for j, not once for each i.
function rechecks(i: MinedCall, j: MinedCall): "same" | "within" | undefined {
  if (i.outcome === undefined) return undefined;
  // The same command with nothing written between: the same verdict (the answer's last lines,
  // masked) is the same answer, since a long output is elided at a point that moves with a clock.
  if (sameCommand(i, j)) return sameResult(i, j) || verdictOf(i) === verdictOf(j) ? "same" : undefined;
  if (i.call.tool !== j.call.tool) return undefined;
  const files = filesOf(j);
  if (files === "" || files !== filesOf(i)) return undefined;
  if (j.substantial && sameResult(i, j)) return "same";
  if (j.substantial && sameDetails(i, j) && linesWithin(j, i)) return "within";
  const terms = quotedTerms(j);
  return terms !== "" && terms === quotedTerms(i) && sameResult(i, j) ? "same" : undefined;
}

/**
 * For each call, whether it may have changed what a later call sees (src/import/writes.ts: an
 * editing or state-changing tool, a shell command that writes, a command known only by a
 * variable; a write that names only files no earlier call named does not part a re-check from
 * what it re-checks).
 */
function writesOf(calls: readonly MinedCall[]): boolean[] {
  const named = new Set<string>();
  return calls.map((c) => {
    const w = changesWhatWasRead(c.call.tool, c.rawArgs, (f) => named.has(f), writeKindOf(c));
    const files = filesOf(c);
    // filesNamedIn, from the files worked out once for the call.
    if (files !== "") for (const f of files.split(" ")) named.add(f);
    return w;
  });
}

/**
 * For each call, whether it wrote, and the call it re-checks (the nearest that it hears whole
 * again, else the nearest it shows a narrower view of) among the RECHECK_WINDOW calls before it,
 * looking back no further than the last write. Exported for inspection.
 */
export function recheckSources(calls: readonly MinedCall[], wrote: boolean[] = writesOf(calls)): { wrote: boolean[]; source: (number | undefined)[]; same: boolean[] } {
  const source: (number | undefined)[] = [];
  const same: boolean[] = [];
  for (const c of calls) {
    let from: number | undefined;
    let exact = false;
    if (!wrote[c.index] && asksSomething(c)) {
      for (let i = c.index - 1; i >= Math.max(0, c.index - RECHECK_WINDOW); i--) {
        if (wrote[i] === true) break;
        const how = rechecks(calls[i] as MinedCall, c);
        if (how === undefined) continue;
        from ??= i;
        if (how === "same") {
          from = i;
          exact = true;
          break;
        }
      }
    }
    source.push(from);
    same.push(exact);
  }
  return { wrote, source, same };
}

/**
 * Runs of calls that each re-check one of the few calls before them with no write between (see
 * rechecks and writes), not yet taken: nothing was changed, so nothing new could be heard, and the
 * answer was the same. A run starts one call earlier when that call is one the run
 * re-checks (the read, then the same read again). An identical re-run AFTER an edit is never one:
 * the edit parts them, and running the reproduce script after each change is work.
 */
function recheckRuns(calls: readonly MinedCall[], taken: readonly boolean[], wrote: boolean[], need: number): [number, number][] {
  const { source, same } = recheckSources(calls, wrote);
  const out: [number, number][] = [];
  let k = 0;
  while (k < calls.length) {
    if (source[k] === undefined || taken[k] === true) {
      k++;
      continue;
    }
    let last = k;
    while (last + 1 < calls.length && source[last + 1] !== undefined && taken[last + 1] !== true) last++;
    // The call just before the run joins it when the run re-checks it (the read, then the same read again).
    const first = k > 0 && taken[k - 1] !== true && source.slice(k, last + 1).includes(k - 1) ? k - 1 : k;
    // A narrower read of what was just read is how agents zoom in: a run needs an answer heard whole before.
    // ... and at least RECHECKS_INSIDE calls that hear an answer of the run itself whole again
    // (the precision reading: two calls after the first that add nothing; a call that repeats
    // something from before the run is a check after work, not a re-check inside it), and at
    // least as many of those as narrower views.
    let whole = 0;
    let narrower = 0;
    for (let c = k; c <= last; c++) {
      const from = source[c] as number;
      if (same[c] === true && from >= first) whole++;
      else narrower++;
    }
    if (last - first + 1 >= need && whole >= RECHECKS_INSIDE && whole >= narrower) out.push([first, last]);
    k = last + 1;
  }
  return out;
}

/** Calls outside a no-effect run that may get its answer too (a view before the edits, one after) before the answer counts as one the session gives all along. */
const NO_EFFECT_ELSEWHERE = 2;

/** Maximal runs of consecutive calls not yet taken, each linked to the run before it (calls' positions). */
function chains(calls: readonly MinedCall[], taken: readonly boolean[], link: (chain: readonly MinedCall[], next: MinedCall) => boolean): number[][] {
  const out: number[][] = [];
  let i = 0;
  while (i < calls.length) {
    if (taken[i] === true) {
      i++;
      continue;
    }
    const chain = [calls[i] as MinedCall];
    let j = i;
    while (j + 1 < calls.length && taken[j + 1] !== true && link(chain, calls[j + 1] as MinedCall)) chain.push(calls[++j] as MinedCall);
    out.push(chain.map((c) => c.index));
    i = j + 1;
  }
  return out;
}

function stretch(calls: readonly MinedCall[], first: number, last: number, rule: StretchRule, repeats: string): Stretch {
  const a = calls[first] as MinedCall;
  const z = calls[last] as MinedCall;
  const shape = rule === "alternation" ? [a.shape, (calls[first + 1] as MinedCall).shape] : [a.shape];
  return { rule, kind: kindOfRule(rule), firstCall: first, lastCall: last, length: last - first + 1, shape, repeats, firstEvent: a.events[0] as number, lastEvent: Math.max(...z.events) };
}

