// `calibrate --fit`: the simulated population fitted to a corpus of recorded work. The fitted
// family (src/sim/fittedFamily.ts) takes the corpus's distributions of run length, tool
// vocabulary, repeated-args share, error rate and result size as quantile tables; a coordinate
// search then sets the three shares that shape repeats (streaks, A/B returns, same results), and
// a greedy search tries adding each hand-written progressing family, keeping a weight only when it
// brings the distances down. The objective is the largest Kolmogorov-Smirnov distance over every
// statistic plus their mean, progressing agents against the recorded runs. The stuck side is the default
// population's, in equal measure unless --stuck-share says otherwise: the corpus is real work with
// almost no loops, and a tuning sweep needs loops to catch (real backgrounds with known loops are
// --inject's job).
import { configFrom } from "../../models/configResolution.js";
import { normalizeToolName } from "../../models/normalize.js";
import type { ToolEvent } from "../../models/events.js";
import { POPULATION_PRESETS, populationAgents, simulationOf, type Population, type PopulationMember } from "../evaluation/population.js";
import { FAMILIES } from "../sim/families.js";
import { FITTED_FAMILY, type FittedParams } from "../sim/fittedFamily.js";
import { simulate } from "../sim/simulate.js";
import { findBuiltInTarget } from "../targets/registry.js";
import { ksDistance, runStats, STATISTIC_NAMES, type RunStats, type Statistic } from "./runStats.js";

/** Points of each quantile table: every 2%, so a table is off the corpus by at most about 0.02. */
const TABLE_POINTS = 51;
/** Tools kept in the vocabulary, the most called first. */
const VOCABULARY = 40;
const SHARE_STEPS = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];

export interface SimulatedStats {
  readonly all: RunStats[];
  readonly progressing: RunStats[];
}

/** The population's agents run without a guard (target `none`), as recorded agents were. */
export function simulatedStats(population: Population, agents: number, seed: number, onEvents?: (events: readonly ToolEvent[], label: string) => void, progressingOnly = false): SimulatedStats {
  const none = findBuiltInTarget("none");
  if (none === undefined) throw new Error("the none target is missing");
  const config = configFrom({});
  const all: RunStats[] = [];
  const progressing: RunStats[] = [];
  for (const agent of populationAgents(population, agents, seed)) {
    // The same agents as a full run would have, the stuck ones left out when only progressing work is compared.
    if (progressingOnly && agent.label !== "progressing") continue;
    const events = simulate(simulationOf(agent, population.calls), config, none).events;
    onEvents?.(events, agent.label);
    const stats = runStats(events);
    all.push(...stats);
    if (agent.label === "progressing") progressing.push(...stats);
  }
  return { all, progressing };
}

export function distances(recorded: readonly RunStats[], simulated: readonly RunStats[]): Record<Statistic, number> {
  return Object.fromEntries(STATISTIC_NAMES.map((s) => [s, ksDistance(recorded.map((r) => r[s]), simulated.map((r) => r[s]))])) as Record<Statistic, number>;
}

/** The search's objective: the largest distance, plus the mean so that a change raising the others does not pass for a gain. */
const objective = (d: Readonly<Record<string, number>>) => Math.max(...Object.values(d)) + Object.values(d).reduce((a, b) => a + b, 0) / Object.values(d).length;
/** Agents per candidate in the searches (the final check uses all the agents asked for). */
const SEARCH_AGENTS = 160;

/** Nearest-rank quantiles at evenly spaced points, smallest first. */
export function quantileTable(values: readonly number[], points = TABLE_POINTS): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return [0, 0];
  return Array.from({ length: points }, (_, i) => {
    const p = i / (points - 1);
    const v = sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] as number;
    return Math.round(v * 10_000) / 10_000;
  });
}

/** Calls per tool over a session's events (tool names normalised as the guard sees them). */
export function countTools(events: readonly ToolEvent[], into: Map<string, number>): void {
  for (const e of events) if (e.type === "call") into.set(normalizeToolName(e.tool), (into.get(normalizeToolName(e.tool)) ?? 0) + 1);
}

export interface FitInput {
  readonly runs: readonly RunStats[];
  readonly tools: ReadonlyMap<string, number>;
  readonly seed: number;
  /** Simulated agents per evaluation of a candidate. */
  readonly agents: number;
  readonly name: string;
  /** The share of the population's weight on the default's stuck families (0: none, a population of the corpus's kind of work alone). */
  readonly stuckShare?: number;
}

export interface FitResult {
  readonly population: Population;
  /** Progressing agents against the recorded runs, per statistic. */
  readonly distances: Record<Statistic, number>;
  /** Candidates the searches evaluated. */
  readonly evaluations: number;
}

const MODEL_SPLIT: readonly { model: PopulationMember["model"]; weight: number }[] = [
  { model: "small", weight: 2 },
  { model: "flagship", weight: 1 },
];

/** The share of stuck agents a fitted population has unless told otherwise: as in the default population. */
export const DEFAULT_STUCK_SHARE = 0.5;

function populationWith(progressing: readonly { family: string; weight: number; params?: FittedParams }[], calls: number, name: string, stuckShare: number): Population {
  const members: PopulationMember[] = [];
  for (const p of progressing) for (const m of MODEL_SPLIT) members.push({ family: p.family, model: m.model, weight: Math.round(p.weight * m.weight * 1000) / 1000, ...(p.params === undefined ? {} : { params: p.params }) });
  if (stuckShare > 0) {
    // The default's stuck families, scaled so that they are `stuckShare` of the weight.
    const stuck = (POPULATION_PRESETS.default as Population).members.filter((m) => FAMILIES.find((f) => f.name === m.family)?.label === "stuck");
    const stuckTotal = stuck.reduce((s, m) => s + m.weight, 0);
    const progressingTotal = members.reduce((s, m) => s + m.weight, 0);
    const wanted = (progressingTotal * stuckShare) / (1 - stuckShare);
    for (const m of stuck) members.push({ ...m, weight: Math.round(((m.weight * wanted) / stuckTotal) * 1000) / 1000 });
  }
  return { name, calls, members };
}

export function fitPopulation(input: FitInput): FitResult {
  const { runs } = input;
  const column = (s: Statistic) => runs.map((r) => r[s]);
  const total = [...input.tools.values()].reduce((a, b) => a + b, 0);
  const tools = [...input.tools.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, VOCABULARY)
    .map(([name, n]) => ({ name, share: Math.round((n / Math.max(1, total)) * 10_000) / 10_000 }))
    .filter((t) => t.share > 0);
  let params: FittedParams = {
    callsPerRun: quantileTable(column("callsPerRun")),
    distinctTools: quantileTable(column("distinctTools")),
    repeatedArgsShare: quantileTable(column("repeatedArgsShare")),
    errorRate: quantileTable(column("errorRate")),
    resultTokens: quantileTable(column("resultTokens")),
    tools: tools.length > 0 ? tools : [{ name: "exec", share: 1 }],
    repeatPrevious: 0.3,
    repeatTwoBack: 0.1,
    sameResult: 0.5,
  };
  const calls = Math.max(80, Math.ceil(Math.max(...column("callsPerRun"), 1)));
  let evaluations = 0;
  const score = (progressing: readonly { family: string; weight: number; params?: FittedParams }[]) => {
    evaluations++;
    const stats = simulatedStats(populationWith(progressing, calls, input.name, 0), Math.min(SEARCH_AGENTS, input.agents), input.seed).progressing;
    return distances(runs, stats);
  };
  const fittedOnly = (p: FittedParams) => [{ family: FITTED_FAMILY, weight: 1, params: p }];
  // The three repeat shares, one at a time, two passes. Result sizes play no part in them, so this
  // search runs with tiny results (hashing and sizing real-sized ones is most of the cost) and
  // leaves resultTokens out of its objective.
  const small = (p: FittedParams): FittedParams => ({ ...p, resultTokens: [14, 14] });
  const shapeScore = (p: FittedParams) => {
    const { resultTokens: _sizes, ...rest } = score(fittedOnly(small(p)));
    return objective(rest);
  };
  let shapeBest = shapeScore(params);
  for (let pass = 0; pass < 2; pass++) {
    for (const key of ["repeatPrevious", "repeatTwoBack", "sameResult"] as const) {
      for (const v of SHARE_STEPS) {
        if (v === params[key]) continue;
        const candidate = { ...params, [key]: v };
        if (candidate.repeatPrevious + candidate.repeatTwoBack > 1) continue;
        const d = shapeScore(candidate);
        if (d < shapeBest - 1e-9) {
          shapeBest = d;
          params = candidate;
        }
      }
    }
  }
  let best = objective(score(fittedOnly(params)));
  // Family weights: a hand-written progressing family stays only if it brings the objective down.
  let progressing: { family: string; weight: number; params?: FittedParams }[] = fittedOnly(params);
  const others = FAMILIES.filter((f) => f.label === "progressing").map((f) => f.name);
  for (const family of others) {
    for (const weight of [0.05, 0.15]) {
      const candidate = [...progressing, { family, weight }];
      const d = objective(score(candidate));
      if (d < best - 0.005) {
        best = d;
        progressing = candidate;
        break;
      }
    }
  }
  const population = populationWith(progressing, calls, input.name, input.stuckShare ?? DEFAULT_STUCK_SHARE);
  const final = simulatedStats(population, input.agents, input.seed, undefined, true).progressing;
  return { population, distances: distances(runs, final), evaluations };
}

/** The largest KS distance two samples of these sizes show by chance 5% of the time (two-sided, asymptotic). */
export function ksCritical(n: number, m: number): number {
  if (n === 0 || m === 0) return 1;
  return Math.round(1.358 * Math.sqrt((n + m) / (n * m)) * 1000) / 1000;
}
