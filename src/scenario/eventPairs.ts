// Cutting a recording down without splitting a call from its outcome. A runtime emits an outcome
// only for a call it made, so a minimal counterexample that kept an outcome and dropped its call
// would show something no runtime can do. The events are grouped into units (a call with the
// outcomes that answer it; anything else alone), and delta debugging removes whole units.
import type { ToolEvent } from "../../models/events.js";
import { answerKey } from "../import/orphans.js";
import { minimizeEvents } from "./minimize.js";

/**
 * Each unit is a list of event positions, in order. An outcome answers the oldest open call with
 * its key (answerKey: the run and the callId, or else the tool), as orphan counting pairs them.
 * A call answered by the very next event, its outcome by the same run and callId while no other
 * call is open, is paired without its key: the plain computation would put the call alone in its
 * queue and take it straight out again (most calls of a recorded session are such a pair, and
 * building two keys for each was about 2% of a `loops` run; test/loopsFastPaths.test.ts holds
 * this to the pairing by key alone).
 */
export function callUnits(events: readonly ToolEvent[]): number[][] {
  const units: number[][] = [];
  const open = new Map<string, number[][]>();
  /** Calls in `open` not answered yet: while none is, a call's outcome right after it can be its only answer. */
  let waiting = 0;
  for (let index = 0; index < events.length; index++) {
    if (!(index in events)) continue; // a hole, passed over as forEach passes it over
    const event = events[index] as ToolEvent;
    if (event.type !== "call" && event.type !== "outcome") {
      units.push([index]);
      continue;
    }
    if (event.type === "call") {
      const next = events[index + 1];
      if (waiting === 0 && next?.type === "outcome" && typeof event.callId === "string" && next.callId === event.callId && next.runId === event.runId) {
        units.push([index, index + 1]);
        index++;
        continue;
      }
      const key = answerKey(event);
      const unit = [index];
      units.push(unit);
      const queue = open.get(key);
      if (queue === undefined) open.set(key, [unit]);
      else queue.push(unit);
      waiting++;
      continue;
    }
    const unit = open.get(answerKey(event))?.shift();
    if (unit === undefined) units.push([index]);
    else {
      unit.push(index);
      waiting--;
    }
  }
  return units;
}

/** The smallest sub-recording, in order and made of whole units, for which `holds` stays true. */
export function minimizeKeepingPairs(events: readonly ToolEvent[], holds: (candidate: readonly ToolEvent[]) => boolean, options: { maxTests?: number } = {}): { kept: ToolEvent[]; tests: number } {
  const flatten = (units: readonly (readonly number[])[]): ToolEvent[] =>
    units
      .flat()
      .sort((a, b) => a - b)
      .map((i) => events[i] as ToolEvent);
  const { kept, tests } = minimizeEvents(callUnits(events), (units) => holds(flatten(units)), options);
  return { kept: flatten(kept), tests };
}
