// The numbers of one config over the population. Every metric is defined in METRIC_DEFINITIONS,
// which the report prints verbatim. Shares are fractions rounded to 4 places; quantiles are
// nearest-rank, so they are always values that occurred.
import { mean } from "simple-statistics";
import type { SimulationSummary } from "../sim/simulate.js";
import { bootstrap, wilson, type Interval } from "../stats/interval.js";
import { nearestRank } from "../stats/nearestRank.js";

export const METRIC_DEFINITIONS: Readonly<Record<string, string>> = {
  caughtShare: "stuck agents whose loop was stopped by a block or a guard abort, over all stuck agents",
  escapedShare: "stuck agents that changed approach after an emitted warning, before any block or abort: stopped by the warning, shown apart so that early warnings do not look like missed catches (an agent that heeds a warning is never blocked)",
  wastedCalls: "loop calls a stuck agent ran before the first block or abort (all of its loop calls when nothing stopped it); median and p90 are nearest-rank",
  wastedTokens: "tokens (call plus result, about 4 characters a token) of those wasted loop calls",
  warnedShare: "progressing agents that received at least one emitted warning",
  wronglyBlockedShare: "progressing agents with at least one block on a call that was not part of a loop (false positives)",
  stoppedWronglyShare: "progressing agents that a guard blocked or whose run it ended on a call outside a loop (blocks and stops both count; a stop inside a labelled stuck stretch is a catch, not work stopped)",
  familyStoppedWrongly: "per family: agents blocked or stopped on a call outside a loop; for recovering families also any guard abort (a stuck agent's abort inside its loop, or a progressing session's inside a labelled stuck stretch, is a catch, not an error)",
  falseAbortShare: "recovering agents (they change approach after the compaction) whose run the guard aborted",
  warningsPer100Calls: "emitted warnings per 100 attempted calls, over every agent",
  falsePositiveRate: "progressing and recovering agents that were wrongly blocked or aborted, over all of them",
};

export interface Spread {
  readonly median: number;
  readonly p90: number;
  readonly mean: number;
}

export interface FamilyNumbers {
  readonly agents: number;
  readonly caughtShare: number;
  readonly warnedShare: number;
  readonly wronglyBlockedShare: number;
  readonly medianWastedTokens: number;
  readonly medianWastedCalls: number;
}

export interface ConfigMetrics {
  readonly stuck: {
    readonly agents: number;
    readonly caughtShare: number;
    readonly escapedShare: number;
    readonly wastedCalls: Spread;
    readonly wastedTokens: Spread;
  };
  readonly progressing: { readonly agents: number; readonly warnedShare: number; readonly wronglyBlockedShare: number; readonly stoppedWronglyShare: number };
  readonly recovering: { readonly agents: number; readonly falseAbortShare: number };
  readonly overall: { readonly agents: number; readonly calls: number; readonly emittedWarnings: number; readonly warningsPer100Calls: number; readonly falsePositiveRate: number };
  readonly byFamily: Readonly<Record<string, FamilyNumbers>>;
  /** Wasted tokens of every stuck agent, in agent order: the distribution chart's data. */
  readonly wastedTokensByAgent: readonly number[];
  /** 95% intervals with their sample sizes: Wilson for shares, a seeded bootstrap for the rest. */
  readonly intervals: MetricIntervals;
}

export interface MetricIntervals {
  readonly caughtShare: Interval;
  readonly escapedShare: Interval;
  readonly wastedTokensMean: Interval;
  readonly wastedTokensMedian: Interval;
  readonly wastedCallsMedian: Interval;
  readonly warnedShare: Interval;
  readonly wronglyBlockedShare: Interval;
  readonly stoppedWronglyShare: Interval;
  readonly falseAbortShare: Interval;
  readonly falsePositiveRate: Interval;
}

export const round4 = (x: number): number => Math.round(x * 10_000) / 10_000;
export const share = (n: number, d: number): number => (d === 0 ? 0 : round4(n / d));

// nearestRank lives in its own file, without this file's packages: `loops` reads only it (issue 35, ninth pass).
export { nearestRank } from "../stats/nearestRank.js";

function spread(values: readonly number[]): Spread {
  const mean = values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
  return { median: nearestRank(values, 0.5), p90: nearestRank(values, 0.9), mean: Math.round(mean * 10) / 10 };
}

const wronglyBlocked = (s: SimulationSummary) => s.falseBlocks > 0;
/**
 * Work stopped that should not have been: a block or stop on a call outside a loop, or any abort of
 * a recovering agent (it would have changed approach by itself, so even a stop inside its loop
 * cuts work that was about to go well). A progressing agent's stop inside a labelled stuck
 * stretch (a recorded session with its real loops marked, `--loops real`) is a catch only: its
 * stuck agent counts the catch, and counting it here too would charge the guard twice.
 */
const falselyStopped = (s: SimulationSummary) => s.falseBlocks > 0 || s.falseAborts > 0 || (s.label === "recovering" && s.aborts > 0);

const median = (xs: readonly number[]): number => nearestRank(xs, 0.5);
const meanOf = (xs: readonly number[]): number => (xs.length === 0 ? 0 : mean([...xs]));

/** `seed` names the config (its index): each config's bootstrap has its own, fixed stream. */
/** `resample` false leaves the bootstrap out (its intervals are the point alone): for the many metrics a reaction grid only ranks by. */
export function computeMetrics(summaries: readonly SimulationSummary[], seed = "metrics", resample = true): ConfigMetrics {
  const boot = (values: readonly number[], statistic: (sample: readonly number[]) => number, name: string): Interval => {
    if (resample) return bootstrap(values, statistic, `${seed}/${name}`);
    const v = values.length === 0 ? 0 : Math.round(statistic(values) * 10) / 10;
    return { low: v, high: v, n: values.length };
  };
  const stuck = summaries.filter((s) => s.label === "stuck");
  const progressing = summaries.filter((s) => s.label === "progressing");
  const recovering = summaries.filter((s) => s.label === "recovering");
  const legit = [...progressing, ...recovering];
  const calls = summaries.reduce((sum, s) => sum + s.attempts, 0);
  const emitted = summaries.reduce((sum, s) => sum + s.emittedWarnings, 0);
  const byFamily: Record<string, FamilyNumbers> = {};
  for (const family of [...new Set(summaries.map((s) => s.family))]) {
    const mine = summaries.filter((s) => s.family === family);
    byFamily[family] = {
      agents: mine.length,
      caughtShare: share(mine.filter((s) => s.caught).length, mine.length),
      warnedShare: share(mine.filter((s) => s.emittedWarnings > 0).length, mine.length),
      wronglyBlockedShare: share(mine.filter(falselyStopped).length, mine.length),
      medianWastedTokens: nearestRank(mine.map((s) => s.wastedTokens), 0.5),
      medianWastedCalls: nearestRank(mine.map((s) => s.wastedCalls), 0.5),
    };
  }
  return {
    stuck: {
      agents: stuck.length,
      caughtShare: share(stuck.filter((s) => s.caught).length, stuck.length),
      escapedShare: share(stuck.filter((s) => s.escapedAfterWarning).length, stuck.length),
      wastedCalls: spread(stuck.map((s) => s.wastedCalls)),
      wastedTokens: spread(stuck.map((s) => s.wastedTokens)),
    },
    progressing: {
      agents: progressing.length,
      warnedShare: share(progressing.filter((s) => s.emittedWarnings > 0).length, progressing.length),
      wronglyBlockedShare: share(progressing.filter(wronglyBlocked).length, progressing.length),
      stoppedWronglyShare: share(progressing.filter(falselyStopped).length, progressing.length),
    },
    recovering: { agents: recovering.length, falseAbortShare: share(recovering.filter((s) => s.aborts > 0).length, recovering.length) },
    overall: {
      agents: summaries.length,
      calls,
      emittedWarnings: emitted,
      warningsPer100Calls: calls === 0 ? 0 : Math.round((emitted * 100 * 100) / calls) / 100,
      falsePositiveRate: share(legit.filter(falselyStopped).length, legit.length),
    },
    byFamily,
    wastedTokensByAgent: stuck.map((s) => s.wastedTokens),
    intervals: {
      caughtShare: wilson(stuck.filter((s) => s.caught).length, stuck.length),
      escapedShare: wilson(stuck.filter((s) => s.escapedAfterWarning).length, stuck.length),
      wastedTokensMean: boot(stuck.map((s) => s.wastedTokens), meanOf, "wastedTokensMean"),
      wastedTokensMedian: boot(stuck.map((s) => s.wastedTokens), median, "wastedTokensMedian"),
      wastedCallsMedian: boot(stuck.map((s) => s.wastedCalls), median, "wastedCallsMedian"),
      warnedShare: wilson(progressing.filter((s) => s.emittedWarnings > 0).length, progressing.length),
      wronglyBlockedShare: wilson(progressing.filter(wronglyBlocked).length, progressing.length),
      stoppedWronglyShare: wilson(progressing.filter(falselyStopped).length, progressing.length),
      falseAbortShare: wilson(recovering.filter((s) => s.aborts > 0).length, recovering.length),
      falsePositiveRate: wilson(legit.filter(falselyStopped).length, legit.length),
    },
  };
}
