// Where the simulated and the grounded evidence part ways. Each config is ranked on each evidence
// by one score, stated in the report: stuck agents caught minus four times the good work stopped
// (the balanced goal's weight on stopping good work). A config is named when its rank moves by
// at least a tenth of the configs (three places at least); the goals' picks are named when they
// differ. Simulated agents are many and controlled; grounded ones are real work with injected
// loops: where they disagree, the operator learns which conclusion rests on the simulator alone.
import type { ConfigRow } from "../evaluation/evaluate.js";
import type { ConfigMetrics } from "../evaluation/metrics.js";
import { round4 } from "../evaluation/metrics.js";
import { GOALS, recommend, type Goal, type Recommendation } from "./recommend.js";
import { findFamily } from "../sim/families.js";

export const DISAGREEMENT_RULE =
  "each config is ranked on each evidence by stuck caught - 4 x good work stopped (the false-positive rate: simulated progressing and recovering agents, or real sessions without an injected loop), ties by config number; a config is named when its two ranks differ by at least a tenth of the configs, three places at least";

export interface RankedConfig {
  readonly index: number;
  readonly label: string;
  readonly simulatedRank: number;
  readonly groundedRank: number;
  readonly simulated: { readonly caught: number; readonly goodStopped: number };
  readonly grounded: { readonly caught: number; readonly goodStopped: number };
  /** The simulated progressing or recovering family this config stops most often, when it stops any: often the work real sessions do not contain. */
  readonly simulatedStopsMost?: { readonly family: string; readonly share: number };
}

export interface Disagreements {
  readonly rule: string;
  /** Places a rank must move by to be named. */
  readonly places: number;
  readonly picks: readonly { readonly goal: Goal; readonly simulated: { readonly index: number; readonly label: string }; readonly grounded: { readonly index: number; readonly label: string } }[];
  /** Configs whose rank moves by at least `places`, the largest moves first. */
  readonly moved: readonly RankedConfig[];
}

function stopsMost(m: ConfigMetrics): { simulatedStopsMost?: { family: string; share: number } } {
  const worst = Object.entries(m.byFamily)
    .filter(([family, f]) => findFamily(family)?.label !== "stuck" && f.wronglyBlockedShare > 0)
    .sort((a, b) => b[1].wronglyBlockedShare - a[1].wronglyBlockedShare || (a[0] < b[0] ? -1 : 1))[0];
  return worst === undefined ? {} : { simulatedStopsMost: { family: worst[0], share: worst[1].wronglyBlockedShare } };
}

const score = (m: ConfigMetrics) => m.stuck.caughtShare - 4 * m.overall.falsePositiveRate;

function ranks(rows: readonly ConfigRow[], metricsOf: (r: ConfigRow) => ConfigMetrics): Map<number, number> {
  const sorted = [...rows].sort((a, b) => score(metricsOf(b)) - score(metricsOf(a)) || a.index - b.index);
  return new Map(sorted.map((r, i) => [r.index, i + 1]));
}

/** Rows that have grounded metrics as well as simulated ones, and the report's picks on the simulated ones. */
export function disagreements(rows: readonly ConfigRow[], simPicks: readonly Recommendation[], ignored: readonly string[]): Disagreements {
  const both = rows.filter((r): r is ConfigRow & { grounded: ConfigMetrics } => r.grounded !== undefined);
  const places = Math.max(3, Math.ceil(both.length / 10));
  const simulated = ranks(both, (r) => r.metrics);
  const grounded = ranks(both, (r) => r.grounded as ConfigMetrics);
  const groundedRows = both.map((r) => ({ ...r, metrics: r.grounded, sessions: undefined }));
  const defaults = groundedRows.find((r) => r.index === 0);
  const groundedPicks = defaults === undefined ? [] : recommend(groundedRows, defaults, ignored, "grounded");
  const labelOf = (index: number) => (index === 0 ? "OpenClaw defaults" : (both.find((r) => r.index === index)?.label ?? String(index)));
  const picks = GOALS.flatMap((goal) => {
    const s = simPicks.find((p) => p.goal === goal);
    const g = groundedPicks.find((p) => p.goal === goal);
    return s === undefined || g === undefined ? [] : [{ goal, simulated: { index: s.index, label: labelOf(s.index) }, grounded: { index: g.index, label: labelOf(g.index) } }];
  });
  const moved = both
    .map((r) => ({
      index: r.index,
      label: labelOf(r.index),
      simulatedRank: simulated.get(r.index) as number,
      groundedRank: grounded.get(r.index) as number,
      simulated: { caught: r.metrics.stuck.caughtShare, goodStopped: round4(r.metrics.overall.falsePositiveRate) },
      grounded: { caught: r.grounded.stuck.caughtShare, goodStopped: round4(r.grounded.overall.falsePositiveRate) },
      ...stopsMost(r.metrics),
    }))
    .filter((r) => Math.abs(r.simulatedRank - r.groundedRank) >= places)
    .sort((a, b) => Math.abs(b.simulatedRank - b.groundedRank) - Math.abs(a.simulatedRank - a.groundedRank) || a.index - b.index);
  return { rule: DISAGREEMENT_RULE, places, picks, moved };
}
