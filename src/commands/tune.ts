// `loopsim tune`: sweeps configs over a simulated population and writes report.{json,md,html}.
// `--shard I/N` writes the part of the sweep with config indexes = I-1 (mod N); `loopsim merge`
// puts the parts back together into exactly the unsharded report.
import { resolveFittedReaction } from "./calibrateReaction.js";
import { refuseOverwrite } from "../io/overwrite.js";
import { parseShard, type Shard } from "../io/shardSpec.js";
import { differingKeys, partsIn, readShardParts, schemaOf, type ShardLayout } from "../io/shardParts.js";
import { availableParallelism } from "node:os";
import { basename, join } from "node:path";
import cliProgress from "cli-progress";
import { DEFAULT_CONFIG } from "../../models/config.js";
import { validateOpenClawConfig } from "../../models/configValidation.js";
import { isPlainObject } from "../../models/outcomeHash.js";
import { UserError } from "../io/errors.js";
import { plural } from "../format/words.js";
import { VERSION } from "../io/version.js";
import { writeFileAtomic } from "../io/atomicWrite.js";
import { checkOutputDir } from "../io/writable.js";
import { issuesMessage, loadConfig, readConfigFile } from "../io/configFile.js";
import type { ConfigJob, ConfigRow } from "../evaluation/evaluate.js";
import { mergeEvidence, readCounts, sessionSlice, type SessionEvidence } from "../grounded/sessionShards.js";
import { DEFAULT_GRID, expandGrid, parseGrid } from "../tune/grid.js";
import { evaluateAll } from "../evaluation/parallel.js";
import { populationAgents, type Population } from "../evaluation/population.js";
import type { ConfigMetrics } from "../evaluation/metrics.js";
import { groundedSummary, type GroundedEvaluation, type GroundedPopulation } from "../grounded/groundedPopulation.js";
import { evaluateGroundedInThreads } from "../grounded/parallelGrounded.js";
import { rowGrids, type RowGrid } from "../grounded/reactionGrid.js";
import { groundedFrom, groundingFlags, refuseGroundingFlags, refuseReactionGrid, resolvePopulation, type AnyPopulation } from "../grounded/populationSpec.js";
import { PARTIAL_SCHEMA, finishReport, reportJson, type TuneInputs, type TunePartial, type TuneReport } from "../tune/report.js";
import { renderHtml } from "../tune/renderHtml.js";
import { renderMarkdown } from "../tune/renderMarkdown.js";
import { resolveStepwiseTarget } from "../targets/registry.js";
import { CONFIG_FIELDS } from "../targets/target.js";
import type { SessionTotals } from "../sessions/openLoop.js";
import { replayRecorded, type Replayed } from "../sessions/replayAll.js";
import { failOnUnreadable, refuseNoReadable, loadLabels, parseLabelMap, recordedSummary, type LabelKey, type Labels, type RecordedRead } from "../sessions/recorded.js";

export interface TuneOptions {
  readonly config?: string;
  readonly agent?: string;
  readonly grid?: string;
  readonly population: string;
  readonly agents: number;
  readonly seed: number;
  readonly out: string;
  readonly workers?: number;
  readonly shard?: string;
  readonly force: boolean;
  readonly json: boolean;
  /** The guard every config is run on; the reference unless named. */
  readonly target?: string;
  /** Recorded sessions replayed open-loop under every config, and their labels. */
  readonly sessions?: readonly string[];
  readonly labels?: string;
  /** How the labels file's keys name sessions (id: the session's path; instance; file). */
  readonly labelKey?: LabelKey;
  /** Label values mapped to resolved or unresolved: `empty_patch=unresolved,...`. */
  readonly labelMap?: string;
  /** Stop at the first unreadable session file. */
  readonly strict?: boolean;
  /** Loops injected into real sessions run as agents (src/grounded/injection.ts): default, none, shapes. */
  readonly inject?: string;
  /** How a real session run as an agent reacts to warnings, blocks and stops. */
  readonly reaction?: string;
  /** `real`: the stretches mined from the sessions are stuck agents too. */
  readonly loops?: string;
  /** What --shard slices: configs (the default) or sessions. */
  readonly by?: string;
  /** Reaction models the picks are recomputed under (src/grounded/reactionGrid.ts): default, none, HEEDxSKIP. */
  readonly reactionGrid?: string;
}

/** The population a sweep runs: simulated, or real sessions (primary); and real sessions beside a simulated one. */
export function choosePopulations(options: Pick<TuneOptions, "population" | "sessions" | "inject" | "reaction" | "loops" | "reactionGrid">): { primary: AnyPopulation; beside?: GroundedPopulation } {
  // The reaction grid runs by default wherever real sessions run as agents.
  const flags = { ...groundingFlags(options), reactionGrid: options.reactionGrid ?? "default" };
  const primary = resolvePopulation(options.population, flags);
  if (primary.kind === "sessions") return { primary };
  if (flags.inject === undefined && flags.reaction === undefined && flags.loops === undefined) {
    if (options.reactionGrid !== "none") refuseReactionGrid(options.reactionGrid);
    return { primary };
  }
  if (options.sessions === undefined) refuseGroundingFlags(flags);
  return { primary, beside: groundedFrom(options.sessions ?? [], `sessions:${(options.sessions ?? []).join(" ")}`, flags) };
}

/** The report's population line for a grounded primary: no simulated members. */
const groundedAsPopulation = (g: GroundedPopulation): Population => ({ name: g.name, calls: 0, members: [] });

function baselineOf(options: TuneOptions): TuneInputs["baseline"] {
  if (options.config === undefined) {
    if (options.agent !== undefined) throw new UserError(`--agent ${options.agent} needs --config FILE`);
    return { source: "OpenClaw defaults", block: {} };
  }
  const root = readConfigFile(options.config);
  const issues = validateOpenClawConfig(root);
  if (issues.length > 0) throw new UserError(issuesMessage(options.config, issues));
  const { config } = loadConfig(root, options.agent, options.config).resolution;
  const block: Record<string, unknown> = { ...config, detectors: { ...config.detectors }, postCompactionGuard: { ...config.postCompactionGuard } };
  if (config.enabled === undefined) delete block.enabled;
  return { source: `${options.config}${options.agent === undefined ? "" : ` (agent ${options.agent})`}`, block };
}

export function tuneInputs(options: TuneOptions, chosen = choosePopulations(options)): TuneInputs {
  const baseline = baselineOf(options);
  const gridSpec = options.grid ?? DEFAULT_GRID;
  const num = (k: string, d: number) => (typeof baseline.block[k] === "number" ? (baseline.block[k] as number) : d);
  const grid = expandGrid(parseGrid(gridSpec), baseline.block, {
    warning: num("warningThreshold", DEFAULT_CONFIG.warningThreshold),
    critical: num("criticalThreshold", DEFAULT_CONFIG.criticalThreshold),
    global: num("globalCircuitBreakerThreshold", DEFAULT_CONFIG.globalCircuitBreakerThreshold),
  });
  if (grid.points.length === 0) {
    const first = grid.skipped[0];
    throw new UserError(`--grid "${gridSpec}": every point is skipped (${grid.skipped.length} of ${grid.skipped.length}), so nothing would be tuned; for example ${first === undefined ? "the grid is empty" : `${first.label}: ${first.reason}`}`);
  }
  // A point the ordering rules out is said at once, not only in the report: a sweep of "10,20" that
  // silently runs only 20 looks like a sweep of two.
  if (grid.skipped.length > 0) {
    process.stderr.write(`loopsim: --grid "${gridSpec}": ${grid.skipped.length} of ${grid.skipped.length + grid.points.length} points skipped (the report lists them): ${grid.skipped.slice(0, 3).map((s) => `${s.label} (${s.reason})`).join("; ")}${grid.skipped.length > 3 ? "; ..." : ""}\n`);
  }
  const configs: ConfigJob[] = [{ index: 0, label: "OpenClaw defaults", block: {} }];
  if (options.config !== undefined) configs.push({ index: 1, label: `baseline: ${baseline.source}`, block: baseline.block });
  for (const point of grid.points) configs.push({ index: configs.length, label: point.label, block: point.block });
  const reproduce = [
    "loopsim tune",
    `--seed ${options.seed}`,
    ...(chosen.primary.kind === "sessions" ? [] : [`--agents ${options.agents}`]),
    `--grid "${gridSpec}"`,
    ...(options.population === "default" ? [] : [`--population ${options.population}`]),
    ...(options.config === undefined ? [] : [`--config ${options.config}`]),
    ...(options.agent === undefined ? [] : [`--agent ${options.agent}`]),
    ...(options.target === undefined || options.target === "reference" ? [] : [`--target ${options.target}`]),
    ...(options.sessions === undefined ? [] : [`--sessions ${options.sessions.join(" ")}`]),
    ...(options.labels === undefined ? [] : [`--labels ${options.labels}`]),
    ...(options.labelKey === undefined || options.labelKey === "id" ? [] : [`--label-key ${options.labelKey}`]),
    ...(options.labelMap === undefined ? [] : [`--label-map ${options.labelMap}`]),
    ...(options.inject === undefined ? [] : [`--inject ${options.inject}`]),
    ...(options.reaction === undefined ? [] : [`--reaction ${options.reaction}`]),
    ...(options.loops === undefined ? [] : [`--loops ${options.loops}`]),
    ...(options.reactionGrid === undefined ? [] : [`--reaction-grid ${options.reactionGrid}`]),
  ].join(" ");
  return {
    loopsimVersion: VERSION,
    ...(options.target === undefined || options.target === "reference" ? {} : { target: options.target }),
    reproduce,
    seed: options.seed,
    agents: options.agents,
    population: chosen.primary.kind === "simulated" ? chosen.primary.population : groundedAsPopulation(chosen.primary.grounded),
    baseline,
    grid: { spec: gridSpec, skipped: grid.skipped },
    configs,
  };
}

export function writeReport(out: string, report: TuneReport): void {
  writeFileAtomic(join(out, "report.json"), reportJson(report));
  writeFileAtomic(join(out, "report.md"), renderMarkdown(report));
  writeFileAtomic(join(out, "report.html"), renderHtml(report));
}


export async function tuneCommand(given: TuneOptions): Promise<void> {
  const reaction = await resolveFittedReaction(given.reaction, given.population, given.sessions);
  const options: TuneOptions = { ...given, ...(reaction === undefined ? {} : { reaction }) };
  if (options.labels !== undefined && options.sessions === undefined) throw new UserError("--labels needs --sessions PATH...");
  checkOutputDir(options.out); // before the sweep, so a long run never fails at its last step
  const guard = await resolveStepwiseTarget(options.target ?? "reference");
  const ignores = CONFIG_FIELDS.filter((f) => !guard.capabilities.honours.includes(f));
  const labels = options.labels === undefined ? undefined : loadLabels(options.labels, options.labelKey ?? "id", parseLabelMap(options.labelMap));
  const chosen = choosePopulations(options);
  const baseInputs: TuneInputs = {
    ...tuneInputs(options, chosen),
    ...(ignores.length > 0 ? { targetIgnores: ignores } : {}),
  };
  const shard = options.shard === undefined ? undefined : parseShard(options.shard);
  const grounding = chosen.primary.kind === "sessions" ? chosen.primary.grounded : chosen.beside;
  const slice = sessionSlice(options.by, shard, grounding !== undefined || options.sessions !== undefined);
  let inputs = baseInputs;
  const target = shard === undefined ? join(options.out, "report.json") : join(options.out, `partial-${shard.index}-of-${shard.of}.json`);
  refuseOverwrite(options.out, [basename(target)], options.force);
  // The simulated population is always sliced by config; by session, every config runs this shard's sessions.
  const jobs = inputs.configs.filter((c) => shard === undefined || c.index % shard.of === shard.index - 1);
  const sessionJobs = slice === undefined ? jobs : inputs.configs;
  const agents = chosen.primary.kind === "simulated" ? populationAgents(inputs.population, inputs.agents, inputs.seed) : [];
  const showBar = process.stderr.isTTY === true && !options.json;
  // etaBuffer: the ETA averages the last 200 ticks, so worker start-up does not skew the first one.
  const bar = showBar ? new cliProgress.SingleBar({ stream: process.stderr, format: "tune [{bar}] {percentage}% | {value}/{total} simulations | ETA {eta_formatted}", hideCursor: true, etaBuffer: 200 }, cliProgress.Presets.shades_classic) : undefined;
  // Ctrl-C while the bar hides the cursor: give the terminal its cursor back before leaving.
  const interrupted = () => {
    bar?.stop();
    process.stderr.write("\u001b[?25h");
    process.exit(130);
  };
  if (bar !== undefined) process.once("SIGINT", interrupted);
  bar?.start(jobs.length * agents.length, 0);
  const simulated: ConfigRow[] = await evaluateAll(jobs, agents, inputs.population.calls, guard, options.workers ?? availableParallelism(), (n) => bar?.increment(n));
  bar?.stop();
  process.removeListener("SIGINT", interrupted);
  const readOptions = { ...(labels === undefined ? {} : { labels }), strict: options.strict === true, ...(slice === undefined ? {} : { slice }) };
  const primary = chosen.primary.kind === "sessions";
  // The simulated rows, or (real sessions as the population) the configs alone, before the sessions' evidence.
  const base: readonly ConfigJob[] = primary ? jobs : simulated;
  // Real sessions as closed-loop agents, with injected loops: every config on the same agents.
  const evaluation = grounding === undefined ? undefined : await evaluateGroundedInThreads(grounding, sessionJobs.map((job) => ({ index: job.index, target: guard, block: job.block })), inputs.seed, readOptions, options.workers ?? availableParallelism());
  // Recorded sessions: the same guard, each config, open-loop (see src/sessions/openLoop.ts). They
  // stream: each session is read, replayed under every config, and dropped; only its verdicts stay.
  const replayed = options.sessions === undefined ? undefined : await replayRecorded(options.sessions, readOptions, sessionJobs.map((job) => ({ target: guard, block: job.block })), options.workers ?? availableParallelism());
  // A shard by session may hold no readable session of its own; the whole run may not.
  if (slice === undefined && grounding !== undefined) refuseNoReadable(evaluation?.read, `--population sessions:${grounding.paths.join(" ")}`);
  if (slice === undefined && options.sessions !== undefined) refuseNoReadable(replayed?.read, `--sessions ${options.sessions.join(" ")}`);
  const read = replayed?.read ?? evaluation?.read;
  if (shard !== undefined) {
    const partial = slice === undefined ? tunePartial(shard, withEvidence(inputs, base, grounding, evaluation, primary, options.sessions, labels, replayed)) : sessionPartial(shard, inputs, base, grounding, evaluation, primary, options.sessions, labels, replayed);
    const text = JSON.stringify(partial, null, 2) + "\n";
    writeFileAtomic(target, text);
    if (options.json) process.stdout.write(text);
    else process.stderr.write(`loopsim: wrote shard ${shard.index}/${shard.of} (${slice === undefined ? `${jobs.length} of ${inputs.configs.length} configs` : `its slice of the sessions under all ${inputs.configs.length} configs`}) to ${target}\n`);
    if (read !== undefined) failOnUnreadable(read, labels);
    return;
  }
  const whole = withEvidence(inputs, base, grounding, evaluation, primary, options.sessions, labels, replayed);
  inputs = whole.inputs;
  const report = finishReport(inputs, whole.rows);
  writeReport(options.out, report);
  if (options.json) process.stdout.write(reportJson(report));
  else process.stderr.write(`loopsim: ${whole.rows.length} configs x ${chosen.primary.kind === "simulated" ? `${agents.length} agents` : `${plural(inputs.grounded?.sessions ?? 0, "session")} as agents`}; wrote ${join(options.out, "report.{json,md,html}")}\n`);
  if (read !== undefined) failOnUnreadable(read, labels);
}

function tunePartial(shard: Shard, whole: { inputs: TuneInputs; rows: readonly ConfigRow[] }): TunePartial {
  return { schema: PARTIAL_SCHEMA, shard, inputs: whole.inputs, rows: whole.rows };
}

/**
 * The report's inputs and rows with the sessions' evidence put in: the grounded metrics (the main
 * numbers, or beside the simulated ones) and the recorded sessions' totals. The one place this is
 * done, for a whole run and for a merge of shards by session, so both give the same bytes.
 */
function withEvidence(
  inputs: TuneInputs,
  base: readonly ConfigJob[],
  grounding: GroundedPopulation | undefined,
  evaluation: Pick<GroundedEvaluation, "metrics" | "read" | "agents" | "grid"> | undefined,
  primary: boolean,
  sessions: readonly string[] | undefined,
  labels: Pick<Labels, "file" | "key"> | undefined,
  replayed: { readonly read: RecordedRead; readonly perGuard: readonly SessionTotals[] } | undefined,
): { inputs: TuneInputs; rows: ConfigRow[] } {
  let rows = base as ConfigRow[];
  if (grounding !== undefined && evaluation !== undefined) {
    inputs = { ...inputs, grounded: groundedSummary(grounding, evaluation, primary), ...(primary ? { agents: evaluation.read.count } : {}) };
    const grids = rowGrids(evaluation);
    rows = base.map((row, k) => {
      const metrics = evaluation.metrics[k] as ConfigMetrics;
      const grid = grids === undefined ? {} : { reactionGrid: grids[k] as RowGrid };
      return primary ? { ...row, metrics, ...grid } : { ...(row as ConfigRow), grounded: metrics, ...grid };
    });
  }
  if (sessions !== undefined && replayed !== undefined) {
    inputs = { ...inputs, sessions: recordedSummary(sessions, labels, replayed.read) };
    rows = rows.map((row, i) => ({ ...row, sessions: replayed.perGuard[i] as SessionTotals }));
  }
  return { inputs, rows };
}

/** What a shard by session writes: its configs' simulated rows, and the evidence of its sessions under every config. */
interface TuneSessionPartial {
  readonly schema: typeof SESSION_PARTIAL_SCHEMA;
  readonly shard: Shard;
  readonly inputs: TuneInputs;
  readonly rows: readonly ConfigJob[];
  /** What the merge needs to describe the sessions as the whole run would. */
  readonly about: { readonly grounding?: GroundedPopulation; readonly primary: boolean; readonly sessions?: readonly string[]; readonly labels?: { readonly file: string; readonly key: LabelKey } };
  readonly evidence: SessionEvidence;
}

export const SESSION_PARTIAL_SCHEMA = "loopsim/tune-session-partial@1";

function sessionPartial(shard: Shard, inputs: TuneInputs, base: readonly ConfigJob[], grounding: GroundedPopulation | undefined, evaluation: GroundedEvaluation | undefined, primary: boolean, sessions: readonly string[] | undefined, labels: Labels | undefined, replayed: Replayed | undefined): TuneSessionPartial {
  return {
    schema: SESSION_PARTIAL_SCHEMA,
    shard,
    inputs,
    rows: base,
    about: { ...(grounding === undefined ? {} : { grounding }), primary, ...(sessions === undefined ? {} : { sessions }), ...(labels === undefined ? {} : { labels: { file: labels.file, key: labels.key } }) },
    evidence: {
      ...(replayed === undefined ? {} : { recorded: { read: readCounts(replayed.read), perGuard: replayed.perGuardCounts } }),
      ...(evaluation?.packed === undefined ? {} : { grounded: { read: readCounts(evaluation.read), packed: evaluation.packed } }),
    },
  };
}

const TUNE_SHARDS: ShardLayout<TuneInputs, ConfigRow> = {
  schema: PARTIAL_SCHEMA,
  writer: "loopsim tune",
  inputsAre: "seed, grid, population, config, version",
  rowsAre: "configs",
  expected: (inputs, index, of) => inputs.configs.filter((c) => c.index % of === index - 1).map((c) => String(c.index)),
  idOf: (row) => (isPlainObject(row) && Number.isInteger(row.index) && isPlainObject(row.metrics) ? String(row.index) : undefined),
};

const TUNE_SESSION_SHARDS: ShardLayout<TuneInputs, ConfigJob> = {
  schema: SESSION_PARTIAL_SCHEMA,
  writer: "loopsim tune --by sessions",
  inputsAre: "seed, grid, population, config, sessions, version",
  rowsAre: "configs",
  expected: TUNE_SHARDS.expected,
  idOf: (row) => (isPlainObject(row) && Number.isInteger(row.index) ? String(row.index) : undefined),
};

/** Shards by session made whole: simulated rows joined, tallies added, agents put back in order, then measured. */
function mergeBySession(paths: readonly string[]): TuneReport {
  const parts = readShardParts(paths, TUNE_SESSION_SHARDS) as unknown as TuneSessionPartial[];
  const first = parts[0] as TuneSessionPartial;
  const about = first.about;
  parts.forEach((p, i) => {
    if (JSON.stringify(p.about) !== JSON.stringify(about)) throw new UserError(`${paths[i]}: its ${differingKeys(p.about, about).join(", ")} differ from ${paths[0]}'s`);
  });
  const base = parts.flatMap((p) => p.rows).sort((a, b) => a.index - b.index);
  const merged = mergeEvidence(parts.map((p) => p.evidence), first.inputs.configs, about.grounding);
  const whole = withEvidence(first.inputs, base, about.grounding, merged.grounded, about.primary, about.sessions, about.labels, merged.recorded);
  return finishReport(whole.inputs, whole.rows);
}

export function mergeCommand(parts: readonly string[], out: string, force: boolean, json: boolean): void {
  const paths = partsIn(parts, "partial");
  const bySession = schemaOf(paths[0]) === SESSION_PARTIAL_SCHEMA;
  const partials = bySession ? [] : readShardParts(paths, TUNE_SHARDS);
  refuseOverwrite(out, ["report.json"], force);
  const report = bySession ? mergeBySession(paths) : finishReport((partials[0] as (typeof partials)[number]).inputs, partials.flatMap((p) => p.rows));
  writeReport(out, report);
  if (json) process.stdout.write(reportJson(report));
  else process.stderr.write(`loopsim: merged ${paths.length} shards into ${join(out, "report.{json,md,html}")}\n`);
}
