// Comparing a target with the reference on what both model: one line per output, without hashes
// or message wording (each engine has its own), and without what the target declares it lacks.
import type { ResolvedConfig } from "../../models/config.js";
import type { ToolEvent } from "../../models/events.js";
import { REFERENCE_TARGET } from "../targets/reference.js";
import { runTarget, type Target, type TargetCapabilities, type TargetOutput } from "../targets/target.js";

export function comparableLine(o: TargetOutput, c: TargetCapabilities): string | undefined {
  const run = o.run === "" ? "-" : o.run;
  switch (o.kind) {
    case "call": {
      if (o.verdict === "allow") return `${o.index} call ${run} ${o.tool} allow`;
      const count = c.counts ? ` ${o.count}` : "";
      const emitted = c.warningPolicy && !o.emitted ? " suppressed" : "";
      return `${o.index} call ${run} ${o.tool} ${o.verdict} ${o.detector}${count}${emitted}`;
    }
    case "outcome":
      return `${o.index} outcome ${run} ${o.tool} ${o.vetoed ? "vetoed" : o.recorded ? "recorded" : "not-recorded"}`;
    case "compaction":
      return c.guard ? `${o.index} compaction ${run} ${o.armed ? "armed" : "off"}` : undefined;
    case "abort":
      return `${o.index} ABORT ${run} ${o.tool}${c.counts ? ` ${o.count}` : ""}`;
    case "ignored":
      return `${o.index} ${o.eventType} ${run} ignored`;
    case "text":
      return `${o.index} ${o.textType} ${run} ${o.verdict} ${o.detector}${c.counts ? ` ${o.count}` : ""}`;
  }
}

export function comparable(outputs: readonly TargetOutput[], c: TargetCapabilities): string[] {
  const out: string[] = [];
  for (const o of outputs) {
    const line = comparableLine(o, c);
    if (line !== undefined) out.push(line);
  }
  return out;
}

export interface FirstDifference {
  readonly position: number;
  readonly reference: string | undefined;
  readonly target: string | undefined;
}

export function firstDifference(reference: readonly string[], target: readonly string[]): FirstDifference | undefined {
  const n = Math.max(reference.length, target.length);
  for (let i = 0; i < n; i++) {
    if (reference[i] !== target[i]) return { position: i, reference: reference[i], target: target[i] };
  }
  return undefined;
}

/** The first line where the target departs from the reference; a target that throws departs there. */
export function differenceOf(target: Target, config: ResolvedConfig, events: readonly ToolEvent[]): FirstDifference | undefined {
  const c = target.capabilities;
  const reference = comparable(runTarget(REFERENCE_TARGET, config, events), c);
  let mine: string[];
  try {
    mine = comparable(runTarget(target, config, events), c);
  } catch (error) {
    return { position: 0, reference: reference[0], target: `0 threw ${(error as Error).message ?? String(error)}` };
  }
  return firstDifference(reference, mine);
}
