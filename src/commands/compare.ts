// `loopsim compare`: several loop guards (OpenClaw's and other runtimes') on the same simulated
// agents and, with --sessions, on the same recorded sessions; writes compare.{json,md,html}.
// `--shard I/N` computes the rows with index = I-1 (mod N) into a partial; `--merge` joins them.
import { resolveFittedReaction } from "./calibrateReaction.js";
import { partsIn, readShardParts, schemaOf, type ShardLayout } from "../io/shardParts.js";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { isPlainObject } from "../../models/outcomeHash.js";
import { UserError } from "../io/errors.js";
import { plural } from "../format/words.js";
import { VERSION } from "../io/version.js";
import { COMPARE_PARTIAL_SCHEMA, finishCompare, isTextFamily, type CompareInputs, type CompareReport, type CompareRowResult } from "../compare/report.js";
import { renderCompareHtml } from "../compare/renderHtml.js";
import { renderCompareMarkdown } from "../compare/renderMarkdown.js";
import { resolveRows, rowNames, type CompareRow } from "../compare/rows.js";
import { writeFileAtomic } from "../io/atomicWrite.js";
import { refuseOverwrite } from "../io/overwrite.js";
import { checkOutputDir } from "../io/writable.js";
import type { SessionTotals } from "../sessions/openLoop.js";
import { replayRecorded } from "../sessions/replayAll.js";
import { failOnUnreadable, refuseNoReadable, loadLabels, parseLabelMap, recordedSummary, type LabelKey, type ReadOptions, type RecordedRead } from "../sessions/recorded.js";
import { measureRealOutcomes, type RealOutcomes } from "../grounded/realOutcomes.js";
import { loadDatasetLabels, type DatasetLabels } from "../realLoops/labels.js";
import { isCandidateName } from "../targets/candidates/index.js";
import type { Target } from "../targets/target.js";
import { configFrom } from "../../models/configResolution.js";
import { evaluateAll } from "../evaluation/parallel.js";
import { populationAgents, type Population } from "../evaluation/population.js";
import type { ConfigMetrics } from "../evaluation/metrics.js";
import { groundedSummary, type GroundedEvaluation, type GroundedPopulation } from "../grounded/groundedPopulation.js";
import { evaluateGroundedInThreads } from "../grounded/parallelGrounded.js";
import { rowGrids } from "../grounded/reactionGrid.js";
import { groundingFlags, refuseGroundingFlags, refuseReactionGrid, resolvePopulation } from "../grounded/populationSpec.js";
import { REFERENCE_TARGET } from "../targets/reference.js";
import { parseShard, type Shard } from "../io/shardSpec.js";
import { mergeEvidence, readCounts, sessionSlice, type SessionEvidence } from "../grounded/sessionShards.js";

export interface CompareOptions {
  readonly targets: string;
  readonly population: string;
  readonly agents: number;
  readonly seed: number;
  readonly sessions?: readonly string[];
  readonly labels?: string;
  readonly labelKey?: LabelKey;
  readonly labelMap?: string;
  readonly strict?: boolean;
  readonly out?: string;
  readonly workers?: number;
  readonly shard?: string;
  readonly json: boolean;
  readonly force?: boolean;
  /** What --shard slices: guards (the default) or sessions. */
  readonly by?: string;
  /** Loops injected into the real sessions of --population sessions:PATH. */
  readonly inject?: string;
  readonly reaction?: string;
  /** `real`: the stretches mined from the sessions are stuck agents too. */
  readonly loops?: string;
  /** The datasets' own labels files (as published), for the real-outcomes figures of --loops real. */
  readonly outcomeLabels?: readonly string[];
  /** Reaction models the rankings are recomputed under (src/grounded/reactionGrid.ts): default, none, HEEDxSKIP. */
  readonly reactionGrid?: string;
}

interface ComparePartial {
  readonly schema: typeof COMPARE_PARTIAL_SCHEMA;
  readonly shard: { readonly index: number; readonly of: number };
  readonly inputs: CompareInputs;
  readonly rows: readonly CompareRowResult[];
}

function reproduceLine(o: CompareOptions): string {
  return [
    "loopsim compare",
    `--targets ${o.targets}`,
    `--seed ${o.seed}`,
    ...(o.population.startsWith("sessions:") ? [] : [`--agents ${o.agents}`]),
    ...(o.population === "default" ? [] : [`--population ${o.population}`]),
    ...(o.sessions === undefined ? [] : [`--sessions ${o.sessions.join(" ")}`]),
    ...(o.labels === undefined ? [] : [`--labels ${o.labels}`]),
    ...(o.labelKey === undefined || o.labelKey === "id" ? [] : [`--label-key ${o.labelKey}`]),
    ...(o.labelMap === undefined ? [] : [`--label-map ${o.labelMap}`]),
    ...(o.inject === undefined ? [] : [`--inject ${o.inject}`]),
    ...(o.reaction === undefined ? [] : [`--reaction ${o.reaction}`]),
    ...(o.loops === undefined ? [] : [`--loops ${o.loops}`]),
    ...(o.outcomeLabels === undefined ? [] : [`--outcome-labels ${o.outcomeLabels.join(" ")}`]),
    ...(o.reactionGrid === undefined ? [] : [`--reaction-grid ${o.reactionGrid}`]),
  ].join(" ");
}

export async function compareCommand(given: CompareOptions): Promise<void> {
  const reaction = await resolveFittedReaction(given.reaction, given.population, undefined);
  const options: CompareOptions = { ...given, ...(reaction === undefined ? {} : { reaction }) };
  if (options.labels !== undefined && options.sessions === undefined && !options.population.startsWith("sessions:")) throw new UserError("--labels needs --sessions PATH... or --population sessions:PATH");
  if (options.outcomeLabels !== undefined && options.loops !== "real") throw new UserError("--outcome-labels labels the real-outcomes figures of --loops real; add --loops real");
  if (options.out !== undefined) checkOutputDir(options.out);
  const shard = options.shard === undefined ? undefined : parseShard(options.shard);
  if (options.out !== undefined) refuseOverwrite(options.out, shard === undefined ? ["compare.json", "compare.md", "compare.html"] : [`compare-partial-${shard.index}-of-${shard.of}.json`], options.force === true);
  const names = rowNames(options.targets);
  const flags = groundingFlags(options);
  // The reaction grid runs by default wherever real sessions run as agents.
  const chosen = resolvePopulation(options.population, { ...flags, reactionGrid: options.reactionGrid ?? "default" });
  if (chosen.kind === "simulated") {
    refuseGroundingFlags(flags);
    if (options.reactionGrid !== "none") refuseReactionGrid(options.reactionGrid);
  }
  const population: Population = chosen.kind === "simulated" ? chosen.population : { name: chosen.grounded.name, calls: 0, members: [] };
  const labels = options.labels === undefined ? undefined : loadLabels(options.labels, options.labelKey ?? "id", parseLabelMap(options.labelMap));
  const { rows, targets } = await resolveRows(names);
  const slice = sessionSlice(options.by === "guards" ? "configs" : options.by, shard, chosen.kind === "sessions" || options.sessions !== undefined);
  const all = rows.map((row, index) => ({ row, index }));
  // The simulated population is always sliced by guard; by session, every guard runs this shard's sessions.
  const mine = all.filter(({ index }) => shard === undefined || index % shard.of === shard.index - 1);
  const sessionGuards = slice === undefined ? mine : all;
  const agents = chosen.kind === "simulated" ? populationAgents(population, options.agents, options.seed) : [];
  const jobs = mine.map(({ row, index }) => ({ index, label: row.name, block: row.block, target: row.target }));
  const readOptions = { ...(labels === undefined ? {} : { labels }), strict: options.strict === true, ...(slice === undefined ? {} : { slice }) };
  const simulated = chosen.kind === "simulated" ? await evaluateAll(jobs, agents, population.calls, REFERENCE_TARGET, options.workers ?? availableParallelism(), () => undefined, targets) : [];
  // Real sessions as closed-loop agents: every guard on the same sessions and the same injected loops.
  const grounding = chosen.kind === "sessions" ? chosen.grounded : undefined;
  const run = grounding === undefined ? undefined : await evaluateGroundedInThreads(grounding, sessionGuards.map(({ row, index }) => ({ index, target: targets.get(row.target) ?? REFERENCE_TARGET, block: row.block })), options.seed, readOptions, options.workers ?? availableParallelism());
  // Recorded sessions stream: each is read, replayed under every guard of this shard, and dropped.
  const guards = sessionGuards.map(({ row }) => ({ target: targets.get(row.target) ?? REFERENCE_TARGET, block: row.block }));
  const replayed = options.sessions === undefined ? undefined : await replayRecorded(options.sessions, readOptions, guards, options.workers ?? availableParallelism());
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
  if (shard !== undefined && slice !== undefined) {
    const evidence: SessionEvidence = {
      ...(replayed === undefined ? {} : { recorded: { read: readCounts(replayed.read), perGuard: replayed.perGuardCounts } }),
      ...(run?.packed === undefined ? {} : { grounded: { read: readCounts(run.read), packed: run.packed } }),
    };
    const partial: CompareSessionPartial = { schema: COMPARE_SESSION_PARTIAL_SCHEMA, shard, inputs: base, guards: withNotes, rows: simulatedRows, about, evidence };
    writePartial(options, shard, partial, `its slice of the sessions under all ${rows.length} guards`);
  } else {
    const whole = compareWithEvidence(base, withNotes, about, mine.map(({ index }) => index), simulatedRows, run, replayed);
    if (shard !== undefined) writePartial(options, shard, { schema: COMPARE_PARTIAL_SCHEMA, shard, inputs: whole.inputs, rows: whole.rows } satisfies ComparePartial, `${whole.rows.length} of ${rows.length} guards`);
    else {
      // Real loops with real outcomes: every guard replayed open-loop on the same sessions (one whole run only: its figures rest on every session).
      const outcomes = grounding?.loops === "real" ? await realOutcomesOf(grounding.paths, readOptions, rows, targets, (options.outcomeLabels ?? []).map(loadDatasetLabels)) : undefined;
      emit(finishCompare({ ...whole.inputs, ...(outcomes === undefined ? {} : { realOutcomes: outcomes }) }, whole.rows), options.out, options.json);
    }
  }
  if (read !== undefined) failOnUnreadable(read, labels);
}

/** Every guard on the sessions' real stuck stretches and outcome labels (src/grounded/realOutcomes.ts). */
function realOutcomesOf(paths: readonly string[], readOptions: ReadOptions, rows: readonly CompareRow[], targets: ReadonlyMap<string, Target>, outcomeFiles: readonly DatasetLabels[]): Promise<RealOutcomes> {
  return measureRealOutcomes(paths, readOptions, rows.map((row) => ({ name: row.name, shipped: !isCandidateName(row.target), target: targets.get(row.target) ?? REFERENCE_TARGET, config: configFrom(row.block) })), outcomeFiles);
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

interface CompareSessionPartial {
  readonly schema: typeof COMPARE_SESSION_PARTIAL_SCHEMA;
  readonly shard: Shard;
  readonly inputs: CompareInputs;
  /** Every guard as the report shows it, so the merge resolves no target. */
  readonly guards: readonly GuardRow[];
  readonly rows: readonly CompareSimulated[];
  readonly about: CompareAbout;
  readonly evidence: SessionEvidence;
}

function writePartial(options: CompareOptions, shard: Shard, partial: unknown, what: string): void {
  const text = JSON.stringify(partial, null, 2) + "\n";
  if (options.out === undefined) process.stdout.write(text);
  else {
    const file = join(options.out, `compare-partial-${shard.index}-of-${shard.of}.json`);
    writeFileAtomic(file, text);
    process.stderr.write(`loopsim: wrote shard ${shard.index}/${shard.of} (${what}) to ${file}\n`);
  }
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

function emit(report: CompareReport, out: string | undefined, json: boolean): void {
  const text = JSON.stringify(report, null, 2) + "\n";
  if (out !== undefined) {
    writeFileAtomic(join(out, "compare.json"), text);
    writeFileAtomic(join(out, "compare.md"), renderCompareMarkdown(report));
    writeFileAtomic(join(out, "compare.html"), renderCompareHtml(report));
    process.stderr.write(`loopsim: ${report.rows.length} guards x ${report.grounded === undefined ? `${report.agents} agents` : `${plural(report.grounded.sessions, "session")} as agents`}${report.sessions === undefined ? "" : ` and ${report.sessions.count} sessions`}; wrote ${join(out, "compare.{json,md,html}")}\n`);
  }
  if (json) process.stdout.write(text);
  else if (out === undefined) process.stdout.write(renderCompareMarkdown(report));
}

const COMPARE_SHARDS: ShardLayout<CompareInputs, CompareRowResult> = {
  schema: COMPARE_PARTIAL_SCHEMA,
  writer: "loopsim compare",
  inputsAre: "guards, seed, agents, population, sessions, version",
  rowsAre: "guards",
  expected: (inputs, index, of) => inputs.rowNames.filter((_, k) => k % of === index - 1),
  idOf: (row) => (isPlainObject(row) && typeof row.name === "string" && isPlainObject(row.metrics) ? row.name : undefined),
};

/** Joins the partials of `compare --shard I/N` into the whole report (src/io/shardParts.ts checks them). */
export function mergeCompare(parts: readonly string[], out: string | undefined, json: boolean, force = false): void {
  if (out !== undefined) {
    checkOutputDir(out);
    refuseOverwrite(out, ["compare.json", "compare.md", "compare.html"], force);
  }
  const paths = partsIn(parts, "compare-partial");
  if (schemaOf(paths[0]) === COMPARE_SESSION_PARTIAL_SCHEMA) {
    emit(mergeCompareBySession(paths), out, json);
    return;
  }
  const partials = readShardParts(paths, COMPARE_SHARDS);
  const first = partials[0] as (typeof partials)[number];
  emit(finishCompare(first.inputs, partials.flatMap((p) => p.rows)), out, json);
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
