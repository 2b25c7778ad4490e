// `loopsim compare`: several loop guards (OpenClaw's and other runtimes') on the same simulated
// agents and, with --sessions, on the same recorded sessions; writes compare.{json,md,html}.
// `--shard I/N` computes the rows with index = I-1 (mod N) into a partial; `--merge` joins them.
import { resolveFittedReaction } from "./calibrateReaction.js";
import { partsIn, readShardParts, type ShardLayout } from "../io/shardParts.js";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { isPlainObject } from "../../models/outcomeHash.js";
import { UserError } from "../io/errors.js";
import { plural } from "../format/words.js";
import { VERSION } from "../io/version.js";
import { COMPARE_PARTIAL_SCHEMA, finishCompare, isTextFamily, type CompareInputs, type CompareReport, type CompareRowResult } from "../compare/report.js";
import { renderCompareHtml } from "../compare/renderHtml.js";
import { renderCompareMarkdown } from "../compare/renderMarkdown.js";
import { resolveRows, rowNames } from "../compare/rows.js";
import { writeFileAtomic } from "../io/atomicWrite.js";
import { refuseOverwrite } from "../io/overwrite.js";
import { checkOutputDir } from "../io/writable.js";
import type { SessionTotals } from "../sessions/openLoop.js";
import { replayRecorded } from "../sessions/replayAll.js";
import { failOnUnreadable, refuseNoReadable, loadLabels, parseLabelMap, recordedSummary, type LabelKey, type RecordedRead } from "../sessions/recorded.js";
import { evaluateAll } from "../evaluation/parallel.js";
import { populationAgents, type Population } from "../evaluation/population.js";
import type { ConfigMetrics } from "../evaluation/metrics.js";
import { groundedSummary, type GroundedSummary } from "../grounded/groundedPopulation.js";
import { evaluateGroundedInThreads } from "../grounded/parallelGrounded.js";
import { rowGrids, type RowGrid } from "../grounded/reactionGrid.js";
import { groundingFlags, refuseGroundingFlags, refuseReactionGrid, resolvePopulation } from "../grounded/populationSpec.js";
import { REFERENCE_TARGET } from "../targets/reference.js";
import { parseShard } from "../io/shardSpec.js";

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
  /** Loops injected into the real sessions of --population sessions:PATH. */
  readonly inject?: string;
  readonly reaction?: string;
  /** `real`: the stretches mined from the sessions are stuck agents too. */
  readonly loops?: string;
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
    ...(o.reactionGrid === undefined ? [] : [`--reaction-grid ${o.reactionGrid}`]),
  ].join(" ");
}

export async function compareCommand(given: CompareOptions): Promise<void> {
  const reaction = await resolveFittedReaction(given.reaction, given.population, undefined);
  const options: CompareOptions = { ...given, ...(reaction === undefined ? {} : { reaction }) };
  if (options.labels !== undefined && options.sessions === undefined) throw new UserError("--labels needs --sessions PATH...");
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
  const mine = rows.map((row, index) => ({ row, index })).filter(({ index }) => shard === undefined || index % shard.of === shard.index - 1);
  const agents = chosen.kind === "simulated" ? populationAgents(population, options.agents, options.seed) : [];
  const jobs = mine.map(({ row, index }) => ({ index, label: row.name, block: row.block, target: row.target }));
  let evaluated: readonly { readonly label: string; readonly metrics: ConfigMetrics; readonly reactionGrid?: RowGrid }[];
  let grounded: GroundedSummary | undefined;
  let groundedRead: RecordedRead | undefined;
  if (chosen.kind === "simulated") evaluated = await evaluateAll(jobs, agents, population.calls, REFERENCE_TARGET, options.workers ?? availableParallelism(), () => undefined, targets);
  else {
    // Real sessions as closed-loop agents: every guard on the same sessions and the same injected loops.
    const run = await evaluateGroundedInThreads(chosen.grounded, mine.map(({ row, index }) => ({ index, target: targets.get(row.target) ?? REFERENCE_TARGET, block: row.block })), options.seed, { ...(labels === undefined ? {} : { labels }), strict: options.strict === true }, options.workers ?? availableParallelism());
    const grids = rowGrids(run);
    evaluated = jobs.map((job, k) => ({ label: job.label, metrics: run.metrics[k] as ConfigMetrics, ...(grids === undefined ? {} : { reactionGrid: grids[k] as RowGrid }) }));
    grounded = groundedSummary(chosen.grounded, run, true);
    groundedRead = run.read;
    refuseNoReadable(groundedRead, `--population sessions:${chosen.grounded.paths.join(" ")}`);
  }
  // Recorded sessions stream: each is read, replayed under every guard of this shard, and dropped.
  const guards = mine.map(({ row }) => ({ target: targets.get(row.target) ?? REFERENCE_TARGET, block: row.block }));
  const replayed = options.sessions === undefined ? undefined : await replayRecorded(options.sessions, { ...(labels === undefined ? {} : { labels }), strict: options.strict === true }, guards, options.workers ?? availableParallelism());
  const read: RecordedRead | undefined = replayed?.read;
  refuseNoReadable(read, `--sessions ${(options.sessions ?? []).join(" ")}`);
  const perRow = replayed?.perGuard ?? [];
  const inputs: CompareInputs = {
    loopsimVersion: VERSION,
    seed: options.seed,
    agents: options.agents,
    population,
    ...(grounded === undefined ? {} : { grounded }),
    rowNames: names,
    ...(read === undefined ? {} : { sessions: recordedSummary(options.sessions ?? [], labels, read) }),
    reproduce: reproduceLine(options),
  };
  const results: CompareRowResult[] = mine.map(({ row }, k) => {
    const target = targets.get(row.target) ?? REFERENCE_TARGET;
    const result = evaluated[k] ?? evaluated.find((e) => e.label === row.name);
    if (result === undefined) throw new Error(`no result for ${row.name}`);
    return {
      ...row,
      notes: target.notes,
      metrics: result.metrics,
      ...(result.reactionGrid === undefined ? {} : { reactionGrid: result.reactionGrid }),
      // Only where a text loop is in the report, so reports on calls alone keep their bytes.
      ...(target.capabilities.readsText !== true && Object.keys(result.metrics.byFamily).some(isTextFamily) ? { blindToText: true as const } : {}),
      ...(read === undefined ? {} : { sessions: perRow[k] as SessionTotals }),
    };
  });
  if (shard !== undefined) {
    const partial: ComparePartial = { schema: COMPARE_PARTIAL_SCHEMA, shard, inputs, rows: results };
    const text = JSON.stringify(partial, null, 2) + "\n";
    if (options.out === undefined) process.stdout.write(text);
    else {
      const file = join(options.out, `compare-partial-${shard.index}-of-${shard.of}.json`);
      writeFileAtomic(file, text);
      process.stderr.write(`loopsim: wrote shard ${shard.index}/${shard.of} (${results.length} of ${rows.length} guards) to ${file}\n`);
    }
    const skipped = read ?? groundedRead;
    if (skipped !== undefined) failOnUnreadable(skipped, labels);
    return;
  }
  emit(finishCompare(inputs, results), options.out, options.json);
  const skipped = read ?? groundedRead;
  if (skipped !== undefined) failOnUnreadable(skipped, labels);
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
  const partials = readShardParts(partsIn(parts, "compare-partial"), COMPARE_SHARDS);
  const first = partials[0] as (typeof partials)[number];
  emit(finishCompare(first.inputs, partials.flatMap((p) => p.rows)), out, json);
}
