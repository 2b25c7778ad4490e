// The tuning report's source of truth (report.json) and the partial results of a shard.
// A sharded sweep and an unsharded one go through the same finishReport, so merging the parts
// gives exactly the unsharded report.
import type { ConfigRow } from "../evaluation/evaluate.js";
import { METRIC_DEFINITIONS } from "../evaluation/metrics.js";
import type { Population } from "../evaluation/population.js";
import type { RecordedSummary } from "../sessions/recorded.js";
import type { GroundedSummary } from "../grounded/groundedPopulation.js";
import { disagreements, type Disagreements } from "./disagreements.js";
import { tuneReactionSensitivity, withoutRowGrids, type TuneReactionSensitivity } from "./reactionSensitivity.js";
import { paretoFront, recommend, type GroundedLoops, type Recommendation } from "./recommend.js";
import { realVsInjected, type RealVsInjected } from "../grounded/realVsInjected.js";
import type { RealOutcomes } from "../grounded/realOutcomes.js";

export const REPORT_SCHEMA = "loopsim/tune-report@1";
export const PARTIAL_SCHEMA = "loopsim/tune-partial@1";

/** Everything a sweep depends on; two parts merge only if these are equal. */
export interface TuneInputs {
  readonly loopsimVersion: string;
  /** The guard under test when it is not the reference (e.g. openclaw@2026.9.6). */
  readonly target?: string;
  /** Config fields that target ignores: grid points that differ only there give identical rows. */
  readonly targetIgnores?: readonly string[];
  /** The command that makes this report again, every input included. */
  readonly reproduce: string;
  readonly seed: number;
  readonly agents: number;
  readonly population: Population;
  readonly baseline: { readonly source: string; readonly block: Record<string, unknown> };
  readonly grid: { readonly spec: string; readonly skipped: readonly { readonly label: string; readonly reason: string }[] };
  /** Recorded sessions replayed open-loop under every config (tune --sessions). */
  readonly sessions?: RecordedSummary;
  /** Real sessions as closed-loop agents, with injected loops: the main numbers, or beside a simulated population's. */
  readonly grounded?: GroundedSummary;
  /** With --loops real: every config replayed open-loop on the sessions, against their stuck stretches and outcome labels (src/grounded/realOutcomes.ts). */
  readonly realOutcomes?: RealOutcomes;
  /** Every config of the sweep, by index: 0 is OpenClaw's defaults. */
  readonly configs: readonly { readonly index: number; readonly label: string; readonly block: Record<string, unknown> }[];
}

export interface TuneReport extends TuneInputs {
  readonly schema: typeof REPORT_SCHEMA;
  readonly definitions: Readonly<Record<string, string>>;
  readonly rows: readonly ConfigRow[];
  readonly pareto: readonly number[];
  readonly recommendations: readonly Recommendation[];
  /** Where the simulated and the grounded evidence rank the configs differently (both present only). */
  readonly disagreements?: Disagreements;
  /** With --loops real: every config on the mined stretches beside the injected loops, and where they disagree. */
  readonly realLoops?: RealVsInjected;
  /** Which picks on the grounded evidence hold across the reaction grid (--reaction-grid). */
  readonly reactionSensitivity?: TuneReactionSensitivity;
}

export interface TunePartial {
  readonly schema: typeof PARTIAL_SCHEMA;
  readonly shard: { readonly index: number; readonly of: number };
  readonly inputs: TuneInputs;
  readonly rows: readonly ConfigRow[];
}

export function finishReport(inputs: TuneInputs, gridRows: readonly ConfigRow[]): TuneReport {
  const sensitivity = tuneReactionSensitivity([...gridRows].sort((a, b) => a.index - b.index), inputs.grounded);
  const rows = withoutRowGrids(gridRows);
  const sorted = [...rows].sort((a, b) => a.index - b.index);
  const defaults = sorted.find((r) => r.index === 0);
  if (defaults === undefined) throw new Error("the OpenClaw defaults row (index 0) is missing");
  const g = inputs.grounded;
  const real = g?.loops === undefined ? undefined : realVsInjected(sorted.flatMap((r) => ((g.primary ? r.metrics : r.grounded) === undefined ? [] : [{ name: r.index === 0 ? "OpenClaw defaults" : `#${r.index} ${r.label}`, metrics: (g.primary ? r.metrics : r.grounded) as ConfigRow["metrics"] }])), g.inject.shapes);
  const recommendations = recommend(sorted, defaults, inputs.targetIgnores ?? [], inputs.grounded?.primary === true ? "grounded" : "simulated", groundedLoops(inputs.grounded));
  return {
    schema: REPORT_SCHEMA,
    ...inputs,
    definitions: METRIC_DEFINITIONS,
    rows: sorted,
    pareto: paretoFront(sorted),
    recommendations,
    ...(inputs.grounded !== undefined && !inputs.grounded.primary ? { disagreements: disagreements(sorted, recommendations, inputs.targetIgnores ?? []) } : {}),
    ...(real === undefined ? {} : { realLoops: real }),
    ...(sensitivity === undefined ? {} : { reactionSensitivity: sensitivity }),
  };
}

/** Where a grounded run's stuck agents came from (the evidence line says it). */
export function groundedLoops(g: GroundedSummary | undefined): GroundedLoops {
  return { injected: (g?.inject.shapes.length ?? 1) > 0, mined: g?.loops !== undefined };
}

export function reportJson(report: TuneReport): string {
  return JSON.stringify(report, null, 2) + "\n";
}
