// `loopsim compare`: several loop guards (OpenClaw's and other runtimes') on the same simulated
// agents and, with --sessions, on the same recorded sessions. `planCompare` parses and checks every
// option once; `runCompare` returns the report and writes nothing (src/cli/simulationOutput.ts
// writes compare.{json,md,html} or prints). `--shard I/N` computes the rows with index = I-1
// (mod N) into a partial; `mergeCompare` joins them.
import { partsIn, readShardParts, schemaOf, type ShardLayout } from "../io/shardParts.js";
import { isPlainObject } from "../../models/outcomeHash.js";
import { UserError } from "../io/errors.js";
import { VERSION } from "../io/version.js";
import { COMPARE_PARTIAL_SCHEMA, finishCompare, isTextFamily, type CompareInputs, type CompareReport, type CompareRowResult } from "../compare/report.js";
import { resolveRows, rowNames, type CompareRow } from "../compare/rows.js";
import type { SessionTotals } from "../sessions/openLoop.js";
import { replayRecorded } from "../sessions/replayAll.js";
import { refuseNoReadable, recordedSummary, type LabelKey, type Labels, type ReadOptions, type RecordedRead } from "../sessions/recorded.js";
import { measureRealOutcomes, type RealOutcomes } from "../grounded/realOutcomes.js";
import { loadDatasetLabels, type DatasetLabels } from "../realLoops/labels.js";
import { isRefKind } from "../targets/targetRef.js";
import type { Target } from "../targets/target.js";
import { configFrom } from "../../models/configResolution.js";
import { evaluateAll } from "../evaluation/parallel.js";
import { populationAgents, type Population } from "../evaluation/population.js";
import type { ConfigMetrics } from "../evaluation/metrics.js";
import { groundedSummary, type GroundedEvaluation, type GroundedPopulation } from "../grounded/groundedPopulation.js";
import { evaluateGroundedInThreads } from "../grounded/parallelGrounded.js";
import { rowGrids } from "../grounded/reactionGrid.js";
import { groundingFlags, refuseGroundingFlags, refuseReactionGrid, resolvePopulation, type AnyPopulation } from "../grounded/populationSpec.js";
import { REFERENCE_TARGET } from "../targets/reference.js";
import type { Shard } from "../io/shardSpec.js";
import { mergeEvidence, readCounts, type SessionEvidence } from "../grounded/sessionShards.js";
import { planGrounding, sessionSliceOf, sharedReproduceWords, type GroundingPlan, type SimulationArgs } from "./simulationPlan.js";

export interface CompareArgs extends SimulationArgs {
  /** Comma-separated guards, or all (src/compare/rows.ts). */
  readonly targets: string;
}

/** A comparison, parsed and checked: what `runCompare` runs. */
export interface ComparePlan {
  readonly grounding: GroundingPlan;
  readonly args: CompareArgs;
  /** The guards, in the report's order. */
  readonly names: readonly string[];
  readonly chosen: AnyPopulation;
  readonly population: Population;
  /** This shard's slice of the sessions (`--by sessions`). */
  readonly slice?: Shard;
}

/** The files a compare run writes into --out: the report, or this shard's partial. */
export function compareOutputs(shard: Shard | undefined): string[] {
  return shard === undefined ? ["compare.json", "compare.md", "compare.html"] : [`compare-partial-${shard.index}-of-${shard.of}.json`];
}

/** Parses and checks everything `loopsim compare` is given, before any guard runs. */
export async function planCompare(args: CompareArgs): Promise<ComparePlan> {
  if (args === null || typeof args !== "object") throw new UserError("planCompare: args must be an object of compare's options (targets, population, agents, seed, ...)");
  const grounding = await planGrounding(args, "guards", compareOutputs, undefined);
  const resolved: CompareArgs = { ...args, ...grounding.args };
  const names = rowNames(resolved.targets);
  const flags = groundingFlags(resolved);
  // The reaction grid runs by default wherever real sessions run as agents.
  const chosen = resolvePopulation(resolved.population, { ...flags, reactionGrid: resolved.reactionGrid ?? "default" });
  if (chosen.kind === "simulated") {
    refuseGroundingFlags(flags);
    if (resolved.reactionGrid !== "none") refuseReactionGrid(resolved.reactionGrid);
  }
  const population: Population = chosen.kind === "simulated" ? chosen.population : { name: chosen.grounded.name, calls: 0, members: [] };
  const slice = sessionSliceOf(grounding, chosen.kind === "sessions" || resolved.sessions !== undefined);
  return { grounding, args: resolved, names, chosen, population, ...(slice === undefined ? {} : { slice }) };
}

/** What a compare run made: the whole report, or a shard's partial; and what reading the sessions found. */
export type CompareRun =
  | { readonly kind: "report"; readonly report: CompareReport; readonly read?: RecordedRead; readonly labels?: Labels }
  | { readonly kind: "partial"; readonly shard: Shard; readonly partial: ComparePartial | CompareSessionPartial; readonly read?: RecordedRead; readonly labels?: Labels; readonly summary: string; readonly bySessions: boolean };

export interface ComparePartial {
  readonly schema: typeof COMPARE_PARTIAL_SCHEMA;
  readonly shard: { readonly index: number; readonly of: number };
  readonly inputs: CompareInputs;
  readonly rows: readonly CompareRowResult[];
}

function reproduceLine(o: CompareArgs): string {
  return [
    "loopsim compare",
    `--targets ${o.targets}`,
    `--seed ${o.seed}`,
    ...(o.population.startsWith("sessions:") ? [] : [`--agents ${o.agents}`]),
    ...(o.population === "default" ? [] : [`--population ${o.population}`]),
    ...sharedReproduceWords(o),
  ].join(" ");
}

/** Runs a plan into a report (or a shard's partial); writes and prints nothing. */
export async function runCompare(plan: ComparePlan): Promise<CompareRun> {
  const { grounding: g, chosen, population, names } = plan;
  const options = plan.args;
  const labels = g.labels;
  const shard = g.shard;
  const { rows, targets } = await resolveRows(names);
  const slice = plan.slice;
  const all = rows.map((row, index) => ({ row, index }));
  // The simulated population is always sliced by guard; by session, every guard runs this shard's sessions.
  const mine = all.filter(({ index }) => shard === undefined || index % shard.of === shard.index - 1);
  const sessionGuards = slice === undefined ? mine : all;
  const agents = chosen.kind === "simulated" ? populationAgents(population, options.agents, options.seed) : [];
  const jobs = mine.map(({ row, index }) => ({ index, label: row.name, block: row.block, target: row.target }));
  const readOptions = { ...(labels === undefined ? {} : { labels }), strict: g.strict, ...(slice === undefined ? {} : { slice }) };
  const simulated = chosen.kind === "simulated" ? await evaluateAll(jobs, agents, population.calls, REFERENCE_TARGET, g.workers, () => undefined, targets) : [];
  // Real sessions as closed-loop agents: every guard on the same sessions and the same injected loops.
  const grounding = chosen.kind === "sessions" ? chosen.grounded : undefined;
  const run = grounding === undefined ? undefined : await evaluateGroundedInThreads(grounding, sessionGuards.map(({ row, index }) => ({ index, target: targets.get(row.target) ?? REFERENCE_TARGET, block: row.block })), options.seed, readOptions, g.workers);
  // Recorded sessions stream: each is read, replayed under every guard of this shard, and dropped.
  const guards = sessionGuards.map(({ row }) => ({ target: targets.get(row.target) ?? REFERENCE_TARGET, block: row.block }));
  const replayed = options.sessions === undefined ? undefined : await replayRecorded(options.sessions, readOptions, guards, g.workers);
  const base: CompareInputs = { loopsimVersion: VERSION, seed: options.seed, agents: options.agents, population, rowNames: names, reproduce: reproduceLine(options) };
  const about: CompareAbout = { ...(grounding === undefined ? {} : { grounding }), ...(options.sessions === undefined ? {} : { sessions: options.sessions }), ...(labels === undefined ? {} : { labels: { file: labels.file, key: labels.key } }) };
  const simulatedRows: CompareSimulated[] = mine.map(({ row }, k) => ({ name: row.name, ...(simulated[k] === undefined ? {} : { metrics: (simulated[k] as { metrics: ConfigMetrics }).metrics }) }));
  const withNotes = rows.map((row) => {
    const target = targets.get(row.target) ?? REFERENCE_TARGET;
    return { ...row, notes: target.notes, ...(target.capabilities.readsText === true ? { readsText: true as const } : {}) };
  });
  // A shard by session may hold no readable session of its own; the whole run may not.
  if (slice === undefined && grounding !== undefined) refuseNoReadable(run?.read, `--population sessions:${grounding.paths.join(" ")}`);
  if (slice === undefined && options.sessions !== undefined) refuseNoReadable(replayed?.read, `--sessions ${options.sessions.join(" ")}`);
  const read = replayed?.read ?? run?.read;
  const found = { ...(read === undefined ? {} : { read }), ...(labels === undefined ? {} : { labels }) };
  if (shard !== undefined && slice !== undefined) {
    const evidence: SessionEvidence = {
      ...(replayed === undefined ? {} : { recorded: { read: readCounts(replayed.read), perGuard: replayed.perGuardCounts } }),
      ...(run?.packed === undefined ? {} : { grounded: { read: readCounts(run.read), packed: run.packed } }),
    };
    const partial: CompareSessionPartial = { schema: COMPARE_SESSION_PARTIAL_SCHEMA, shard, inputs: base, guards: withNotes, rows: simulatedRows, about, evidence };
    return { kind: "partial", shard, partial, ...found, bySessions: true, summary: `shard ${shard.index}/${shard.of} (its slice of the sessions under all ${rows.length} guards)` };
  }
  const whole = compareWithEvidence(base, withNotes, about, mine.map(({ index }) => index), simulatedRows, run, replayed);
  if (shard !== undefined) return { kind: "partial", shard, partial: { schema: COMPARE_PARTIAL_SCHEMA, shard, inputs: whole.inputs, rows: whole.rows }, ...found, bySessions: false, summary: `shard ${shard.index}/${shard.of} (${whole.rows.length} of ${rows.length} guards)` };
  // Real loops with real outcomes: every guard replayed open-loop on the same sessions (one whole run only: its figures rest on every session).
  const outcomes = grounding?.loops === "real" ? await realOutcomesOf(grounding.paths, readOptions, rows, targets, (options.outcomeLabels ?? []).map(loadDatasetLabels)) : undefined;
  return { kind: "report", report: finishCompare({ ...whole.inputs, ...(outcomes === undefined ? {} : { realOutcomes: outcomes }) }, whole.rows), ...found };
}

/** Every guard on the sessions' real stuck stretches and outcome labels (src/grounded/realOutcomes.ts). */
function realOutcomesOf(paths: readonly string[], readOptions: ReadOptions, rows: readonly CompareRow[], targets: ReadonlyMap<string, Target>, outcomeFiles: readonly DatasetLabels[]): Promise<RealOutcomes> {
  return measureRealOutcomes(paths, readOptions, rows.map((row) => ({ name: row.name, shipped: !isRefKind(row.target, "candidate"), target: targets.get(row.target) ?? REFERENCE_TARGET, config: configFrom(row.block) })), outcomeFiles);
}

/** A guard's simulated metrics (absent when the population is real sessions, or in another shard by session). */
interface CompareSimulated {
  readonly name: string;
  readonly metrics?: ConfigMetrics;
}

type GuardRow = CompareRow & { readonly notes: readonly string[]; readonly readsText?: true };

/** What the merge needs to describe the sessions as the whole run would. */
interface CompareAbout {
  readonly grounding?: GroundedPopulation;
  readonly sessions?: readonly string[];
  readonly labels?: { readonly file: string; readonly key: LabelKey };
}

export const COMPARE_SESSION_PARTIAL_SCHEMA = "loopsim/compare-session-partial@1";

export interface CompareSessionPartial {
  readonly schema: typeof COMPARE_SESSION_PARTIAL_SCHEMA;
  readonly shard: Shard;
  readonly inputs: CompareInputs;
  /** Every guard as the report shows it, so the merge resolves no target. */
  readonly guards: readonly GuardRow[];
  readonly rows: readonly CompareSimulated[];
  readonly about: CompareAbout;
  readonly evidence: SessionEvidence;
}

/**
 * The report's inputs and rows for the guards at `indexes`, with the sessions' evidence put in
 * (grounded metrics, recorded totals, both in the order of `indexes`). The one place this is done,
 * for a whole run, a shard by guard and a merge of shards by session, so all give the same bytes.
 */
function compareWithEvidence(
  base: CompareInputs,
  guards: readonly GuardRow[],
  about: CompareAbout,
  indexes: readonly number[],
  simulated: readonly CompareSimulated[],
  run: Pick<GroundedEvaluation, "metrics" | "read" | "agents" | "grid"> | undefined,
  replayed: { readonly read: RecordedRead; readonly perGuard: readonly SessionTotals[] } | undefined,
): { inputs: CompareInputs; rows: CompareRowResult[] } {
  const inputs: CompareInputs = {
    loopsimVersion: base.loopsimVersion,
    seed: base.seed,
    agents: base.agents,
    population: base.population,
    ...(about.grounding === undefined || run === undefined ? {} : { grounded: groundedSummary(about.grounding, run, true) }),
    rowNames: base.rowNames,
    ...(replayed === undefined ? {} : { sessions: recordedSummary(about.sessions ?? [], about.labels, replayed.read) }),
    reproduce: base.reproduce,
  };
  const grids = run === undefined ? undefined : rowGrids(run);
  const rows: CompareRowResult[] = indexes.map((index, k) => {
    const { notes, readsText, ...row } = guards[index] as GuardRow;
    const metrics = simulated[k]?.metrics ?? run?.metrics[k];
    if (metrics === undefined) throw new Error(`no result for ${row.name}`);
    // Only where a text loop is in the report, so reports on calls alone keep their bytes.
    const blind = readsText !== true && Object.keys(metrics.byFamily).some(isTextFamily) ? { blindToText: true as const } : {};
    const grid = grids?.[k];
    return { ...row, notes, metrics, ...(grid === undefined ? {} : { reactionGrid: grid }), ...blind, ...(replayed === undefined ? {} : { sessions: replayed.perGuard[k] as SessionTotals }) };
  });
  return { inputs, rows };
}

const COMPARE_SHARDS: ShardLayout<CompareInputs, CompareRowResult> = {
  schema: COMPARE_PARTIAL_SCHEMA,
  writer: "loopsim compare",
  inputsAre: "guards, seed, agents, population, sessions, version",
  rowsAre: "guards",
  expected: (inputs, index, of) => inputs.rowNames.filter((_, k) => k % of === index - 1),
  idOf: (row) => (isPlainObject(row) && typeof row.name === "string" && isPlainObject(row.metrics) ? row.name : undefined),
};

/** Joins the partials of `compare --shard I/N` (files, or the folder that holds them) into the whole report (src/io/shardParts.ts checks them). */
export function mergeCompare(parts: readonly string[]): CompareReport {
  const paths = partsIn(parts, "compare-partial");
  if (schemaOf(paths[0]) === COMPARE_SESSION_PARTIAL_SCHEMA) return mergeCompareBySession(paths);
  const partials = readShardParts(paths, COMPARE_SHARDS);
  const first = partials[0] as (typeof partials)[number];
  return finishCompare(first.inputs, partials.flatMap((p) => p.rows));
}

const COMPARE_SESSION_SHARDS: ShardLayout<CompareInputs, CompareSimulated> = {
  schema: COMPARE_SESSION_PARTIAL_SCHEMA,
  writer: "loopsim compare --by sessions",
  inputsAre: "guards, seed, agents, population, version",
  rowsAre: "guards",
  expected: COMPARE_SHARDS.expected,
  idOf: (row) => (isPlainObject(row) && typeof row.name === "string" ? row.name : undefined),
};

/** Shards by session made whole: simulated rows joined, tallies added, agents put back in order, then measured. */
function mergeCompareBySession(paths: readonly string[]): CompareReport {
  const parts = readShardParts(paths, COMPARE_SESSION_SHARDS) as unknown as CompareSessionPartial[];
  const first = parts[0] as CompareSessionPartial;
  parts.forEach((p, i) => {
    if (JSON.stringify(p.about) !== JSON.stringify(first.about)) throw new UserError(`${paths[i]}: its sessions, labels or grounding differ from ${paths[0]}`);
  });
  const names = first.inputs.rowNames;
  const byName = new Map(parts.flatMap((p) => p.rows).map((r) => [r.name, r]));
  const indexes = names.map((_, i) => i);
  const merged = mergeEvidence(parts.map((p) => p.evidence), indexes.map((index) => ({ index })), first.about.grounding);
  const whole = compareWithEvidence(first.inputs, first.guards, first.about, indexes, names.map((n) => byName.get(n) ?? { name: n }), merged.grounded, merged.recorded);
  return finishCompare(whole.inputs, whole.rows);
}
