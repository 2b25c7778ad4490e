// `loopsim compare`: several loop guards (OpenClaw's and other runtimes') on the same simulated
// agents and, with --sessions, on the same recorded sessions; writes compare.{json,md,html}.
// `--shard I/N` computes the rows with index = I-1 (mod N) into a partial; `--merge` joins them.
import { readTextFile } from "../io/textFile.js";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { configFrom } from "../../models/configResolution.js";
import { isPlainObject } from "../../models/outcomeHash.js";
import { UserError } from "../cli/errors.js";
import { VERSION } from "../cli/version.js";
import { COMPARE_PARTIAL_SCHEMA, finishCompare, type CompareInputs, type CompareReport, type CompareRowResult } from "../compare/report.js";
import { renderCompareHtml } from "../compare/renderHtml.js";
import { renderCompareMarkdown } from "../compare/renderMarkdown.js";
import { resolveRows, rowNames } from "../compare/rows.js";
import { writeFileAtomic } from "../io/atomicWrite.js";
import { ensureWritableDir } from "../io/writable.js";
import { replayOpenLoop, sessionTotals } from "../sessions/openLoop.js";
import { loadLabels, loadRecordedSessions, recordedSummary, type RecordedSession } from "../sessions/recorded.js";
import { evaluateAll } from "../tune/parallel.js";
import { loadPopulation, populationAgents } from "../tune/population.js";
import { REFERENCE_TARGET } from "../targets/reference.js";
import { parseShard } from "./tune.js";

export interface CompareOptions {
  readonly targets: string;
  readonly population: string;
  readonly agents: number;
  readonly seed: number;
  readonly sessions?: readonly string[];
  readonly labels?: string;
  readonly out?: string;
  readonly workers?: number;
  readonly shard?: string;
  readonly json: boolean;
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
    `--agents ${o.agents}`,
    ...(o.population === "default" ? [] : [`--population ${o.population}`]),
    ...(o.sessions === undefined ? [] : [`--sessions ${o.sessions.join(" ")}`]),
    ...(o.labels === undefined ? [] : [`--labels ${o.labels}`]),
  ].join(" ");
}

export async function compareCommand(options: CompareOptions): Promise<void> {
  if (options.labels !== undefined && options.sessions === undefined) throw new UserError("--labels needs --sessions PATH...");
  if (options.out !== undefined) ensureWritableDir(options.out);
  const names = rowNames(options.targets);
  const population = loadPopulation(options.population);
  const labels = options.labels === undefined ? undefined : loadLabels(options.labels);
  const sessions: RecordedSession[] | undefined = options.sessions === undefined ? undefined : await loadRecordedSessions(options.sessions, labels);
  const { rows, targets } = await resolveRows(names);
  const shard = options.shard === undefined ? undefined : parseShard(options.shard);
  const inputs: CompareInputs = {
    loopsimVersion: VERSION,
    seed: options.seed,
    agents: options.agents,
    population,
    rowNames: names,
    ...(sessions === undefined ? {} : { sessions: recordedSummary(options.sessions ?? [], options.labels, sessions) }),
    reproduce: reproduceLine(options),
  };
  const mine = rows.map((row, index) => ({ row, index })).filter(({ index }) => shard === undefined || index % shard.of === shard.index - 1);
  const agents = populationAgents(population, options.agents, options.seed);
  const jobs = mine.map(({ row, index }) => ({ index, label: row.name, block: row.block, target: row.target }));
  const workers = Math.min(options.workers ?? availableParallelism(), availableParallelism(), Math.max(1, jobs.length));
  const evaluated = await evaluateAll(jobs, agents, population.calls, REFERENCE_TARGET, workers, () => undefined, targets);
  const results: CompareRowResult[] = mine.map(({ row }, k) => {
    const target = targets.get(row.target) ?? REFERENCE_TARGET;
    const metrics = (evaluated[k] ?? evaluated.find((e) => e.label === row.name))?.metrics;
    if (metrics === undefined) throw new Error(`no result for ${row.name}`);
    const config = configFrom(row.block);
    return {
      ...row,
      notes: target.notes,
      metrics,
      ...(sessions === undefined ? {} : { sessions: sessionTotals(sessions.map((s) => replayOpenLoop(target, config, s))) }),
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
    return;
  }
  emit(finishCompare(inputs, results), options.out, options.json);
}

function emit(report: CompareReport, out: string | undefined, json: boolean): void {
  const text = JSON.stringify(report, null, 2) + "\n";
  if (out !== undefined) {
    writeFileAtomic(join(out, "compare.json"), text);
    writeFileAtomic(join(out, "compare.md"), renderCompareMarkdown(report));
    writeFileAtomic(join(out, "compare.html"), renderCompareHtml(report));
    process.stderr.write(`loopsim: ${report.rows.length} guards x ${report.agents} agents${report.sessions === undefined ? "" : ` and ${report.sessions.count} sessions`}; wrote ${join(out, "compare.{json,md,html}")}\n`);
  }
  if (json) process.stdout.write(text);
  else if (out === undefined) process.stdout.write(renderCompareMarkdown(report));
}

/** Joins the partials of `compare --shard I/N`: they must share their inputs and cover every shard once. */
export function mergeCompare(parts: readonly string[], out: string | undefined, json: boolean): void {
  if (out !== undefined) ensureWritableDir(out);
  const partials = parts.map((path): ComparePartial => {
    let raw: unknown;
    try {
      raw = JSON.parse(readTextFile(path, "partial comparison"));
    } catch (error) {
      throw new UserError(`${path}: not a readable partial comparison (${(error as Error).message})`);
    }
    if (!isPlainObject(raw) || raw.schema !== COMPARE_PARTIAL_SCHEMA) throw new UserError(`${path}: schema: expected "${COMPARE_PARTIAL_SCHEMA}" (write parts with loopsim compare --shard I/N)`);
    if (!isPlainObject(raw.shard) || !Number.isInteger(raw.shard.index) || !Number.isInteger(raw.shard.of) || !Array.isArray(raw.rows)) throw new UserError(`${path}: shard and rows: malformed partial`);
    return raw as unknown as ComparePartial;
  });
  const first = partials[0];
  if (first === undefined) throw new UserError("--merge needs at least one part");
  const inputs = JSON.stringify(first.inputs);
  partials.forEach((p, i) => {
    if (JSON.stringify(p.inputs) !== inputs) throw new UserError(`${parts[i]}: its inputs (guards, seed, agents, population, sessions, version) differ from ${parts[0]}`);
    if (p.shard.of !== first.shard.of) throw new UserError(`${parts[i]}: shard ${p.shard.index}/${p.shard.of} does not belong with ${first.shard.index}/${first.shard.of}`);
    const expected = first.inputs.rowNames.filter((_, k) => k % first.shard.of === p.shard.index - 1);
    if (JSON.stringify(p.rows.map((r) => r.name)) !== JSON.stringify(expected)) throw new UserError(`${parts[i]}: its rows are not exactly shard ${p.shard.index}/${p.shard.of}'s (${expected.join(", ")})`);
  });
  const seen = new Set(partials.map((p) => p.shard.index));
  const missing = Array.from({ length: first.shard.of }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length > 0) throw new UserError(`missing shard${missing.length === 1 ? "" : "s"} ${missing.map((m) => `${m}/${first.shard.of}`).join(", ")}`);
  if (seen.size !== partials.length) throw new UserError("a shard is given twice");
  emit(finishCompare(first.inputs, partials.flatMap((p) => p.rows)), out, json);
}
