// The statistics calibration compares, computed the same way on a recorded session's runs and on
// a simulated agent's trace: what a run looks like as a loop guard sees it.
import { outcomeFailed } from "../import/failure.js";
import { digestNamed } from "../../models/digest.js";
import type { ToolEvent } from "../../models/events.js";
import { normalizeRunId, normalizeToolName } from "../../models/normalize.js";
import { hashOutcome } from "../../models/outcomeHash.js";
import { stableSerialize } from "../../models/stableSerialize.js";
import { eventTokens } from "../sim/tokens.js";

export const STATISTICS = {
  callsPerRun: "tool calls in the run",
  distinctTools: "distinct tools the run calls",
  repeatedArgsShare: "share of the run's calls whose tool and args appeared earlier in the run",
  longestSameArgsStreak: "longest streak of identical calls (tool and args) in a row",
  identicalResultRepeats: "most calls in the run sharing one tool, args and result (SPEC H2's progress value): how often the same thing came back",
  pingPongShare: "share of calls that continue an A,B,A,B alternation (same call as two before, not the one before)",
  errorRate: "share of the run's outcomes that failed: an error, a non-zero exit code or a timeout (the importers' definition)",
  resultTokens: "median size of the run's results and errors in tokens (about 4 characters a token, the simulator's token model)",
} as const;
export type Statistic = keyof typeof STATISTICS;
export const STATISTIC_NAMES = Object.keys(STATISTICS) as Statistic[];

export type RunStats = Readonly<Record<Statistic, number>>;

const digest = digestNamed("walk128");

/** One entry per run of the events (runs with no call are left out). */
export function runStats(events: readonly ToolEvent[]): RunStats[] {
  const byRun = new Map<string, ToolEvent[]>();
  for (const e of events) {
    const run = normalizeRunId(e.runId);
    const list = byRun.get(run) ?? [];
    list.push(e);
    byRun.set(run, list);
  }
  const out: RunStats[] = [];
  for (const list of byRun.values()) {
    const stats = statsOf(list);
    if (stats !== undefined) out.push(stats);
  }
  return out;
}

function statsOf(events: readonly ToolEvent[]): RunStats | undefined {
  const keys: string[] = [];
  const tools = new Set<string>();
  const seen = new Set<string>();
  let repeated = 0;
  let streak = 0;
  let longest = 0;
  let pingPong = 0;
  let outcomes = 0;
  let errors = 0;
  const resultSizes: number[] = [];
  const triples = new Map<string, number>();
  for (const e of events) {
    if (e.type !== "call" && e.type !== "outcome") continue;
    const tool = normalizeToolName(e.tool);
    const key = `${tool}\u0000${stableSerialize(e.params)}`;
    if (e.type === "call") {
      tools.add(tool);
      if (seen.has(key)) repeated++;
      seen.add(key);
      streak = keys.at(-1) === key ? streak + 1 : 1;
      longest = Math.max(longest, streak);
      if (keys.length >= 2 && keys[keys.length - 2] === key && keys[keys.length - 1] !== key) pingPong++;
      keys.push(key);
      continue;
    }
    outcomes++;
    const hasError = "error" in e && e.error !== undefined;
    // Failed by the importers' one definition: an error, a non-zero exit code, or a timeout.
    if (outcomeFailed(e)) errors++;
    resultSizes.push(eventTokens(e));
    const result = hashOutcome({ tool, params: e.params, result: e.result, error: e.error, hasError }, digest).resultHash;
    if (result === undefined) continue;
    const triple = `${key}\u0000${result}`;
    triples.set(triple, (triples.get(triple) ?? 0) + 1);
  }
  const calls = keys.length;
  if (calls === 0) return undefined;
  return {
    callsPerRun: calls,
    distinctTools: tools.size,
    repeatedArgsShare: repeated / calls,
    longestSameArgsStreak: longest,
    identicalResultRepeats: Math.max(0, ...triples.values()),
    pingPongShare: pingPong / calls,
    errorRate: outcomes === 0 ? 0 : errors / outcomes,
    resultTokens: medianOf(resultSizes),
  };
}

/** The lower median (a value that occurred); 0 for none. */
function medianOf(values: number[]): number {
  if (values.length === 0) return 0;
  values.sort((a, b) => a - b);
  return values[Math.floor((values.length - 1) / 2)] as number;
}

/** Kolmogorov-Smirnov distance: the largest gap between two empirical distribution functions. */
export function ksDistance(a: readonly number[], b: readonly number[]): number {
  if (a.length === 0 || b.length === 0) return 1;
  const xs = [...a].sort((p, q) => p - q);
  const ys = [...b].sort((p, q) => p - q);
  let i = 0;
  let j = 0;
  let gap = 0;
  while (i < xs.length && j < ys.length) {
    const x = Math.min(xs[i] as number, ys[j] as number);
    while (i < xs.length && (xs[i] as number) <= x) i++;
    while (j < ys.length && (ys[j] as number) <= x) j++;
    gap = Math.max(gap, Math.abs(i / xs.length - j / ys.length));
  }
  return Math.round(gap * 1000) / 1000;
}
