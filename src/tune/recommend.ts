// From rows to advice. Each named goal picks from the Pareto front of the four things an operator
// weighs: stuck agents caught (more is better), good work stopped, recovering agents falsely
// aborted and wasted tokens (less is better), so no pick is ever beaten on all four by another
// row. Ties go to less good work stopped, then fewer false aborts, then less waste. Each pick comes
// with its numbers and their 95% intervals, its trade-off against OpenClaw's defaults (saying
// whether the intervals overlap), the nearest alternatives on the front and what each trades, the
// stuck families it still misses, and a snippet without the fields the guard ignores.
// (The chart's two-axis front, wasted tokens against the false-positive rate, is `paretoFront`.)
import JSON5 from "json5";
import type { ConfigRow } from "../evaluation/evaluate.js";
import { round4 } from "../evaluation/metrics.js";
import { findFamily } from "../sim/families.js";
import { percentOneDecimal } from "../format/percent.js";
import { overlaps, percentWithInterval, type Interval } from "../stats/interval.js";

export type Goal = "strict" | "balanced" | "lenient";
export const GOALS: readonly Goal[] = ["strict", "balanced", "lenient"];

const FRONT = "from the Pareto front of (stuck caught, good work stopped, false aborts, wasted tokens)";
const TIES = "ties go to less good work stopped, then fewer false aborts, then less waste";

export const GOAL_RULES: Readonly<Record<Goal, string>> = {
  lenient: `the lowest share of good work stopped (simulated false-positive rate, plus the share of recorded sessions stopped when sessions were given), then fewer false aborts, then less waste, then more stuck agents caught; picked ${FRONT}`,
  strict: `the highest share of stuck agents caught among configs that stop at most 10% of good work (as for lenient); ${TIES}; picked ${FRONT}`,
  balanced: `among configs that catch at least as many stuck agents as lenient and at most as many as strict, and stop between lenient's and strict's share of good work, the lowest score = mean wasted tokens / the largest mean in the sweep + 4 x good work stopped + 0.25 x share of progressing agents warned; ${TIES}; picked ${FRONT}. So lenient <= balanced <= strict on both catches and good work stopped`,
};

export interface Recommendation {
  readonly goal: Goal;
  readonly index: number;
  readonly label: string;
  readonly rule: string;
  readonly numbers: {
    readonly caughtShare: number;
    readonly meanWastedTokens: number;
    readonly medianWastedTokens: number;
    readonly p90WastedTokens: number;
    readonly falsePositiveRate: number;
    /** Recorded sessions the config would have stopped (resolved ones when labelled); absent without sessions. */
    readonly sessionsStoppedShare?: number;
    readonly warnedShare: number;
    readonly warningsPer100Calls: number;
  };
  /** 95% intervals of the numbers above, with their sample sizes. */
  readonly intervals: { readonly caughtShare: Interval; readonly meanWastedTokens: Interval; readonly falsePositiveRate: Interval; readonly falseAbortShare: Interval };
  readonly tradeOff: string;
  /** Which population each number rests on. */
  readonly evidence: string;
  /** The closest other configs on the front, and what each trades against this pick. */
  readonly alternatives: readonly { readonly index: number; readonly label: string; readonly trades: string }[];
  /** Fields of the config left out of the snippet because the guard ignores them. */
  readonly ignoredFields: readonly string[];
  readonly stillMissed: readonly { readonly family: string; readonly caughtShare: number }[];
  readonly snippet: string;
}

const waste = (r: ConfigRow) => r.metrics.stuck.wastedTokens.mean;
const fp = (r: ConfigRow) => r.metrics.overall.falsePositiveRate;

/**
 * Recorded work a config would have stopped: with labels, the resolved sessions stopped (the
 * work was good); without, every session stopped (a corpus of real work is mostly good work).
 */
export function sessionsStopped(r: ConfigRow): number | undefined {
  const s = r.sessions;
  if (s === undefined) return undefined;
  const resolved = s.byLabel.resolved;
  if (resolved !== undefined && resolved.sessions > 0) return round4(resolved.stopped / resolved.sessions);
  return s.stoppedShare;
}

/** Good work stopped, on both populations. */
export const goodStopped = (r: ConfigRow) => fp(r) + (sessionsStopped(r) ?? 0);
const caughtOf = (r: ConfigRow) => r.metrics.stuck.caughtShare;
const falseAborts = (r: ConfigRow) => r.metrics.recovering.falseAbortShare;

/** Whether `a` is at least as good as `b` on all four and better on one. */
export function dominates(a: ConfigRow, b: ConfigRow): boolean {
  const noWorse = caughtOf(a) >= caughtOf(b) && goodStopped(a) <= goodStopped(b) && falseAborts(a) <= falseAborts(b) && waste(a) <= waste(b);
  const better = caughtOf(a) > caughtOf(b) || goodStopped(a) < goodStopped(b) || falseAborts(a) < falseAborts(b) || waste(a) < waste(b);
  return noWorse && better;
}

/** The rows no other row dominates on (caught, good work stopped, false aborts, waste). */
export function operatorFront(rows: readonly ConfigRow[]): ConfigRow[] {
  return rows.filter((r) => !rows.some((o) => o !== r && dominates(o, r)));
}

/** The tie-break every goal ends with. */
const tieBreak = (a: ConfigRow, b: ConfigRow) => goodStopped(a) - goodStopped(b) || falseAborts(a) - falseAborts(b) || waste(a) - waste(b) || a.index - b.index;

export function paretoFront(rows: readonly ConfigRow[]): number[] {
  return rows
    .filter((r) => !rows.some((o) => o !== r && waste(o) <= waste(r) && fp(o) <= fp(r) && (waste(o) < waste(r) || fp(o) < fp(r))))
    .map((r) => r.index);
}

/** Each goal's pick (reactionSensitivity.ts recomputes them at every reaction-grid point). */
export function pickAll(all: readonly ConfigRow[]): Record<Goal, ConfigRow> {
  const rows = operatorFront(all);
  const maxWaste = Math.max(1, ...all.map(waste));
  const score = (r: ConfigRow) => waste(r) / maxWaste + 4 * goodStopped(r) + 0.25 * r.metrics.progressing.warnedShare;
  const best = (list: readonly ConfigRow[], compare: (a: ConfigRow, b: ConfigRow) => number) => [...list].sort((a, b) => compare(a, b) || tieBreak(a, b))[0] as ConfigRow;
  const lenient = best(rows, (a, b) => goodStopped(a) - goodStopped(b) || falseAborts(a) - falseAborts(b) || waste(a) - waste(b) || caughtOf(b) - caughtOf(a));
  const allowed = rows.filter((r) => goodStopped(r) <= 0.1);
  const strict = best(allowed.length > 0 ? allowed : rows, (a, b) => caughtOf(b) - caughtOf(a));
  const between = rows.filter((r) => caughtOf(r) >= caughtOf(lenient) && caughtOf(r) <= caughtOf(strict) && goodStopped(r) >= goodStopped(lenient) && goodStopped(r) <= goodStopped(strict));
  const balanced = best(between.length > 0 ? between : [lenient], (a, b) => score(a) - score(b));
  return { strict, balanced, lenient };
}

/** The two front rows nearest to `pick` (scaled distance on the four), with what each trades. */
function alternativesTo(pick: ConfigRow, all: readonly ConfigRow[]): Recommendation["alternatives"] {
  const front = operatorFront(all).filter((r) => r !== pick && !sameNumbers(r, pick));
  const maxWaste = Math.max(1, ...all.map(waste));
  const distance = (r: ConfigRow) => Math.hypot(caughtOf(r) - caughtOf(pick), goodStopped(r) - goodStopped(pick), falseAborts(r) - falseAborts(pick), (waste(r) - waste(pick)) / maxWaste);
  const signed = (x: number, unit: (v: number) => string) => `${x >= 0 ? "+" : "-"}${unit(Math.abs(x))}`;
  const points = (v: number) => `${(Math.round(v * 1000) / 10).toFixed(1)} points`;
  return [...front]
    .sort((a, b) => distance(a) - distance(b) || a.index - b.index)
    .slice(0, 2)
    .map((r) => ({
      index: r.index,
      label: r.label,
      trades: `${signed(caughtOf(r) - caughtOf(pick), points)} caught, ${signed(goodStopped(r) - goodStopped(pick), points)} good work stopped, ${signed(falseAborts(r) - falseAborts(pick), points)} false aborts, ${signed(waste(r) - waste(pick), (v) => `${Math.round(v)} tokens`)} mean waste`,
    }));
}

const sameNumbers = (a: ConfigRow, b: ConfigRow) => caughtOf(a) === caughtOf(b) && goodStopped(a) === goodStopped(b) && falseAborts(a) === falseAborts(b) && waste(a) === waste(b);

/** A block without the fields the guard ignores (dotted leaf paths such as `warningThreshold`). */
export function withoutIgnored(block: Record<string, unknown>, ignored: readonly string[]): { block: Record<string, unknown>; removed: string[] } {
  const removed: string[] = [];
  const copy = JSON.parse(JSON.stringify(block)) as Record<string, unknown>;
  for (const path of ignored) {
    const keys = path.split(".");
    let at: Record<string, unknown> | undefined = copy;
    for (const key of keys.slice(0, -1)) at = at !== undefined && typeof at[key] === "object" && at[key] !== null ? (at[key] as Record<string, unknown>) : undefined;
    const leaf = keys.at(-1) as string;
    if (at !== undefined && Object.prototype.hasOwnProperty.call(at, leaf)) {
      delete at[leaf];
      removed.push(path);
    }
  }
  return { block: copy, removed };
}

/** "(intervals overlap: the difference may be noise)" or "(intervals do not overlap)". */
/** "1519 tokens per stuck agent [1402-1630]", or n/a when no agent was stuck. */
function meanTokens(mean: number, i: Interval): string {
  return i.n === 0 ? "n/a tokens per stuck agent (none was stuck)" : `${mean} tokens per stuck agent [${i.low}-${i.high}]`;
}

function overlapNote(a: Interval, b: Interval): string {
  if (a.n === 0 || b.n === 0) return "no cases to compare";
  return overlaps(a, b) ? "intervals overlap: the difference may be noise" : "intervals do not overlap";
}

export function snippet(block: Record<string, unknown>): string {
  return JSON5.stringify({ tools: { loopDetection: block } }, null, 2);
}

/** Recommendations come from every row, the defaults included; the defaults row is also the yardstick. */
/** Stuck families: the simulator's stuck ones, and every injected loop shape (inject:SHAPE). */
const isStuckFamily = (family: string) => findFamily(family)?.label === "stuck" || family.startsWith("inject:");

/** What the agents behind a report's numbers are, in the words the advice uses. */
export type Evidence = "simulated" | "grounded";
const AGENTS_WORD: Readonly<Record<Evidence, string>> = { simulated: "simulated agents", grounded: "agents grounded in real sessions" };

/** Where the stuck agents of a grounded run come from: loops injected into the sessions, stretches mined from them, or both. */
export interface GroundedLoops {
  readonly injected: boolean;
  readonly mined: boolean;
}

/** The stuck agents of a grounded run, in a few words, as the evidence line names them. */
function stuckSource(loops: GroundedLoops): string {
  if (loops.injected && loops.mined) return "real sessions with an injected loop, and stuck stretches mined from them";
  if (loops.mined) return "stuck stretches mined from the real sessions (nothing injected)";
  if (loops.injected) return "real sessions with an injected loop";
  return "none: no loop was injected or mined";
}

/** What a grounded run's agents are: real work, and where its loops come from. */
function groundedAgents(loops: GroundedLoops): string {
  const loopsAre = loops.injected && loops.mined ? "the loops are injected or mined from the sessions" : loops.mined ? "the loops are the stuck stretches mined from them" : loops.injected ? "the loops are injected" : "no loop was injected, so nothing here measures catching a loop";
  const copies = loops.injected ? ", or a copy of one with an injected loop" : "";
  return `Every agent is a real recorded session replayed closed-loop (with the stated reaction model)${copies}: the backgrounds are real work, ${loopsAre}.`;
}

export function recommend(rows: readonly ConfigRow[], defaultsRow: ConfigRow, ignored: readonly string[] = [], kind: Evidence = "simulated", loops: GroundedLoops = { injected: true, mined: false }): Recommendation[] {
  // OpenClaw's defaults are a candidate too: where nothing on the front beats them, keep them.
  const candidates = rows;
  const picks = pickAll(candidates);
  return GOALS.map((goal) => {
    const row = picks[goal];
    const cleaned = withoutIgnored(row.block, ignored);
    const m = row.metrics;
    const d = defaultsRow.metrics;
    const stillMissed = Object.entries(m.byFamily)
      .filter(([family, f]) => f.caughtShare < 0.5 && isStuckFamily(family))
      .map(([family, f]) => ({ family, caughtShare: f.caughtShare }))
      .sort((a, b) => a.caughtShare - b.caughtShare || (a.family < b.family ? -1 : 1));
    const mi = m.intervals;
    const di = d.intervals;
    const tradeOff =
      `catches ${percentWithInterval(m.stuck.caughtShare, mi.caughtShare)} of stuck agents (OpenClaw defaults: ${percentWithInterval(d.stuck.caughtShare, di.caughtShare)}; ${overlapNote(mi.caughtShare, di.caughtShare)}), ` +
      `wastes a mean ${meanTokens(m.stuck.wastedTokens.mean, mi.wastedTokensMean)} (defaults: ${meanTokens(d.stuck.wastedTokens.mean, di.wastedTokensMean)}; ${overlapNote(mi.wastedTokensMean, di.wastedTokensMean)}), ` +
      `stops ${percentWithInterval(m.overall.falsePositiveRate, mi.falsePositiveRate)} of ${kind === "grounded" ? "real sessions (as closed-loop agents) doing their own work" : "simulated agents doing real work"} (defaults: ${percentWithInterval(d.overall.falsePositiveRate, di.falsePositiveRate)}; ${overlapNote(mi.falsePositiveRate, di.falsePositiveRate)})` +
      (sessionsStopped(row) === undefined ? "" : `, would have stopped ${percentOneDecimal(sessionsStopped(row) ?? 0)} of the recorded ${row.sessions?.byLabel.resolved !== undefined ? "resolved " : ""}sessions (defaults: ${percentOneDecimal(sessionsStopped(defaultsRow) ?? 0)})`) +
      ` and warns ${percentOneDecimal(m.progressing.warnedShare)} of progressing agents (defaults: ${percentOneDecimal(d.progressing.warnedShare)}).`;
    const recorded = row.sessions;
    const evidence =
      `Caught, waste, warnings and the ${kind === "grounded" ? "" : "simulated "}false-positive rate rest on ${m.overall.agents} ${AGENTS_WORD[kind]} (${m.stuck.agents} stuck${kind === "grounded" ? `: ${stuckSource(loops)}` : ""}, ${m.progressing.agents + m.recovering.agents} progressing or recovering). ` +
      (kind === "grounded"
        ? groundedAgents(loops)
        : recorded === undefined
        ? "No recorded sessions were given: nothing here is measured on real work."
        : `The recorded-sessions figure rests on ${recorded.sessions} real sessions replayed open-loop${recorded.byLabel.resolved !== undefined ? ` (${recorded.byLabel.resolved.sessions} labelled resolved)` : " (unlabelled: every stop counts as stopping good work)"}.`);
    return {
      goal,
      index: row.index,
      label: row.label,
      rule: GOAL_RULES[goal],
      numbers: {
        caughtShare: m.stuck.caughtShare,
        meanWastedTokens: m.stuck.wastedTokens.mean,
        medianWastedTokens: m.stuck.wastedTokens.median,
        p90WastedTokens: m.stuck.wastedTokens.p90,
        falsePositiveRate: round4(m.overall.falsePositiveRate),
        ...(sessionsStopped(row) === undefined ? {} : { sessionsStoppedShare: sessionsStopped(row) }),
        warnedShare: m.progressing.warnedShare,
        warningsPer100Calls: m.overall.warningsPer100Calls,
      },
      intervals: { caughtShare: mi.caughtShare, meanWastedTokens: mi.wastedTokensMean, falsePositiveRate: mi.falsePositiveRate, falseAbortShare: mi.falseAbortShare },
      tradeOff,
      evidence,
      alternatives: alternativesTo(row, candidates),
      ignoredFields: cleaned.removed,
      stillMissed,
      snippet: snippet(cleaned.block),
    };
  });
}

