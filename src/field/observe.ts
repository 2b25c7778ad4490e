// What a target did with each call of a field trace, in one vocabulary for every kind of target:
// in-process targets give loopsim outputs, driven CLIs give call fates; both become this.
import type { TargetOutput } from "../targets/target.js";
import type { ExpandedTrace } from "./expand.js";

export type Fate = "ran" | "blocked" | "not-run";

export interface ObservedCall {
  readonly fate: Fate;
  /** The model was told about a loop with this call: a warning it sees, or a block's message (a
   * run that just ends tells the model nothing). */
  readonly told: boolean;
  /** A warning the guard produced but kept from the model (OpenClaw's caller emits by buckets). */
  readonly keptFromModel: boolean;
  /** The guard's name for what fired, when something did. */
  readonly detector?: string;
  /** The run ended right after this call (its outcome tripped a stop). */
  readonly runEndedAfter: boolean;
}

export interface Observation {
  readonly calls: readonly ObservedCall[];
}

/** Turns a target's outputs for the expanded trace into one observed call per call. */
export function observeOutputs(trace: ExpandedTrace, outputs: readonly TargetOutput[]): Observation {
  const byIndex = new Map<number, TargetOutput[]>();
  for (const o of outputs) byIndex.set(o.index, [...(byIndex.get(o.index) ?? []), o]);
  // An abort is reported at an event; it ends the run after the last call at or before that event.
  const abortsAfter = new Set<number>();
  const abortDetector = new Map<number, string>();
  for (const o of outputs) {
    if (o.kind !== "abort") continue;
    const last = [...trace.calls].reverse().find((c) => c.run === o.run && c.callIndex <= o.index);
    if (last !== undefined) {
      abortsAfter.add(last.number);
      abortDetector.set(last.number, o.error);
    }
  }
  const calls = trace.calls.map((call): ObservedCall => {
    const mine = byIndex.get(call.callIndex) ?? [];
    const verdict = mine.find((o) => o.kind === "call");
    const ignored = mine.some((o) => o.kind === "ignored");
    const onOutcome = call.outcomeIndex < 0 ? [] : (byIndex.get(call.outcomeIndex) ?? []);
    // Some guards judge a call after it ran (OpenHands): their verdict comes with the outcome.
    const late = onOutcome.find((o) => o.kind === "call");
    const runEndedAfter = abortsAfter.has(call.number);
    if (ignored || verdict === undefined) return { fate: "not-run", told: false, keptFromModel: false, runEndedAfter };
    const flagged = [verdict, late].find((v) => v !== undefined && v.kind === "call" && v.verdict !== "allow");
    const detector = flagged !== undefined && flagged.kind === "call" && flagged.verdict !== "allow" ? flagged.detector : abortDetector.get(call.number);
    const blocked = verdict.kind === "call" && verdict.verdict === "critical";
    const told = flagged !== undefined && flagged.kind === "call" && flagged.verdict !== "allow" && flagged.emitted;
    const keptFromModel = flagged !== undefined && flagged.kind === "call" && flagged.verdict === "warning" && !flagged.emitted;
    return { fate: blocked ? "blocked" : "ran", told, keptFromModel, ...(detector === undefined ? {} : { detector }), runEndedAfter };
  });
  return { calls };
}
