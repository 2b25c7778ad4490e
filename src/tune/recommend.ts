// From rows to advice: the Pareto front of wasted loop tokens against the false-positive rate,
// and one recommended config per goal, each with its numbers, its trade-off against OpenClaw's
// defaults, the stuck families it still misses, and a ready tools.loopDetection snippet.
import JSON5 from "json5";
import type { ConfigRow } from "./evaluate.js";
import { round4 } from "./metrics.js";
import { findFamily } from "../sim/families.js";

export type Goal = "strict" | "balanced" | "lenient";
export const GOALS: readonly Goal[] = ["strict", "balanced", "lenient"];

export const GOAL_RULES: Readonly<Record<Goal, string>> = {
  lenient: "the lowest share of good work stopped (simulated false-positive rate, plus the share of recorded sessions stopped when sessions were given); ties go to fewer progressing agents warned, then more stuck agents caught",
  strict: "the highest share of stuck agents caught among configs that stop at most 10% of good work (as for lenient); ties go to fewer wasted tokens, then less good work stopped",
  balanced: "among configs that catch at least as many stuck agents as lenient and at most as many as strict, and stop between lenient's and strict's share of good work, the lowest score = mean wasted tokens / the largest mean in the sweep + 4 x good work stopped + 0.25 x share of progressing agents warned. So lenient <= balanced <= strict on both catches and good work stopped",
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
  readonly tradeOff: string;
  /** Which population each number rests on. */
  readonly evidence: string;
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
const goodStopped = (r: ConfigRow) => fp(r) + (sessionsStopped(r) ?? 0);

export function paretoFront(rows: readonly ConfigRow[]): number[] {
  return rows
    .filter((r) => !rows.some((o) => o !== r && waste(o) <= waste(r) && fp(o) <= fp(r) && (waste(o) < waste(r) || fp(o) < fp(r))))
    .map((r) => r.index);
}

function pickAll(rows: readonly ConfigRow[]): Record<Goal, ConfigRow> {
  const maxWaste = Math.max(1, ...rows.map(waste));
  const score = (r: ConfigRow) => waste(r) / maxWaste + 4 * goodStopped(r) + 0.25 * r.metrics.progressing.warnedShare;
  const byIndex = (a: ConfigRow, b: ConfigRow) => a.index - b.index;
  const best = (list: readonly ConfigRow[], compare: (a: ConfigRow, b: ConfigRow) => number) => [...list].sort((a, b) => compare(a, b) || byIndex(a, b))[0] as ConfigRow;
  const caught = (r: ConfigRow) => r.metrics.stuck.caughtShare;
  const lenient = best(rows, (a, b) => goodStopped(a) - goodStopped(b) || a.metrics.progressing.warnedShare - b.metrics.progressing.warnedShare || caught(b) - caught(a));
  const allowed = rows.filter((r) => goodStopped(r) <= 0.1);
  const strict = best(allowed.length > 0 ? allowed : rows, (a, b) => caught(b) - caught(a) || waste(a) - waste(b) || goodStopped(a) - goodStopped(b));
  const between = rows.filter((r) => caught(r) >= caught(lenient) && caught(r) <= caught(strict) && goodStopped(r) >= goodStopped(lenient) && goodStopped(r) <= goodStopped(strict));
  const balanced = best(between.length > 0 ? between : [lenient], (a, b) => score(a) - score(b));
  return { strict, balanced, lenient };
}

export const percent = (x: number): string => `${(Math.round(x * 1000) / 10).toFixed(1)}%`;

export function snippet(block: Record<string, unknown>): string {
  return JSON5.stringify({ tools: { loopDetection: block } }, null, 2);
}

/** Recommendations come from the swept configs; OpenClaw's defaults row is the yardstick. */
export function recommend(rows: readonly ConfigRow[], defaultsRow: ConfigRow): Recommendation[] {
  const candidates = rows.filter((r) => r.index !== defaultsRow.index);
  const picks = pickAll(candidates.length > 0 ? candidates : rows);
  return GOALS.map((goal) => {
    const row = picks[goal];
    const m = row.metrics;
    const d = defaultsRow.metrics;
    const stillMissed = Object.entries(m.byFamily)
      .filter(([family, f]) => f.caughtShare < 0.5 && findFamily(family)?.label === "stuck")
      .map(([family, f]) => ({ family, caughtShare: f.caughtShare }))
      .sort((a, b) => a.caughtShare - b.caughtShare || (a.family < b.family ? -1 : 1));
    const tradeOff =
      `catches ${percent(m.stuck.caughtShare)} of stuck agents (OpenClaw defaults: ${percent(d.stuck.caughtShare)}), ` +
      `wastes a mean ${m.stuck.wastedTokens.mean} tokens per stuck agent (defaults: ${d.stuck.wastedTokens.mean}), ` +
      `stops ${percent(m.overall.falsePositiveRate)} of simulated agents doing real work (defaults: ${percent(d.overall.falsePositiveRate)})` +
      (sessionsStopped(row) === undefined ? "" : `, would have stopped ${percent(sessionsStopped(row) ?? 0)} of the recorded ${row.sessions?.byLabel.resolved !== undefined ? "resolved " : ""}sessions (defaults: ${percent(sessionsStopped(defaultsRow) ?? 0)})`) +
      ` and warns ${percent(m.progressing.warnedShare)} of progressing agents (defaults: ${percent(d.progressing.warnedShare)}).`;
    const recorded = row.sessions;
    const evidence =
      `Caught, waste, warnings and the simulated false-positive rate rest on ${m.overall.agents} simulated agents (${m.stuck.agents} stuck, ${m.progressing.agents + m.recovering.agents} progressing or recovering). ` +
      (recorded === undefined
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
      tradeOff,
      evidence,
      stillMissed,
      snippet: snippet(row.block),
    };
  });
}

