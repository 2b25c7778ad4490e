// Stuck stretches in a recorded session, by a definition that belongs to no guard. A stretch is a
// run of consecutive calls that bring the agent nothing new:
//   - a repeat: the same masked call (mask.ts) answered by the same masked result, again and again;
//   - a failing run: the same masked call failing every time, whatever the error says;
//   - an alternation: two different calls taking turns, A B A B, each answered as before.
// Thresholds are the parameters below. No guard's counter, window or hash is used: masking is
// wider than any guard's (digits, ids, times, temp paths), the calls must be consecutive (no guard
// demands that), and a failing run ignores results (most guards compare them).
import type { CallEvent, OutcomeEvent, ToolEvent } from "../../models/events.js";
import { outcomeFailed } from "../import/failure.js";
import { callUnits } from "../scenario/eventPairs.js";
import { maskedCall, maskText, outcomeText } from "./mask.js";

export interface MineParameters {
  /** Calls in a row, same masked call and result, that make a repeat. */
  readonly repeat: number;
  /** Calls in a row, same masked call, every one failed, that make a failing run. */
  readonly failing: number;
  /** Calls in an A B A B alternation (both answered as before) that make one. */
  readonly alternation: number;
}

/**
 * Why these numbers (see reports/real-loops/README of the catalogue, "How the stretches were
 * judged"): the first call of a repeat is work, the second is a check an agent may make on
 * purpose (re-reading after a tool hiccup, re-running to confirm), a third identical answer
 * learned nothing twice. A failing command re-run twice after its failure is the same lesson
 * refused twice. An alternation needs three full turns (six calls) before it is told apart from
 * an agent that checks two things, edits, and checks them again.
 */
export const DEFAULT_MINE_PARAMETERS: MineParameters = { repeat: 3, failing: 3, alternation: 6 };

export type StretchRule = "repeat" | "failing" | "alternation";

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
}

export interface Stretch {
  readonly rule: StretchRule;
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
  for (const unit of callUnits(events)) {
    const call = events[unit[0] as number];
    if (call?.type !== "call") continue;
    const outcomeAt = unit[1];
    const outcome = outcomeAt === undefined ? undefined : (events[outcomeAt] as OutcomeEvent);
    const rawResult = outcomeText(outcome);
    calls.push({
      index: calls.length,
      events: unit,
      call,
      ...(outcome === undefined ? {} : { outcome }),
      shape: maskedCall(call),
      result: maskText(rawResult),
      rawArgs: JSON.stringify(call.params ?? null) ?? "null",
      rawResult,
      failed: outcome !== undefined && outcomeFailed(outcome),
    });
  }
  // callUnits lists units by their first event, so calls are already in session order.
  return calls;
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
      i = j + 1;
    } else i++;
  }
  return found.sort((a, b) => a.firstCall - b.firstCall);
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
  return { rule, firstCall: first, lastCall: last, length: last - first + 1, shape, repeats, firstEvent: a.events[0] as number, lastEvent: Math.max(...z.events) };
}
