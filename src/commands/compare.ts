// `loopsim compare`: several loop guards (OpenClaw's and other runtimes') on the same simulated
// agents and, with --sessions, on the same recorded sessions. `planCompare` parses and checks every
// option once; `runCompare` returns the report and writes nothing (src/cli/simulationOutput.ts
// writes compare.{json,md,html} or prints). `--shard I/N` computes the rows with index = I-1
// (mod N) into a partial; `mergeCompare` joins them.
import type { StretchSource } from "../grounded/stretchSource.js";
import { partsIn, readShardParts, schemaOf, type ShardLayout } from "../io/shardParts.js";
import { isPlainObject } from "../../models/outcomeHash.js";
import { UserError } from "../io/errors.js";
import { VERSION } from "../io/version.js";
import { COMPARE_PARTIAL_SCHEMA, finishCompare, isTextFamily, type CompareInputs, type CompareReport, type CompareRowResult } from "../compare/report.js";
import { resolveRows, rowNames, type CompareRow } from "../compare/rows.js";
import type { SessionTotals } from "../sessions/openLoop.js";
import { replayRecorded } from "../sessions/replayAll.js";
import { refuseNoReadable, recordedSummary, type LabelKey, type Labels, type ReadOptions, type RecordedRead } from "../sessions/recorded.js";
import { measureRealOutcomes, type OutcomeGuard, type OutcomeProgress, type RealOutcomes } from "../grounded/realOutcomes.js";
import { loadDatasetLabels, type DatasetLabels } from "../realLoops/labels.js";
import type { Target } from "../targets/target.js";
import { resolveStepwiseTarget } from "../targets/registry.js";
import { isRefKind, parseTargetRef } from "../targets/targetRef.js";
import { configFrom } from "../../models/configResolution.js";
import { defaultDrivenParallel } from "../agreement/agreement.js";
import { evaluateAll } from "../evaluation/parallel.js";
import { populationAgents, type Population } from "../evaluation/population.js";
import type { ConfigMetrics } from "../evaluation/metrics.js";
import { groundedSummary, type GroundedEvaluation, type GroundedPopulation } from "../grounded/groundedPopulation.js";
import { evaluateGroundedInThreads } from "../grounded/parallelGrounded.js";
import { rowGrids } from "../grounded/reactionGrid.js";
import { groundingFlags, populationWords, refuseGroundingFlags, refuseReactionGrid, resolvePopulation, sessionsFlag, type AnyPopulation, type PopulationSpec } from "../grounded/populationSpec.js";
import { REFERENCE_TARGET } from "../targets/reference.js";
import type { Shard } from "../io/shardSpec.js";
import { mergeEvidence, readCounts, type SessionEvidence } from "../grounded/sessionShards.js";
import { planGrounding, sessionSliceOf, sharedReproduceWords, type GroundingPlan, type SimulationArgs } from "./simulationPlan.js";

export interface CompareArgs extends SimulationArgs {
  /** Comma-separated guards, or all (src/compare/rows.ts). */
  readonly targets: string;
  /** Labelled sessions a runtime's own CLI (a whole-trace row) runs on besides those holding a stretch (src/grounded/wholeTraceSample.ts). */
  readonly wholeTraceSample?: number;
}

/**
 * A whole-trace row (a runtime's CLI) runs on every session holding a stretch and on this many of
 * the labelled others. On the datasets (50 sessions hold a stretch, 1,663 are labelled) 100 makes
 * about 150 CLI runs a runtime, 4 to 15 s each as measured on 2 shared cores, so three or four
 * runtimes take about an hour; and with ~55 of them resolved, a 0% share of resolved runs stopped
 * is bounded at about 7% (Wilson's upper bound), against 0.4% for the model row on all 974.
 */
export const DEFAULT_WHOLE_TRACE_SAMPLE = 100;
export const MAX_WHOLE_TRACE_SAMPLE = 100_000;

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
  /** Labelled sessions each whole-trace row runs on besides those holding a stretch. */
  readonly wholeTraceSample: number;
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
  const chosen = resolvePopulation(grounding.population, { ...flags, reactionGrid: resolved.reactionGrid ?? "default" });
  if (chosen.kind === "simulated") {
    refuseGroundingFlags(flags);
    if (resolved.reactionGrid !== "none") refuseReactionGrid(resolved.reactionGrid);
  }
  const population: Population = chosen.kind === "simulated" ? chosen.population : { name: chosen.grounded.name, calls: 0, members: [] };
  const slice = sessionSliceOf(grounding, chosen.kind === "sessions" || resolved.sessions !== undefined);
  const wholeTraceSample = resolved.wholeTraceSample ?? DEFAULT_WHOLE_TRACE_SAMPLE;
  if (!Number.isSafeInteger(wholeTraceSample) || wholeTraceSample < 0 || wholeTraceSample > MAX_WHOLE_TRACE_SAMPLE) throw new UserError(`--whole-trace-sample must be a whole number from 0 to ${MAX_WHOLE_TRACE_SAMPLE} (got ${String(wholeTraceSample)})`);
  // A runtime's CLI is known by its name; a user's whole-trace adapter only once loaded (runCompare checks it again then).
  const driven = names.filter((n) => drivenRuntimeOf(n) !== undefined);
  const refusal = driven.length === 0 ? undefined : wholeTraceRefusal(driven, resolved, chosen, grounding.shard);
  if (refusal !== undefined) throw new UserError(refusal);
  return { grounding, args: resolved, names, chosen, population, ...(slice === undefined ? {} : { slice }), wholeTraceSample };
}

/** The runtime a driven runtime's name names (`qwen-code` for `qwen-code@0.24.4`); undefined for any other target. */
function drivenRuntimeOf(name: string): string | undefined {
  const parsed = parseTargetRef(name);
  return parsed.ok && parsed.ref.kind === "drivenRuntime" ? parsed.ref.runtime : undefined;
}

/**
 * Why whole-trace rows (runtimes' own CLIs, driven a whole recorded session at a time) cannot run
 * in this comparison, or undefined. They run open-loop in the real-outcomes figures only, so the
 * run must make those (sessions, --loops real, one whole run) and ask for nothing a CLI cannot
 * join: a grid of reactions or injected loops exists only for closed-loop agents, and asked for
 * explicitly it would be silently missing from these rows. The closed-loop sections every
 * `--loops real` report holds leave them out and say so (src/reportParts/realOutcomesSection.ts).
 */
export function wholeTraceRefusal(rows: readonly string[], args: CompareArgs, chosen: AnyPopulation, shard: Shard | undefined): string | undefined {
  if (rows.length === 0) return args.wholeTraceSample === undefined ? undefined : "--whole-trace-sample sizes the sample a runtime's own CLI runs on (e.g. qwen-code@0.24.4); no row of --targets is one";
  const what = `${rows.join(", ")}: ${rows.length === 1 ? "a runtime's own CLI" : "runtimes' own CLIs"}, driven a whole recorded session at a time, run${rows.length === 1 ? "s" : ""} only open-loop in the real-outcomes figures`;
  const named = rows.flatMap((n) => drivenRuntimeOf(n) ?? []);
  const instead = named.length === 0 ? "use an in-process guard instead" : `use the runtime's model instead (${named.join(", ")})`;
  if (chosen.kind !== "sessions" || chosen.grounded.loops !== "real") return `${what} (--population sessions:PATH --loops real --reaction-grid none): a closed-loop agent needs a verdict before its next call, and a CLI cannot be paused between calls; here ${instead}`;
  if (args.reactionGrid !== "none") return `${what}: a recorded agent never saw a verdict, so no grid of reactions applies to them; add --reaction-grid none (or ${instead})`;
  if (chosen.grounded.inject.shapes.length > 0) return `${what}: injected loops run as closed-loop agents, which a CLI cannot be; leave --inject out (or ${instead})`;
  if (shard !== undefined) return `${what}: the real-outcomes figures are made in one whole run; leave --shard out`;
  if (args.sessions !== undefined) return `${what}: --sessions replays every session under every guard; leave --sessions out (--population sessions:PATH holds the sessions)`;
  return undefined;
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

function reproduceLine(o: CompareArgs, given: PopulationSpec): string {
  return [
    "loopsim compare",
    `--targets ${o.targets}`,
    `--seed ${o.seed}`,
    ...(given.kind === "sessions" ? [] : [`--agents ${o.agents}`]),
    ...populationWords(given),
    ...sharedReproduceWords(o),
    ...(o.wholeTraceSample === undefined ? [] : [`--whole-trace-sample ${o.wholeTraceSample}`]),
  ].join(" ");
}

/** Runs a plan into a report (or a shard's partial); writes and prints nothing. */
export async function runCompare(plan: ComparePlan, progress?: OutcomeProgress): Promise<CompareRun> {
  const { grounding: g, chosen, population } = plan;
  const options = plan.args;
  const labels = g.labels;
  const shard = g.shard;
  const resolvedRows = await resolveRows(plan.names, "allow");
  const { targets } = resolvedRows;
  // Whole-trace rows (runtimes' own CLIs) join the real-outcomes figures only; every other part runs the rest.
  const isWholeTrace = (row: CompareRow) => targets.get(row.target)?.wholeTrace !== undefined;
  const refusal = wholeTraceRefusal(resolvedRows.rows.filter(isWholeTrace).map((r) => r.name), options, chosen, shard);
  if (refusal !== undefined) throw new UserError(refusal);
  const rows = resolvedRows.rows.filter((row) => !isWholeTrace(row));
  if (rows.length === 0) throw new UserError(`--targets ${options.targets}: every row is a runtime's own CLI; add at least one in-process guard for the closed-loop sections (e.g. the runtime's model, or none)`);
  const names = rows.map((row) => row.name);
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
  const base: CompareInputs = { loopsimVersion: VERSION, seed: options.seed, agents: options.agents, population, rowNames: names, reproduce: reproduceLine(options, g.population) };
  const about: CompareAbout = { ...(grounding === undefined ? {} : { grounding }), ...(options.sessions === undefined ? {} : { sessions: options.sessions }), ...(labels === undefined ? {} : { labels: { file: labels.file, key: labels.key } }) };
  const simulatedRows: CompareSimulated[] = mine.map(({ row }, k) => ({ name: row.name, ...(simulated[k] === undefined ? {} : { metrics: (simulated[k] as { metrics: ConfigMetrics }).metrics }) }));
  const withNotes = rows.map((row) => {
    const target = targets.get(row.target) ?? REFERENCE_TARGET;
    return { ...row, notes: target.notes, ...(target.capabilities.readsText === true ? { readsText: true as const } : {}) };
  });
  // A shard by session may hold no readable session of its own; the whole run may not.
  if (slice === undefined && grounding !== undefined) refuseNoReadable(run?.read, grounding.paths.map(sessionsFlag).join(" "));
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
  const outcomes = grounding?.loops === "real" ? await realOutcomesOf(grounding.paths, readOptions, resolvedRows.rows, targets, (options.outcomeLabels ?? []).map(loadDatasetLabels), { size: plan.wholeTraceSample, seed: options.seed }, progress, defaultDrivenParallel(g.workers), g.stretchSource) : undefined;
  return { kind: "report", report: finishCompare({ ...whole.inputs, ...(outcomes === undefined ? {} : { realOutcomes: outcomes }) }, whole.rows), ...found };
}

/** Every guard on the sessions' real stuck stretches and outcome labels (src/grounded/realOutcomes.ts). */
async function realOutcomesOf(paths: readonly string[], readOptions: ReadOptions, rows: readonly CompareRow[], targets: ReadonlyMap<string, Target>, outcomeFiles: readonly DatasetLabels[], sampling: { size: number; seed: number }, progress: OutcomeProgress | undefined, parallel: number, source: StretchSource): Promise<RealOutcomes> {
  const guards: OutcomeGuard[] = [];
  for (const row of rows) {
    const target = targets.get(row.target) ?? REFERENCE_TARGET;
    const model = target.wholeTrace === undefined ? undefined : await modelOf(row.target, targets);
    guards.push({ name: row.name, shipped: !isRefKind(row.target, "candidate"), target, config: configFrom(row.block), ...(model === undefined ? {} : { model }) });
  }
  return measureRealOutcomes(paths, readOptions, guards, outcomeFiles, sampling, progress, parallel, source);
}

/** The model loopsim ships of a driven runtime (`qwen-code` for `qwen-code@0.24.4`), if it has one; none for a user's whole-trace adapter. */
async function modelOf(name: string, targets: ReadonlyMap<string, Target>): Promise<{ name: string; target: Target } | undefined> {
  const runtime = drivenRuntimeOf(name);
  if (runtime === undefined) return undefined;
  const model = parseTargetRef(runtime);
  if (!model.ok || model.ref.kind !== "peer") return undefined;
  return { name: runtime, target: targets.get(runtime) ?? (await resolveStepwiseTarget(runtime)) };
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
