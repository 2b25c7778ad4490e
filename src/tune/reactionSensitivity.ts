// Which tuning picks survive the reaction model. The goals pick again at every point of the
// reaction grid (src/grounded/reactionGrid.ts), from the grounded numbers of every config at that
// point; a pick holds when it is the same config at every point, and otherwise the report says
// where it flips. Point 0 is the stated model, whose picks are the report's own (on the grounded
// evidence: the recommendations when real sessions are the population, the grounded picks of
// "Where they disagree" when they sit beside a simulated one).
import type { ConfigRow } from "../evaluation/evaluate.js";
import type { ConfigMetrics } from "../evaluation/metrics.js";
import type { GroundedSummary } from "../grounded/groundedPopulation.js";
import type { GridCost, PointNumbers, ReactionGridSummary } from "../grounded/reactionGrid.js";
import { GOALS, pickAll, type Goal } from "./recommend.js";


export interface PickSensitivity {
  readonly goal: Goal;
  readonly stated: { readonly index: number; readonly label: string };
  /** The same pick at every grid point. */
  readonly holds: boolean;
  /** The pick at each grid point (not point 0), heed-major as in the grid. */
  readonly byPoint: readonly number[];
  /** The points whose pick differs, with it. */
  readonly flips: readonly { readonly heed: number; readonly skip: number; readonly index: number; readonly label: string }[];
}

export interface TuneReactionSensitivity {
  readonly grid: ReactionGridSummary;
  /** Where the picks come from. */
  readonly evidence: string;
  readonly picks: readonly PickSensitivity[];
  readonly cost: GridCost;
}

/**
 * Just the fields the goals read (recommend.ts: caught, good work stopped, false aborts, mean
 * waste, progressing warned), from a point's numbers; everything else is empty. Only for picking.
 */
export function pickingMetrics(n: PointNumbers): ConfigMetrics {
  const at = (i: number) => n[i] as number;
  const none = { low: 0, high: 0, n: 0 };
  return {
    stuck: { agents: 0, caughtShare: at(0), escapedShare: 0, wastedCalls: { mean: 0, median: at(7), p90: 0 }, wastedTokens: { mean: at(3), median: at(6), p90: 0 } },
    progressing: { agents: 0, warnedShare: at(4), wronglyBlockedShare: 0, stoppedWronglyShare: at(5) },
    recovering: { agents: 0, falseAbortShare: at(2) },
    overall: { agents: 0, calls: 0, emittedWarnings: 0, warningsPer100Calls: 0, falsePositiveRate: at(1) },
    byFamily: {},
    wastedTokensByAgent: [],
    intervals: { caughtShare: none, escapedShare: none, wastedTokensMean: none, wastedTokensMedian: none, wastedCallsMedian: none, warnedShare: none, wronglyBlockedShare: none, stoppedWronglyShare: none, falseAbortShare: none, falsePositiveRate: none },
  };
}

/** The goals' picks at grid point `p`: primary keeps the recorded-sessions numbers that good work stopped adds. */
export function picksAt(rows: readonly ConfigRow[], p: number, primary: boolean): Record<Goal, number> {
  const atPoint = rows.flatMap((r) => (r.reactionGrid === undefined ? [] : [{ index: r.index, label: r.label, block: r.block, metrics: pickingMetrics(r.reactionGrid.points[p] as PointNumbers), ...(primary && r.sessions !== undefined ? { sessions: r.sessions } : {}) }]));
  const picks = pickAll(atPoint);
  return Object.fromEntries(GOALS.map((g) => [g, picks[g].index])) as Record<Goal, number>;
}

export function tuneReactionSensitivity(rows: readonly ConfigRow[], grounded: GroundedSummary | undefined): TuneReactionSensitivity | undefined {
  const grid = grounded?.reactionGrid;
  if (grid === undefined || grounded === undefined || rows.some((r) => r.reactionGrid === undefined)) return undefined;
  const labelOf = (index: number) => (index === 0 ? "OpenClaw defaults" : (rows.find((r) => r.index === index)?.label ?? String(index)));
  const perPoint = grid.points.map((_, p) => picksAt(rows, p, grounded.primary));
  const stated = perPoint[0] as Record<Goal, number>;
  const picks = GOALS.map((goal): PickSensitivity => {
    const flips = grid.points.flatMap((pt, p) => (p === 0 || (perPoint[p] as Record<Goal, number>)[goal] === stated[goal] ? [] : [{ heed: pt.heed, skip: pt.skip, index: (perPoint[p] as Record<Goal, number>)[goal], label: labelOf((perPoint[p] as Record<Goal, number>)[goal]) }]));
    return { goal, stated: { index: stated[goal], label: labelOf(stated[goal]) }, holds: flips.length === 0, byPoint: perPoint.slice(1).map((picked) => picked[goal]), flips };
  });
  const agents = Object.values(grounded.agents).reduce((a, b) => a + b, 0);
  const extraRuns = rows.reduce((sum, r) => sum + (r.reactionGrid?.runs.made ?? 0), 0) - agents * rows.length;
  return {
    grid,
    evidence: grounded.primary ? "the real sessions (the recommendations above)" : "the real sessions alone (the grounded picks of \"Where they disagree\"; the recommendations above rest on the simulated agents, which no reaction grid touches)",
    picks,
    cost: { ordinaryRuns: agents * rows.length, extraRuns, naiveExtraRuns: agents * rows.length * (grid.points.length - 1) },
  };
}

/** The rows as the report keeps them: their grid numbers are summed up in the sensitivity section. */
export function withoutRowGrids(rows: readonly ConfigRow[]): ConfigRow[] {
  return rows.map((r) => {
    if (r.reactionGrid === undefined) return r;
    const { reactionGrid: _dropped, ...rest } = r;
    return rest;
  });
}
