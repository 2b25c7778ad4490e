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
 */
export function callUnits(events: readonly ToolEvent[]): number[][] {
  const units: number[][] = [];
  const open = new Map<string, number[][]>();
  events.forEach((event, index) => {
    if (event.type !== "call" && event.type !== "outcome") {
      units.push([index]);
      return;
    }
    const key = answerKey(event);
    if (event.type === "call") {
      const unit = [index];
      units.push(unit);
      const queue = open.get(key);
      if (queue === undefined) open.set(key, [unit]);
      else queue.push(unit);
      return;
    }
    const unit = open.get(key)?.shift();
    if (unit === undefined) units.push([index]);
    else unit.push(index);
  });
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
