// A field trace, written compactly (repeats, groups, parallel calls, compactions, new prompts),
// expanded into loopsim's event stream. The expansion is pure: the same file gives the same events.
import type { ToolEvent } from "../../models/events.js";
import { isPlainObject } from "../../models/outcomeHash.js";
import type { FieldCall, FieldStep } from "./fieldScenario.js";

export interface ExpandedCall {
  /** 1-based, in trace order. */
  readonly number: number;
  readonly run: string;
  /** The model response it came in (parallel calls share one). */
  readonly step: string;
  readonly tool: string;
  readonly args: unknown;
  readonly result: unknown;
  readonly error: unknown;
  readonly outcome: boolean;
  /** Index of its call event in `events`. */
  readonly callIndex: number;
  /** Index of its outcome event, or -1 when the guard never sees one. */
  readonly outcomeIndex: number;
}

export interface ExpandedTrace {
  readonly events: readonly ToolEvent[];
  readonly calls: readonly ExpandedCall[];
  /** The runs (one per prompt), in order; each holds its calls' numbers. */
  readonly runs: readonly { readonly run: string; readonly calls: readonly number[] }[];
  /** After which call number each compaction came (0: before the first call). */
  readonly compactionsAfter: readonly number[];
}

/** Replaces `{i}` in every string of a value (keys too) by the repeat index. */
export function substitute(value: unknown, i: number): unknown {
  if (typeof value === "string") return value.split("{i}").join(String(i));
  if (Array.isArray(value)) return value.map((v) => substitute(v, i));
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [substitute(k, i) as string, substitute(v, i)]));
  return value;
}

export function expandTrace(steps: readonly FieldStep[]): ExpandedTrace {
  const events: ToolEvent[] = [];
  const calls: ExpandedCall[] = [];
  const runs: { run: string; calls: number[] }[] = [{ run: "run-1", calls: [] }];
  const compactionsAfter: number[] = [];
  let stepCount = 0;
  const currentRun = () => runs[runs.length - 1] as { run: string; calls: number[] };

  const emitResponse = (group: readonly FieldCall[], i: number) => {
    const step = `s${++stepCount}`;
    const run = currentRun();
    const made = group.map((raw) => {
      const call = substitute(raw, i) as FieldCall;
      const number = calls.length + 1;
      const callIndex = events.length;
      events.push({ type: "call", runId: run.run, callId: `call-${number}`, tool: call.tool, ...(call.args === undefined ? {} : { params: call.args }), step });
      const entry = { number, run: run.run, step, tool: call.tool, args: call.args, result: call.result, error: call.error, outcome: call.outcome !== false, callIndex, outcomeIndex: -1 };
      calls.push(entry);
      run.calls.push(number);
      return entry;
    });
    // A response's calls are all proposed before any of them runs; their outcomes follow in order.
    for (const entry of made) {
      if (!entry.outcome) continue;
      calls[entry.number - 1] = { ...entry, outcomeIndex: events.length };
      const outcome: ToolEvent = entry.error !== undefined
        ? { type: "outcome", runId: entry.run, callId: `call-${entry.number}`, tool: entry.tool, ...(entry.args === undefined ? {} : { params: entry.args }), error: entry.error }
        : { type: "outcome", runId: entry.run, callId: `call-${entry.number}`, tool: entry.tool, ...(entry.args === undefined ? {} : { params: entry.args }), ...(entry.result === undefined ? {} : { result: entry.result }) };
      events.push(outcome);
    }
  };

  const walk = (items: readonly FieldStep[], inherited: number) => {
    for (const item of items) {
      if ("compaction" in item) {
        events.push({ type: "compaction", runId: currentRun().run });
        compactionsAfter.push(calls.length);
        continue;
      }
      if ("prompt" in item) {
        if (currentRun().calls.length > 0 || runs.length > 1) runs.push({ run: `run-${runs.length + 1}`, calls: [] });
        continue;
      }
      const repeat = item.repeat ?? 1;
      for (let r = 1; r <= repeat; r++) {
        const i = item.repeat === undefined ? inherited : r;
        if ("group" in item) walk(item.group, i);
        else if ("parallel" in item) emitResponse(item.parallel, i);
        else emitResponse([item], i);
      }
    }
  };
  walk(steps, 1);
  return { events, calls, runs: runs.filter((r) => r.calls.length > 0), compactionsAfter };
}
