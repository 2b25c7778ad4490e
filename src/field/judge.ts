// The verdict of one cell: does the target still have the failure the thread reported, or does it
// do what the scenario expects? Computed from the observation alone, with a one-line account.
import type { FieldExpectation } from "./fieldScenario.js";
import type { Observation } from "./observe.js";

export type Judgement = { readonly status: "failure" | "fixed"; readonly observed: string; readonly broken: readonly string[] };

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

export function judge(expected: FieldExpectation, observation: Observation): Judgement {
  const stop = firstStop(observation);
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
  if (expected.tellsModelBy !== undefined && (told === undefined || told > expected.tellsModelBy)) broken.push(`the model was not told by call ${expected.tellsModelBy}`);
  return { status: broken.length === 0 ? "fixed" : "failure", observed: describe(observation), broken };
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
