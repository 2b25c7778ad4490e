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
// An unchanged re-check stretch needs 2 calls that hear an answer of the stretch itself whole
// again: the precision reading judged stretches resting on one re-read, on narrower views, or on
// repeats of calls from before the stretch false alarms. In a same-failure chain, A r A lets one
// named tool's call that wrote nothing (a search, a think) sit between the same recorded call
// failing the same way twice (the same update rejected after a search), uncounted; counting the
// failed X of A X A was tried and judged a false alarm (a pip install between two runs is a change).
// Why consecutive: a failure followed by a call that succeeds may have been fixed by it (an edit,
// then the test again: work, even when the test fails the same way, since the files changed; the
// brief's false alarm). So a chain of failures ends at the first call that neither failed nor was
// refused. The slack inside a chain: a failure may differ from the one before as long as it is one
// of the last two the chain met (A B A: two errors taking turns while the agent fights one quoting
// problem), and one failed call of another kind may sit between two of the same (A X A: nothing
// succeeded between them). The threshold counts the chain's failures plus one sighting of its
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
import { outcomeFailed } from "../import/failure.js";
import { callUnits } from "../scenario/eventPairs.js";
import { SHELL_TOOLS, changesWhatWasRead, createdFileOf } from "../import/writes.js";
import { answerLines, failureSignature, hasAnswerLine, lastAnswerLines, maskedCall, maskText, outcomeText, pathsIn, rejectionOf } from "./mask.js";
import { perCall } from "./perCall.js";

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
}

/**
 * Why these numbers (see reports/real-loops/README of the catalogue, "How the stretches were
 * judged"): the first call of a repeat is work, the second is a check an agent may make on
 * purpose (re-reading after a tool hiccup, re-running to confirm), a third identical answer
 * learned nothing twice. A failing command re-run twice after its failure is the same lesson
 * refused twice. An alternation needs three full turns (six calls) before it is told apart from
 * an agent that checks two things, edits, and checks them again.
 */
export const DEFAULT_MINE_PARAMETERS: MineParameters = { repeat: 3, failing: 3, alternation: 6, sameFailure: 3, recheck: 3, noEffect: 3, noNewFact: 3 };

/** The miner's rules, each a kind of stuck stretch, in the order a catalogue lists them. */
export const STRETCH_RULES = ["repeat", "failing", "alternation", "same-failure", "same-rejection", "unchanged-recheck", "no-effect", "no-new-fact"] as const;
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
      return p.sameFailure;
    case "unchanged-recheck":
      return p.recheck;
    case "no-effect":
      return p.noEffect;
    case "no-new-fact":
      return p.noNewFact;
    default: {
      const never: never = rule;
      return never;
    }
  }
}

/** One call of a session, as the miner sees it. */
export interface MinedCall {
  /** Position among the session's calls (0-based). */
  readonly index: number;
  /** Positions of the call's events (the call, then its outcomes) in the session's events. */
  readonly events: readonly number[];
  readonly call: CallEvent;
  readonly outcome?: OutcomeEvent;
  readonly shape: string;
  readonly result: string;
  /** The args and the result text as recorded, before masking. */
  readonly rawArgs: string;
  readonly rawResult: string;
  readonly failed: boolean;
  /** The kind of refusal when the environment turned the action back without running it (mask.ts rejectionOf). */
  readonly rejected?: string;
  /** The tool said nothing (no text beside the exit status the importer recorded). */
  readonly silent: boolean;
  /** The tool said more than a number or a word (see substantial). */
  readonly substantial: boolean;
  /** For a failed or refused call: its failure, masked (mask.ts failureSignature); otherwise undefined. */
  readonly signature?: string;
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
    // What the tool said, and apart from it the details the importer added (an exit code, a status).
    const message = outcomeText(outcome, false);
    const details = detailsText(outcome, message);
    const maskedMessage = maskText(message);
    const rawArgs = JSON.stringify(call.params ?? null) ?? "null";
    const failed = outcome !== undefined && outcomeFailed(outcome);
    const rejected = outcome === undefined ? undefined : rejectionOf(message);
    const signature = rejected !== undefined ? `refused: ${rejected}` : failed ? failureSignature(message, rawArgs, exitCodeOf(outcome)) : undefined;
    calls.push({
      index: calls.length,
      events: unit,
      call,
      ...(outcome === undefined ? {} : { outcome }),
      shape: maskedCall(call),
      result: details === "" ? maskedMessage : `${maskedMessage}\n${maskText(details)}`,
      rawArgs,
      rawResult: details === "" ? message : `${message}\n${details}`,
      failed,
      silent: !hasAnswerLine(message),
      substantial: substantial(maskedMessage),
      ...(rejected === undefined ? {} : { rejected }),
      ...(signature === undefined ? {} : { signature }),
    });
  }
  return calls;
}

/**
 * A result's details as JSON (an exit code, a status are part of what the agent learns), without
 * the copy of the output some importers keep beside the text (OpenClaw's exec `aggregated`): the
 * same text twice would only be masked and compared twice.
 */
function detailsText(outcome: OutcomeEvent | undefined, message: string): string {
  const result = outcome?.error === undefined ? outcome?.result : undefined;
  const details = result !== null && typeof result === "object" ? (result as { details?: unknown }).details : undefined;
  if (details === undefined) return "";
  if (details === null || typeof details !== "object" || Array.isArray(details)) return JSON.stringify(details) ?? "";
  const { aggregated, ...rest } = details as Record<string, unknown>;
  return JSON.stringify(aggregated === undefined || aggregated === message || (typeof aggregated === "string" && aggregated.trim() === message.trim()) ? rest : details) ?? "";
}

/** The exit code an importer put into the result's details ({exitCode}), if any. */
function exitCodeOf(outcome: OutcomeEvent | undefined): number | undefined {
  const details = (outcome?.result as { details?: { exitCode?: unknown } } | null | undefined)?.details;
  return typeof details?.exitCode === "number" ? details.exitCode : undefined;
}

/**
 * Nothing new: the same masked call and the same masked result, and not both changed in what the
 * mask hid. A call that differs only in a counter and gets the same answer, or the same call whose
 * answer differs only in a clock or a line number, taught nothing; a call that asked about another
 * thing (cabinet 3, then cabinet 4) and got an answer about that thing may have taught something.
 * A call never answered says nothing either way, so it never repeats.
 */
const sameAnswer = (a: MinedCall, b: MinedCall) => a.outcome !== undefined && b.outcome !== undefined && a.shape === b.shape && a.result === b.result && (a.rawArgs === b.rawArgs || a.rawResult === b.rawResult);
const sameFailure = (a: MinedCall, b: MinedCall) => a.shape === b.shape && a.failed && b.failed;

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
    const refused = calls.slice(first, last + 1).every((c) => c.rejected !== undefined);
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
    const { stale, zoom, wrote: changed } = heardAgain;
    for (const [at, s] of found.entries()) {
      if (s.rule !== "same-failure" && s.rule !== "same-rejection") continue;
      const last = runWalk(calls, taken, changed, stale, zoom).extend(s.lastCall);
      for (let k = s.lastCall + 1; k <= last; k++) taken[k] = true;
      if (last > s.lastCall) found[at] = stretch(calls, s.firstCall, last, s.rule, s.repeats);
    }
  }
  // Calls that add no new fact, on the calls left (see noNewFactRuns).
  for (const [first, last] of noNewFactRuns(calls, taken, heardAgain, parameters.noNewFact)) {
    found.push(stretch(calls, first, last, "no-new-fact", "answers already heard since the last change: the same failure, the same lines, the same non-answer"));
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
  if (c.signature === undefined) return undefined;
  return SHELL_SYNTAX.test(c.signature) && ranBeforeSyntaxError(c) ? c.result : c.signature;
}

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
 * taken. A chain grows by a call whose failure is one of the last two the chain met, or by two
 * calls at once: a failed call of another kind (or with no failure line) and, after it, one of the
 * chain's failures again (A X A: nothing succeeded between them). A chain is a stretch when its
 * failures, plus an earlier sighting of its first failure in the few calls before it (the agent
 * looked at the code, then failed the same way twice more), number `need` or more.
 */
function failureChains(calls: readonly MinedCall[], taken: readonly boolean[], wrote: readonly boolean[], need: number): [number, number][] {
  const out: [number, number][] = [];
  const free = (k: number) => k < calls.length && taken[k] !== true;
  const failedAt = (k: number) => (calls[k] as MinedCall).failed || (calls[k] as MinedCall).rejected !== undefined;
  let i = 0;
  while (i < calls.length) {
    const start = chainSignature(calls[i] as MinedCall);
    if (!free(i) || start === undefined) {
      i++;
      continue;
    }
    const recent = [start];
    let failures = 1;
    let j = i;
    const meets = (k: number) => free(k) && !changedThenTested(calls[k] as MinedCall, wrote[k] === true) && chainSignature(calls[k] as MinedCall) !== undefined && recent.slice(-2).includes(chainSignature(calls[k] as MinedCall) as string);
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
      else break;
      j += step;
      recent.push(chainSignature(calls[j] as MinedCall) as string);
      failures += 1;
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
  return ok(before) && ok(next) && next.call.tool === before.call.tool && next.result === before.result && filesOf(next) === filesOf(before);
}

/** How many calls back a call may re-check an earlier one. */
const RECHECK_WINDOW = 8;


/** A command as the agent means it: without a leading cd into the work folder and a stderr redirection. */
const commandOf = perCall(
  (c: MinedCall): string =>
    `${c.call.tool} ${c.rawArgs
      .replace(/^\{"command":"cd [^\s&;]+ && /, '{"command":"')
      .replace(/\s*2>&1/g, "")
      .replace(/\s+/g, " ")}`,
);

/** The quoted terms of a call's args (what a grep looks for), sorted: two wordings of one search share them. */
const quotedTerms = perCall((c: MinedCall): string => [...new Set([...c.rawArgs.matchAll(/\\"([^"\\]{3,80})\\"|'([^'\n]{3,80})'/g)].map((m) => (m[1] ?? m[2]) as string))].sort().join("\u0000"));
/** The files a call's args name (mask.ts pathsIn): compared with each earlier call in a window, worked out once. */
const filesOf = perCall((c: MinedCall): string => pathsIn(c.rawArgs));

/** A line of a file as a view prints it, without the line number grep -n, nl or a code viewer puts before it. */
const codeLine = (line: string): string => line.replace(/^#(?::|-|\s)\s*/, "").trim();
/** Every line of answer a (as code lines) is a line of answer b: a narrower view of what b showed. */
function linesWithin(a: MinedCall, b: MinedCall): boolean {
  const seen = codeLinesOf(b).all;
  const lines = codeLinesOf(a).shown;
  // A line or two (grep finding the def just read) is a pointer into what was read, not a re-read.
  return lines.length >= WITHIN_MIN_LINES && lines.every((l) => seen.has(l));
}
/** A call's masked answer as code lines: all of them (what a later view may fall within), and the non-blank ones (what it shows). */
const codeLinesOf = perCall((c: MinedCall): { all: ReadonlySet<string>; shown: readonly string[] } => {
  const lines = answerLines(answerBody(c.result)).map(codeLine);
  return { all: new Set(lines), shown: lines.filter((l) => l !== "") };
});
const WITHIN_MIN_LINES = 3;
/** Re-checks of the run's own answers a run needs (see recheckRuns). */
const RECHECKS_INSIDE = 2;
/** The last lines of a masked answer: where a test run, a script or a build says how it ended. */
// lastAnswerLines reads from the end: a test run's output can run to megabytes.
const verdictOf = perCall((c: MinedCall): string => lastAnswerLines(c.result, VERDICT_LINES).join("\n"));
const VERDICT_LINES = 5;
/** A masked result without the details line the importer appended ({"status":..., "exitCode":...}). */
const answerBody = (result: string): string => result.replace(/\n\{[^\n]*\}$/, "");
const sameDetails = (i: MinedCall, j: MinedCall): boolean => detailsOf(i) === detailsOf(j);
/** The details line the importer appended to a masked result (with its newline), or "". */
const detailsOf = perCall((c: MinedCall): string => c.result.slice(answerBody(c.result).length));

/**
 * Whether call j re-checks call i: j asks again what i asked and hears what i heard. Either the
 * same command (as the agent means it) with the same masked answer (or the same last lines); or
 * the same tool on the same files with the same substantial masked answer ("same"), or with a
 * substantial answer whose 3 or more lines are all lines of i's ("within": a narrower view); or the same tool on the same files for the same quoted terms with the
 * same answer, empty included (grep "def __ne__" a.py, then cat a.py | grep "def __ne__": nothing,
 * twice). Different searches that find nothing, or different regions of one file, are not re-checks.
 */
function rechecks(i: MinedCall, j: MinedCall): "same" | "within" | undefined {
  if (i.outcome === undefined || j.outcome === undefined) return undefined;
  // Writing a new file (cat > fix2.patch <<EOF) asks nothing: its empty answer is no answer heard again.
  if (createdFileOf(j.rawArgs) !== undefined) return undefined;
  // The same command with nothing written between: the same verdict (the answer's last lines,
  // masked) is the same answer, since a long output is elided at a point that moves with a clock.
  if (commandOf(i) === commandOf(j)) return i.result === j.result || verdictOf(i) === verdictOf(j) ? "same" : undefined;
  if (i.call.tool !== j.call.tool) return undefined;
  const files = filesOf(j);
  if (files === "" || files !== filesOf(i)) return undefined;
  if (j.substantial && i.result === j.result) return "same";
  if (j.substantial && sameDetails(i, j) && linesWithin(j, i)) return "within";
  const terms = quotedTerms(j);
  return terms !== "" && terms === quotedTerms(i) && i.result === j.result ? "same" : undefined;
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
    const w = changesWhatWasRead(c.call.tool, c.rawArgs, (f) => named.has(f));
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
    if (!wrote[c.index]) {
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

/**
 * An answer that could only repeat if nothing changed: some text beyond numbers and placeholders,
 * and more than a word. A calculator's "171.0" and "201.0" mask alike, and a script printing "OK"
 * or "True" for each of three inputs found something out three times.
 */
const NO_EFFECT_MIN_CHARS = 40;
/** Calls outside a no-effect run that may get its answer too (a view before the edits, one after) before the answer counts as one the session gives all along. */
const NO_EFFECT_ELSEWHERE = 2;
function substantial(masked: string): boolean {
  if (masked.trim().length < NO_EFFECT_MIN_CHARS) return false;
  // Letters outside the mask's placeholders, counted only as far as needed (outputs run to megabytes).
  let letters = 0;
  for (let i = 0; i < masked.length; i++) {
    const c = masked.charCodeAt(i);
    if (c === 60 /* < */) {
      const close = masked.indexOf(">", i);
      if (close > i && close - i <= 40 && /^<\w+>$/.test(masked.slice(i, close + 1))) {
        i = close;
        continue;
      }
    }
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) letters++;
    if (letters >= NO_EFFECT_MIN_CHARS / 2) return true;
  }
  return false;
}

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

/**
 * A wait that paid off: the very call after the repeats is the same call, as recorded, and its
 * answer is new (a build finished, a page loaded). Polling a running process until it answers is
 * waiting, not being stuck (OpenHands #5355 is about guards that stop it).
 */
function waitPaidOff(calls: readonly MinedCall[], last: number): boolean {
  const a = calls[last] as MinedCall;
  const b = calls[last + 1];
  return b !== undefined && b.outcome !== undefined && b.rawArgs === a.rawArgs && b.call.tool === a.call.tool && b.result !== a.result;
}

function stretch(calls: readonly MinedCall[], first: number, last: number, rule: StretchRule, repeats: string): Stretch {
  const a = calls[first] as MinedCall;
  const z = calls[last] as MinedCall;
  const shape = rule === "alternation" ? [a.shape, (calls[first + 1] as MinedCall).shape] : [a.shape];
  return { rule, kind: kindOfRule(rule), firstCall: first, lastCall: last, length: last - first + 1, shape, repeats, firstEvent: a.events[0] as number, lastEvent: Math.max(...z.events) };
}

/** How many calls that wrote nothing may sit between two calls that meet the same failure (see noNewFactRuns). */
const BRIDGE_FAILURE = 2;
/** How far a run looks ahead for its next stale call, zooms included. */
const BRIDGE_WINDOW = 5;
/** How many calls back a call's answer is compared with earlier answers (no further than the last change). */
const NEW_FACT_WINDOW = 10;
/** A harness that wraps each action in code of its own and could not parse it: the action never ran. */
const HARNESS_PARSE = /^\s*File "<string>", line \d+[\s\S]{0,2000}?\n\s*(?:SyntaxError|IndentationError|TabError)\b/;
const UNPARSED = "harness could not parse the action";
const INSTALL_FAILED = "install failed";
/**
 * Two failures of one family. Failed installs are one when one's packages are all among the
 * other's (pip install numpy pandas timed out, then pip install numpy, then conda install numpy
 * pandas: the same packages cannot be had); installs of other packages (erfa, then pyerfa) are
 * deps tried one by one.
 */
function sameFamily(a: string | undefined, b: string): boolean {
  if (a === b) return true;
  if (a === undefined || !a.startsWith(`${INSTALL_FAILED}: `) || !b.startsWith(`${INSTALL_FAILED}: `)) return false;
  const x = a.slice(INSTALL_FAILED.length + 2).split(" ");
  const y = b.slice(INSTALL_FAILED.length + 2).split(" ");
  const within = (p: string[], q: string[]) => p.every((w) => w !== "" && q.includes(w));
  return within(x, y) || within(y, x);
}
/** The packages an install names, sorted, without its options (pip install numpy pandas -q). */
function installedPackages(c: MinedCall): string {
  const words = /\b(?:install|add)\s+([^"&|;>\n]*)/.exec(c.rawArgs)?.[1] ?? "";
  return [...new Set(words.split(/\s+/).filter((w) => /^[A-Za-z][\w.-]*$/.test(w)).map((w) => w.toLowerCase().replace(/-/g, "_")))].sort().join(" ");
}
/** An install killed by the harness's timeout. */
const INSTALL = /\b(?:pip3?|conda|apt-get|apt|npm|yarn|pnpm|poetry|uv|mamba)\s+(?:[\w-]+\s+)*(?:install|add)\b/;
/** bash could not parse the command line: nothing in it ran. */
const SHELL_SYNTAX = /syntax error near unexpected token|syntax error: unexpected end of file/;

/**
 * The failure a call met, as a family: what the agent learned from it, whatever its wording. A
 * refusal of one kind (a patch that did not apply, then a corrupt patch: the file did not change
 * either way), an install that timed out, an action the harness could not parse (File
 * "<string>" ... SyntaxError, whatever the message), else the failure's masked signature. Unparsed
 * actions are one family only when they come one right after the other (staleCalls): the
 * precision reading of round 2 judged runs with new reads between them false alarms (work went
 * on beside a format failure), and runs of them back to back stuck (nothing ran four times).
 */
function failureFamily(c: MinedCall): string | undefined {
  // Asked for each call once per later call in a window: work it out once.
  if (FAMILIES.has(c)) return FAMILIES.get(c);
  const family = familyOf(c);
  FAMILIES.set(c, family);
  return family;
}
const FAMILIES = new WeakMap<MinedCall, string | undefined>();
function familyOf(c: MinedCall): string | undefined {
  if (c.rejected !== undefined) return `refused: ${c.rejected}`;
  if (!c.failed && c.signature === undefined) return undefined;
  if (HARNESS_PARSE.test(c.rawResult.slice(0, 3000))) return UNPARSED;
  // An install that timed out or failed installed nothing, however it was worded (pip, then
  // conda): the same packages again are the same lesson. Other packages are another lesson
  // (installing missing deps one by one is work: the precision reading of round 2 judged runs
  // that lumped installs of different packages together false alarms).
  if (failedInstall(c)) return `${INSTALL_FAILED}: ${installedPackages(c)}`;
  // bash's syntax error after output: what the script before it said is the lesson (chainSignature).
  if (c.signature !== undefined && SHELL_SYNTAX.test(c.signature) && ranBeforeSyntaxError(c)) return `ran, then a syntax error: ${c.result}`;
  // The exit status and the words of the command in the line are how it was run, not what failed
  // (bash -lc "..." says "bash: -c: syntax error" with 127 where the plain command said it with 2).
  // A tool's "Sorry: " before the error and the place after it, "(toctree.py, line 174)", are
  // how it was reported, not what failed (pytest and py_compile on one broken file).
  return c.signature
    ?.replace(/^exit -?\d+: /, "")
    .replace(/\bbash\b/g, "<arg>")
    .replace(/^Sorry: /, "")
    .replace(/\s*\([^()]*\)$/, "");
}

/**
 * A failed call that only installs (pip install numpy pandas -q, its output piped to tail): its
 * failure is the install's. An install chained to a run (pip install x && python t.py) may have
 * installed x before the run failed.
 */
function failedInstall(c: MinedCall): boolean {
  return c.failed && INSTALL.test(c.rawArgs) && !/&&|;|\|\|/.test(c.rawArgs.replace(/^\{"command":"cd [^\s&;]+ && /, ""));
}
/**
 * A call that changed nothing whatever its command says: refused, never parsed, killed by a
 * timeout, or a command line bash could not parse that printed nothing else. A shell syntax error
 * AFTER output (a heredoc script that ran and printed "patched", then `PY && sed` that bash could
 * not parse) is no such call: the script before it ran (the precision reading of round 2 judged
 * chains resting on that trailing error false alarms).
 */
function neverTookEffect(c: MinedCall): boolean {
  const family = failureFamily(c);
  if (family === undefined) return false;
  // A named tool (book_reservation, update_*) that answered with a failure refused the action: the
  // runtime checks its input before it changes anything (a shell command may fail half done).
  if (c.failed && !SHELL_TOOLS.has(c.call.tool)) return true;
  return family.startsWith("refused") || HARNESS_PARSE.test(c.rawResult.slice(0, 3000)) || family.startsWith(INSTALL_FAILED) || (SHELL_SYNTAX.test(family) && !ranBeforeSyntaxError(c));
}

/** The answer holds lines before bash's syntax error: some of the command ran. */
function ranBeforeSyntaxError(c: MinedCall): boolean {
  const lines = answerLines(answerBody(c.rawResult));
  const at = lines.findIndex((l) => SHELL_SYNTAX.test(l));
  // Only errors before it (command not found for the pieces bash split off) is nothing that worked.
  return lines.slice(0, Math.max(0, at)).some((l) => !FAILED_PIECE.test(l));
}
/** A line bash prints for a piece of a mangled command line that failed too. */
const FAILED_PIECE = /^bash: |command not found|No such file or directory|^\s*\^|`[^`]*'$/;

/** The lines of an answer as facts: code lines without their numbers, the importer's details line dropped, masked. */
// Each call's answer is compared with up to NEW_FACT_WINDOW later ones: mask its lines once, and
// make the set a later answer's lines are looked up in once.
const factLines = perCall(factLinesOf);
const factLineSet = perCall((c: MinedCall): ReadonlySet<string> => new Set(factLines(c)));
function factLinesOf(c: MinedCall): string[] {
  // The lines as printed, numbers included: a view with line numbers (nl -ba) after one without
  // tells the agent where to edit, which the precision reading of round 2 judged a new fact.
  // Masked as one text, not line by line: no mask matches across a newline or puts one in, so
  // the lines of the masked whole are the masked lines (test/loopsFastPaths.test.ts), and a long
  // answer is masked in a few scans instead of seven per line.
  const lines = answerLines(answerBody(c.rawResult)).map((l) => l.replace(/\s+/g, " "));
  if (lines.length === 0) return [];
  return maskText(lines.join("\n"))
    .split("\n")
    .filter((l) => l !== "");
}


/**
 * Whether an answer re-reads the region an earlier answer showed, rather than zooming into it: at
 * more than two thirds of the earlier answer's lines come back (sed -n '1443,1465p' after
 * '1443,1470p'). A few lines out of a view just read is how agents zoom in (not stuck, by the
 * readers' protocol: 340-345 after 335-345 is a closer look, and the readers judged chains of
 * such views not stuck); the same lines again, or nearly all of them, is a re-read.
 */
function sameRegion(now: ReadonlySet<string>, before: readonly string[]): boolean {
  if (before.length === 0) return false;
  let back = 0;
  for (const l of before) if (now.has(l)) back++;
  return back * 3 > before.length * 2;
}

/** Every line of `lines` is one of `before`. */
function linesIn(lines: readonly string[], had: ReadonlySet<string>): boolean {
  return lines.every((l) => had.has(l));
}

/**
 * For each call, whether it adds no new fact to what the calls since the last change (a write
 * that took effect) heard, within NEW_FACT_WINDOW calls, and the earliest such call whose answer
 * it repeats:
 *  - the same failure family again;
 *  - the same masked answer again (a substantial one, or one to the same files or terms);
 *  - an answer whose every line (3 or more characters of text each) was heard before;
 *  - the same empty answer to the same files or quoted terms.
 */
export function staleCalls(calls: readonly MinedCall[], recorded: readonly boolean[]): { stale: boolean[]; source: (number | undefined)[]; zoom: boolean[]; wrote: boolean[] } {
  // A write sent again as it was, answered as before, makes the state it made before: it is no
  // change (see redoneWrites), and it adds no fact.
  const redone = redoneWrites(calls, recorded);
  const wrote = recorded.map((w, k) => w && redone[k] === undefined);
  const stale: boolean[] = [];
  const zooms: boolean[] = [];
  const source: (number | undefined)[] = [];
  let epoch = 0;
  for (const c of calls) {
    const k = c.index;
    let from: number | undefined;
    let zoomed = false;
    // Writing a new file (cat > fix2.patch <<EOF) asks nothing: its empty answer is no answer heard again.
    if (redone[k] !== undefined) from = redone[k];
    else if (c.outcome !== undefined && !(wrote[k] === true && !neverTookEffect(c)) && createdFileOf(c.rawArgs) === undefined) {
      const start = Math.max(epoch, k - NEW_FACT_WINDOW);
      const family = failureFamily(c);
      // Only needed when an earlier call named the same files: worked out then (factLines is pure).
      const lines = (): readonly string[] => (family === undefined ? factLines(c) : []);
      const files = filesOf(c);
      for (let i = start; i < k; i++) {
        const p = calls[i] as MinedCall;
        if (p.outcome === undefined) continue;
        if (family !== undefined) {
          if (sameFamily(failureFamily(p), family) && (family !== UNPARSED || i === k - 1)) {
            from = i;
            break;
          }
          continue;
        }
        if (failureFamily(p) !== undefined) continue;
        const sameFiles = files !== "" && filesOf(p) === files;
        const sameTerms = quotedTerms(c) !== "" && quotedTerms(p) === quotedTerms(c);
        if (c.silent) {
          // An empty answer is news unless the same search on the same files, or the same command, heard it before.
          if (p.silent && sameDetails(p, c) && ((sameTerms && sameFiles) || commandOf(p) === commandOf(c))) {
            from = i;
            break;
          }
          continue;
        }
        // The same answer to the same command, to the same search on the same files, or from a
        // named viewer on the same files. Not a named tool's same call about no file (a chat
        // runtime's search_direct_flight again: the customer may have changed the request between,
        // which the record does not show; the precision reading judged one such false alarm), nor
        // different commands on one file (pylint a.py -v,
        // then -rn: each flag asks something new, and the precision reading judged such sweeps
        // false alarms), nor to new scripts that print the same verdict (three experiments).
        const shell = SHELL_TOOLS.has(c.call.tool);
        if (p.result === c.result && ((commandOf(p) === commandOf(c) && (shell || sameFiles)) || (sameFiles && (sameTerms || !shell)))) {
          from = i;
          break;
        }
        if (!sameFiles || lines().length < WITHIN_MIN_LINES) continue;
        const before = factLines(p);
        // A view all of whose lines an earlier answer showed: a re-read when it shows most of that
        // region again (sameRegion), else zooming, a closer look at part of it (the readers'
        // protocol: narrowing is not stuck), which breaks no run either (see noNewFactRuns).
        if (!linesIn(lines(), factLineSet(p))) continue;
        if (!sameRegion(factLineSet(c), before)) {
          zoomed = true;
          continue;
        }
        {
          from = i;
          break;
        }
      }
    }
    if (wrote[k] === true && !neverTookEffect(c)) epoch = k + 1;
    stale.push(from !== undefined);
    source.push(from);
    zooms.push(zoomed && from === undefined);
  }
  return { stale, source, zoom: zooms, wrote };
}

/**
 * For each call, the earlier call it re-sends when it is a write sent again exactly as recorded
 * (the same tool, the same args) within NEW_FACT_WINDOW calls, answered with the same masked
 * text, with no write between that is not itself such a re-send (a revert and the same re-apply,
 * again). It makes the state the first one made: the same patch file written again byte for
 * byte, the same `git checkout f && sed -i ...` sent again. The readers mark such re-sends stuck
 * ("the same rejected action re-sent", "an edit that did not apply, re-applied the same way").
 * An append (>>) adds again, so it is never one; nor is a command known only by a variable.
 */
function redoneWrites(calls: readonly MinedCall[], wrote: readonly boolean[]): (number | undefined)[] {
  const redone: (number | undefined)[] = [];
  for (const c of calls) {
    const k = c.index;
    let from: number | undefined;
    const writes = wrote[k] === true || createdFileOf(c.rawArgs) !== undefined;
    // A command the record names only by a variable ({"expr":"cmd"}) is a different command each time, whatever the record says.
    if (writes && c.outcome !== undefined && !c.rawArgs.includes(">>") && !c.rawArgs.includes('{"expr":')) {
      for (let p = k - 1; p >= Math.max(0, k - NEW_FACT_WINDOW); p--) {
        const q = calls[p] as MinedCall;
        if (q.rawArgs === c.rawArgs && q.call.tool === c.call.tool && q.outcome !== undefined && q.result === c.result) {
          from = p;
          break;
        }
        // Another write between that is no re-send: the state may differ, the same write is work.
        if (wrote[p] === true && redone[p] === undefined && !neverTookEffect(q)) break;
      }
    }
    redone.push(from);
  }
  return redone;
}

/**
 * Runs of calls that add no new fact (staleCalls), not yet taken: a first call, the one whose
 * answer the run hears again, and at least `need - 1` calls after it that each add nothing.
 */
function noNewFactRuns(calls: readonly MinedCall[], taken: readonly boolean[], facts: ReturnType<typeof staleCalls>, need: number): [number, number][] {
  const { stale, source, zoom, wrote: changed } = facts;
  // The fact a stale call heard again: the first hearing of it (following the sources back).
  const root: (number | undefined)[] = [];
  const heardAgain = new Set<number>();
  for (let r = 0; r < calls.length; r++) {
    const src = source[r];
    root.push(stale[r] === true && src !== undefined ? (root[src] ?? src) : r);
    if (stale[r] === true && src !== undefined) heardAgain.add(root[src] ?? src);
  }
  const walk = runWalk(calls, taken, changed, stale, zoom);
  const quiet = walk.quiet;
  const out: [number, number][] = [];
  let k = 0;
  while (k < calls.length) {
    if (stale[k] !== true || taken[k] === true) {
      k++;
      continue;
    }
    const last = walk.extend(k);
    // The first call is the earliest one whose answer the run hears again, when it comes just
    // before the run (or, for a failure, with calls between that taught nothing, as above).
    let first = k;
    for (let r = k; r <= last; r++) {
      const src = source[r];
      if (stale[r] !== true || src === undefined || src >= first || taken[src] === true || k - src - 1 > BRIDGE_WINDOW) continue;
      if (quiet(src + 1, k, failureFamily(calls[src] as MinedCall) !== undefined ? BRIDGE_FAILURE : 0)) first = src;
    }
    // What counts: ONE fact heard `need` times inside the run (its first hearing and the calls
    // that heard it again), not stale calls of different facts added up. The readers' protocol
    // asks for the same failure or non-result at least three times; the precision reading judged
    // the runs that added up different facts heard twice each (a view re-read once, then a test
    // re-run once) false alarms.
    // Its first hearing counts too when it came before the run (since the last change, within
    // NEW_FACT_WINDOW calls: a failure seen, a look at the code, the same failure twice more).
    const heard = new Map<number, number>();
    for (let r = first; r <= last; r++) {
      const fact = stale[r] === true ? root[r] : r;
      if (fact === undefined || (stale[r] !== true && !heardAgain.has(r))) continue;
      heard.set(fact, (heard.get(fact) ?? (fact < first ? 1 : 0)) + 1);
    }
    // And the run itself is `need` calls or more: a fact heard once before and twice in a run of
    // two is a retry after a look (the readers mark the repeating calls, three or more).
    // Not a wait that paid off: the very next call is the last one again, as recorded, with a new
    // answer (polls of a running build until it finished; the first reading judged one a false
    // alarm). A command known only by a variable ({"expr":"cmd"}) is no same call.
    const waited = waitPaidOff(calls, last) && !(calls[last] as MinedCall).rawArgs.includes('{"expr":');
    if (Math.max(0, ...heard.values()) >= need && last - first + 1 >= need && !waited) out.push([first, last]);
    k = last + 1;
  }
  return out;
}

/**
 * How a run of calls that add no new fact walks on (see noNewFactRuns): from its last call to the
 * next stale call, over calls between that taught nothing.
 */
function runWalk(calls: readonly MinedCall[], taken: readonly boolean[], wrote: readonly boolean[], stale: readonly boolean[], zoom: readonly boolean[]): { quiet: (from: number, to: number, most: number) => boolean; extend: (from: number) => number } {
  // Calls between two stale ones that wrote nothing (a look at the code between two refused
  // patches, a check that the package is still missing between two installs that timed out) are
  // inside the run but not counted: up to BRIDGE_FAILURE before the same failure again, one
  // before any other stale call.
  // A zoom (a closer look at what an earlier answer showed) is no news either and does not count
  // as a call between. At most one call between may have read something new (a look at the
  // code between two refused patches); the others must have taught nothing: a failure, an
  // empty answer, or a short one ("3.9.1", "numpy not available") when the same failure comes
  // back after it. A short success before anything else may be the attempt that worked (the
  // heredoc that finally ran), after which a re-read is work again. Reads of new content
  // between refusals are work toward the next attempt (the precision reading judged such
  // chains false alarms).
  const quiet = (from: number, to: number, most: number): boolean => {
    const failureAfter = failureFamily(calls[to] as MinedCall) !== undefined;
    let between = 0;
    let reads = 0;
    for (let b = from; b < to; b++) {
      const c = calls[b] as MinedCall;
      if (taken[b] === true || (wrote[b] === true && !neverTookEffect(c))) return false;
      if (zoom[b] === true) continue;
      const succeeded = !c.failed && c.rejected === undefined && stale[b] !== true && !c.silent;
      if (succeeded && (c.substantial || !failureAfter)) reads++;
      between++;
    }
    return between <= most && reads <= Math.min(1, most);
  };
  const reach = (at: number) => (failureFamily(calls[at] as MinedCall) !== undefined ? BRIDGE_FAILURE : 1);
  const extend = (from: number): number => {
    let last = from;
    for (;;) {
      let next = -1;
      for (let n = last + 1; n < calls.length && n <= last + 1 + BRIDGE_WINDOW; n++) {
        if (taken[n] === true) break;
        if (stale[n] === true) {
          if (quiet(last + 1, n, reach(n))) next = n;
          break;
        }
      }
      if (next < 0) break;
      last = next;
    }
    return last;
  };
  return { quiet, extend };
}
