// Shared pieces of the laws: the generated input (a config block and a trace), its scenario
// draft, and readings of the engine's outputs.
import fc from "fast-check";
import type { CallVerdict, EngineOutput } from "../../models/engineOutput.js";
import type { ToolEvent } from "../../models/events.js";
import { configBlockArbitrary, type ConfigArbitraryOptions, type LoopDetectionBlock } from "../../src/arbitraries/configArbitrary.js";
import { traceArbitrary, type TraceArbitraryOptions } from "../../src/arbitraries/traceArbitrary.js";
import type { Coverage } from "./coverage.js";

export interface ConfiguredTrace {
  readonly block: LoopDetectionBlock;
  readonly events: ToolEvent[];
}

export function configuredTrace(config: ConfigArbitraryOptions = {}, trace: TraceArbitraryOptions = {}): fc.Arbitrary<ConfiguredTrace> {
  return fc.record({ block: configBlockArbitrary(config), events: traceArbitrary(trace) });
}

export function draft(value: ConfiguredTrace, covers: readonly string[], description: string) {
  return { description, covers, config: { tools: { loopDetection: value.block } }, events: value.events };
}

export function callsOf(outputs: readonly EngineOutput<string, string>[]): CallVerdict<string>[] {
  return outputs.filter((o): o is CallVerdict<string> => o.kind === "call");
}

export const SEVERITY = { allow: 0, warning: 1, critical: 2 } as const;

export function tagOutputs(coverage: Coverage, outputs: readonly EngineOutput<string, string>[]): void {
  for (const o of outputs) {
    if (o.kind === "call" && o.verdict !== "allow") {
      coverage.hit(`${o.detector}:${o.verdict}`);
      if (!o.emitted) coverage.hit("suppressed");
    } else if (o.kind === "abort") coverage.hit("abort");
    else if (o.kind === "ignored") coverage.hit("ignored");
    else if (o.kind === "outcome" && o.vetoed) coverage.hit("vetoed");
  }
}

/** Verdicts by input index, for comparing two runs of the same trace. */
export function verdictsByIndex(outputs: readonly EngineOutput<string, string>[]): Map<number, CallVerdict<string>> {
  const map = new Map<number, CallVerdict<string>>();
  for (const v of callsOf(outputs)) map.set(v.index, v);
  return map;
}

export function describeVerdict(v: CallVerdict<string> | undefined): string {
  if (v === undefined) return "ignored";
  return v.verdict === "allow" ? "allow" : `${v.verdict} ${v.detector} ${v.count}`;
}

/**
 * Known anomaly A1 (README): a call blocked under one config (or trace) is not recorded, while
 * under the other it runs and is recorded, so every later count can differ, either way. Returns
 * the earliest call before `before` whose block status differs between the two runs.
 */
export function blockStatusDivergesBefore(before: number, a: Map<number, CallVerdict<string>>, b: Map<number, CallVerdict<string>>): number | undefined {
  let earliest: number | undefined;
  for (const [index, v] of a) {
    if (index >= before || (earliest !== undefined && index >= earliest)) continue;
    const w = b.get(index);
    if (w !== undefined && (v.verdict === "critical") !== (w.verdict === "critical")) earliest = index;
  }
  return earliest;
}

/** D2 row order: the row of each detector's warning and of its block. */
const ROW_OF_WARNING: Record<string, number> = { known_poll_no_progress: 4, ping_pong: 6, generic_repeat: 8 };
const ROW_OF_BLOCK: Record<string, number> = { unknown_tool_repeat: 1, global_circuit_breaker: 2, known_poll_no_progress: 3, ping_pong: 5, generic_repeat: 7 };

/**
 * Known anomaly A5 (README): first match wins, so a warning from an earlier D2 row hides a block
 * of a later row. True when `was` is such a warning and `now` is such a block.
 */
export function warningMasksBlock(was: CallVerdict<string>, now: CallVerdict<string>): boolean {
  if (was.verdict !== "warning" || now.verdict !== "critical") return false;
  return (ROW_OF_BLOCK[now.detector] ?? 0) > (ROW_OF_WARNING[was.detector] ?? 9);
}
