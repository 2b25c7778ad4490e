// The verdict of one cell: does the target still have the failure the thread reported, or does it
// do what the scenario expects? Computed from the observation alone, with a one-line account.
import type { FieldExpectation } from "./fieldScenario.js";
import type { Observation } from "./observe.js";

/** How the loop went after the guard first stopped it: judged to its end, not only to the first block. */
export interface LoopEnd {
  /** The first call (1-based) at which the guard stopped the loop; absent when it never did. */
  readonly firstStop?: number;
  /** Looping calls that still ran after that first stop (every later call of the trace is the loop going on). */
  readonly ranAfterStop: number;
  /** Looping calls that ran after the loop had to be over: after the first stop, or after the
   * scenario's own bound when that is later (loopOverAfter: the calls up to it may run). */
  readonly ranAfterEnd: number;
  /** The loop ended: the guard stopped it and nothing ran after it had to be over. */
  readonly ended: boolean;
}

/**
 * "let-through": the guard stopped the loop in time and then let later calls of it run (a block
 * that lets the next retries through). To a user that loop is not fixed, so it is its own class.
 */
export type JudgedStatus = "failure" | "let-through" | "fixed";

export type Judgement = { readonly status: JudgedStatus; readonly observed: string; readonly broken: readonly string[]; readonly loop: LoopEnd };

/** The first call (1-based) at which the guard stopped the loop: blocked, not run, or the run ended after it. */
export function firstStop(observation: Observation): number | undefined {
  const i = observation.calls.findIndex((c) => c.fate !== "ran" || c.runEndedAfter);
  return i < 0 ? undefined : i + 1;
}

export function firstTold(observation: Observation): number | undefined {
  const i = observation.calls.findIndex((c) => c.told);
  return i < 0 ? undefined : i + 1;
}

/** Calls after `n` that still ran. */
export function ranAfter(observation: Observation, n: number): number {
  return observation.calls.slice(n).filter((c) => c.fate === "ran").length;
}

/**
 * The last call of the loop that may still run: runsNothingAfter when given, else stopsBy, else
 * endsRunBy. A stop before it may be soft (a block, then more calls) as long as nothing runs past
 * it: the user's loop is bounded where the scenario says, so that is not a let-through.
 */
export function loopOverAfter(expected: FieldExpectation): number {
  return expected.runsNothingAfter ?? expected.stopsBy ?? expected.endsRunBy ?? 0;
}

export function loopEndOf(observation: Observation, expected: FieldExpectation = {}): LoopEnd {
  const stop = firstStop(observation);
  if (stop === undefined) return { ranAfterStop: 0, ranAfterEnd: 0, ended: false };
  const afterEnd = ranAfter(observation, Math.max(stop, loopOverAfter(expected)));
  return { firstStop: stop, ranAfterStop: ranAfter(observation, stop), ranAfterEnd: afterEnd, ended: afterEnd === 0 };
}

/** The call by which a scenario that expects a stop needs the first one; undefined when it expects none. */
export function stopDue(expected: FieldExpectation): number | undefined {
  const due = [expected.stopsBy, expected.runsNothingAfter === undefined ? undefined : expected.runsNothingAfter + 1, expected.endsRunBy].filter((n): n is number => n !== undefined);
  return due.length === 0 ? undefined : Math.min(...due);
}

export function judge(expected: FieldExpectation, observation: Observation): Judgement {
  const stop = firstStop(observation);
  const loop = loopEndOf(observation, expected);
  const told = firstTold(observation);
  const broken: string[] = [];
  if (expected.stopsBy !== undefined && (stop === undefined || stop > expected.stopsBy)) broken.push(`no stop by call ${expected.stopsBy}`);
  if (expected.runsNothingAfter !== undefined) {
    const ran = ranAfter(observation, expected.runsNothingAfter);
    if (ran > 0) broken.push(`${ran} call${ran === 1 ? "" : "s"} ran after call ${expected.runsNothingAfter}`);
  }
  if (expected.endsRunBy !== undefined) {
    const ended = observation.calls.findIndex((c) => c.runEndedAfter || c.fate === "not-run");
    if (ended < 0 || ended + 1 > expected.endsRunBy) broken.push(`the run was not ended by call ${expected.endsRunBy}`);
  }
  if (expected.neverStops === true && stop !== undefined) broken.push(`stopped at call ${stop}`);
  if (expected.neverFlags === true) {
    const flagged = observation.calls.findIndex((c) => c.detector !== undefined || c.fate !== "ran" || c.told || c.keptFromModel);
    if (flagged >= 0) broken.push(`flagged call ${flagged + 1}`);
  }
  const toldLate = expected.tellsModelBy !== undefined && (told === undefined || told > expected.tellsModelBy);
  if (toldLate) broken.push(`the model was not told by call ${expected.tellsModelBy}`);
  // A fixed cell whose loop went on for a while says where it was bounded, so "later calls ran"
  // never reads as a loop that goes on.
  const bounded = loop.ranAfterStop === 0 ? "" : stopDue(expected) === undefined ? "; the scenario does not ask for a stop" : loop.ranAfterEnd === 0 ? `; none after call ${loopOverAfter(expected)}, the scenario's bound` : "";
  return { status: statusOf(expected, loop, broken.length, toldLate), observed: describe(observation) + bounded, broken, loop };
}

/**
 * Fixed only when the loop ends where it was stopped. A stop in time followed by looping calls
 * that ran after the loop had to be over is "let-through", whether or not a predicate saw those
 * calls (stopsBy alone does not);
 * a late stop, a wrong stop or a model never told stays a failure.
 */
function statusOf(expected: FieldExpectation, loop: LoopEnd, brokenCount: number, toldLate: boolean): JudgedStatus {
  const due = stopDue(expected);
  const stoppedInTime = due !== undefined && loop.firstStop !== undefined && loop.firstStop <= due;
  const stopBroken = expected.stopsBy !== undefined && (loop.firstStop === undefined || loop.firstStop > expected.stopsBy);
  if (stoppedInTime && loop.ranAfterEnd > 0 && !toldLate && !stopBroken && expected.neverStops !== true && expected.neverFlags !== true) return "let-through";
  return brokenCount === 0 ? "fixed" : "failure";
}

/** One line: where it first stopped (and how), when the model was first told, what it kept back. */
export function describe(observation: Observation): string {
  const total = observation.calls.length;
  const stop = firstStop(observation);
  const parts: string[] = [];
  if (stop === undefined) parts.push(`no stop in ${total} calls`);
  else {
    const c = observation.calls[stop - 1];
    const how = c === undefined ? "" : c.fate === "blocked" ? "blocked" : c.fate === "not-run" ? "run ended before it" : "run ended after it";
    parts.push(`stops at call ${stop} (${how}${c?.detector === undefined ? "" : `, ${c.detector}`})`);
    const ran = ranAfter(observation, stop);
    if (ran > 0) parts.push(`${ran} later call${ran === 1 ? "" : "s"} ran`);
    const blocks = observation.calls.filter((x) => x.fate === "blocked").length;
    if (blocks > 1) parts.push(`${blocks} blocks`);
  }
  const told = firstTold(observation);
  const warned = observation.calls.findIndex((c) => c.told && c.fate === "ran" && !c.runEndedAfter);
  if (warned >= 0 && (stop === undefined || warned + 1 < stop)) parts.push(`first warning at call ${warned + 1}`);
  else if (told === undefined) parts.push("model never told");
  const kept = observation.calls.filter((c) => c.keptFromModel).length;
  if (kept > 0) parts.push(`${kept} warning${kept === 1 ? "" : "s"} kept from the model`);
  return parts.join("; ");
}
