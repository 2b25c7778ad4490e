// Builders for hand-written traces in the conformance tests.
import type { CallEvent, CompactionEvent, OutcomeEvent, ToolEvent } from "../models/events.js";
import type { EngineOutput, FlaggedCall, CallVerdict } from "../models/engineOutput.js";
import { runEngine, type HistoryKind } from "../models/engine.js";
import type { ResolvedConfig } from "../models/config.js";
import { configFrom } from "../models/configResolution.js";

export const BOTH: HistoryKind[] = ["incremental", "scanning"];

export interface Ids {
  runId?: string;
  callId?: string;
}

export const call = (tool: string, params: unknown, ids: Ids = {}): CallEvent => ({ type: "call", tool, params, ...ids });

import { text as textResult } from "../src/sim/behaviour.js";

export { textResult };

export const outcome = (tool: string, params: unknown, result: unknown, ids: Ids = {}): OutcomeEvent => ({
  type: "outcome",
  tool,
  params,
  result,
  ...ids,
});

export const failure = (tool: string, params: unknown, error: unknown, ids: Ids = {}): OutcomeEvent => ({
  type: "outcome",
  tool,
  params,
  error,
  ...ids,
});

export const compaction = (runId?: string): CompactionEvent => (runId === undefined ? { type: "compaction" } : { type: "compaction", runId });

/** n times: a call and its outcome with the text that `text(i)` gives. */
export function repeatCalls(n: number, tool: string, params: unknown, text: (i: number) => string, ids: Ids = {}): ToolEvent[] {
  const events: ToolEvent[] = [];
  for (let i = 0; i < n; i++) {
    events.push(call(tool, params, ids));
    events.push(outcome(tool, params, textResult(text(i)), ids));
  }
  return events;
}

export const enabled = (block: Record<string, unknown> = {}): ResolvedConfig => configFrom({ enabled: true, ...block });

export function verdicts(config: ResolvedConfig, events: ToolEvent[], history: HistoryKind): CallVerdict[] {
  return runEngine(config, events, { history }).filter((o): o is CallVerdict => o.kind === "call");
}

export function flagged(config: ResolvedConfig, events: ToolEvent[], history: HistoryKind): FlaggedCall[] {
  return verdicts(config, events, history).filter((v): v is FlaggedCall => v.verdict !== "allow");
}

export function outputs(config: ResolvedConfig, events: ToolEvent[], history: HistoryKind): EngineOutput[] {
  return runEngine(config, events, { history });
}

/** The nth call verdict (1-based), as "verdict detector count". */
export function describeCall(v: CallVerdict | undefined): string {
  if (v === undefined) return "none";
  return v.verdict === "allow" ? "allow" : `${v.verdict} ${v.detector} ${v.count}`;
}
