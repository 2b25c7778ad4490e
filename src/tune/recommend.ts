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
  strict: "the highest share of stuck agents caught, among configs with a false-positive rate of at most 10%; ties go to fewer wasted tokens, then fewer false positives",
  balanced: "the lowest score = mean wasted tokens / the largest mean in the sweep + 4 x false-positive rate + 0.25 x share of progressing agents warned",
  lenient: "the lowest false-positive rate; ties go to fewer progressing agents warned, then more stuck agents caught",
};

export interface Recommendation {
  readonly goal: Goal;
  readonly index: number;
  readonly label: string;
  readonly rule: string;
  readonly numbers: {
    readonly caughtShare: number;
    readonly medianWastedTokens: number;
    readonly p90WastedTokens: number;
    readonly falsePositiveRate: number;
    readonly warnedShare: number;
    readonly warningsPer100Calls: number;
  };
  readonly tradeOff: string;
  readonly stillMissed: readonly { readonly family: string; readonly caughtShare: number }[];
  readonly snippet: string;
}

const waste = (r: ConfigRow) => r.metrics.stuck.wastedTokens.mean;
const fp = (r: ConfigRow) => r.metrics.overall.falsePositiveRate;

export function paretoFront(rows: readonly ConfigRow[]): number[] {
  return rows
    .filter((r) => !rows.some((o) => o !== r && waste(o) <= waste(r) && fp(o) <= fp(r) && (waste(o) < waste(r) || fp(o) < fp(r))))
    .map((r) => r.index);
}

function pick(rows: readonly ConfigRow[], goal: Goal): ConfigRow {
  const maxWaste = Math.max(1, ...rows.map(waste));
  const score = (r: ConfigRow) => waste(r) / maxWaste + 4 * fp(r) + 0.25 * r.metrics.progressing.warnedShare;
  const byIndex = (a: ConfigRow, b: ConfigRow) => a.index - b.index;
  const sorted = (list: readonly ConfigRow[], compare: (a: ConfigRow, b: ConfigRow) => number) => [...list].sort((a, b) => compare(a, b) || byIndex(a, b))[0] as ConfigRow;
  switch (goal) {
    case "strict": {
      const allowed = rows.filter((r) => fp(r) <= 0.1);
      return sorted(allowed.length > 0 ? allowed : rows, (a, b) => b.metrics.stuck.caughtShare - a.metrics.stuck.caughtShare || waste(a) - waste(b) || fp(a) - fp(b));
    }
    case "balanced":
      return sorted(rows, (a, b) => score(a) - score(b));
    case "lenient":
      return sorted(rows, (a, b) => fp(a) - fp(b) || a.metrics.progressing.warnedShare - b.metrics.progressing.warnedShare || b.metrics.stuck.caughtShare - a.metrics.stuck.caughtShare);
  }
}

export const percent = (x: number): string => `${(Math.round(x * 1000) / 10).toFixed(1)}%`;

export function snippet(block: Record<string, unknown>): string {
  return JSON5.stringify({ tools: { loopDetection: block } }, null, 2);
}

/** Recommendations come from the swept configs; OpenClaw's defaults row is the yardstick. */
export function recommend(rows: readonly ConfigRow[], defaultsRow: ConfigRow): Recommendation[] {
  const candidates = rows.filter((r) => r.index !== defaultsRow.index);
  return GOALS.map((goal) => {
    const row = pick(candidates.length > 0 ? candidates : rows, goal);
    const m = row.metrics;
    const d = defaultsRow.metrics;
    const stillMissed = Object.entries(m.byFamily)
      .filter(([family, f]) => f.caughtShare < 0.5 && findFamily(family)?.label === "stuck")
      .map(([family, f]) => ({ family, caughtShare: f.caughtShare }))
      .sort((a, b) => a.caughtShare - b.caughtShare || (a.family < b.family ? -1 : 1));
    const tradeOff =
      `catches ${percent(m.stuck.caughtShare)} of stuck agents (OpenClaw defaults: ${percent(d.stuck.caughtShare)}), ` +
      `wastes a median ${m.stuck.wastedTokens.median} tokens per stuck agent (defaults: ${d.stuck.wastedTokens.median}), ` +
      `stops ${percent(m.overall.falsePositiveRate)} of agents doing real work (defaults: ${percent(d.overall.falsePositiveRate)}) ` +
      `and warns ${percent(m.progressing.warnedShare)} of progressing agents (defaults: ${percent(d.progressing.warnedShare)}).`;
    return {
      goal,
      index: row.index,
      label: row.label,
      rule: GOAL_RULES[goal],
      numbers: {
        caughtShare: m.stuck.caughtShare,
        medianWastedTokens: m.stuck.wastedTokens.median,
        p90WastedTokens: m.stuck.wastedTokens.p90,
        falsePositiveRate: round4(m.overall.falsePositiveRate),
        warnedShare: m.progressing.warnedShare,
        warningsPer100Calls: m.overall.warningsPer100Calls,
      },
      tradeOff,
      stillMissed,
      snippet: snippet(row.block),
    };
  });
}

