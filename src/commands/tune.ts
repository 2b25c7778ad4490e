// `loopsim tune`: sweeps configs over a simulated population (or real sessions run as agents) into
// a tuning report. `planTune` parses and checks every option once; `runTune` runs the plan and
// returns the report, writing nothing (src/cli/simulationOutput.ts writes report.{json,md,html}).
// `--shard I/N` makes the part of the sweep with config indexes = I-1 (mod N); `mergeTune` puts
// the parts back together into exactly the unsharded report.
import type { Shard } from "../io/shardSpec.js";
import { differingKeys, partsIn, readShardParts, schemaOf, type ShardLayout } from "../io/shardParts.js";
import { DEFAULT_CONFIG } from "../../models/config.js";
import { validateOpenClawConfig } from "../../models/configValidation.js";
import { isPlainObject } from "../../models/outcomeHash.js";
import { UserError } from "../io/errors.js";
import { plural } from "../format/words.js";
import { VERSION } from "../io/version.js";
import { issuesMessage, loadConfig, readConfigFile } from "../io/configFile.js";
import type { ConfigJob, ConfigRow } from "../evaluation/evaluate.js";
import { mergeEvidence, readCounts, type SessionEvidence } from "../grounded/sessionShards.js";
import { DEFAULT_GRID, expandGrid, parseGrid } from "../tune/grid.js";
import { evaluateAll } from "../evaluation/parallel.js";
import { populationAgents, type Population } from "../evaluation/population.js";
import type { ConfigMetrics } from "../evaluation/metrics.js";
import { groundedSummary, type GroundedEvaluation, type GroundedPopulation } from "../grounded/groundedPopulation.js";
import { evaluateGroundedInThreads } from "../grounded/parallelGrounded.js";
import { measureRealOutcomes } from "../grounded/realOutcomes.js";
import { loadDatasetLabels } from "../realLoops/labels.js";
import { configFrom } from "../../models/configResolution.js";
import { isRefKind } from "../targets/targetRef.js";
import { rowGrids, type RowGrid } from "../grounded/reactionGrid.js";
import { groundedFrom, groundingFlags, populationWords, refuseGroundingFlags, refuseReactionGrid, resolvePopulation, type AnyPopulation, type PopulationSpec } from "../grounded/populationSpec.js";
import { PARTIAL_SCHEMA, finishReport, type TuneInputs, type TunePartial, type TuneReport } from "../tune/report.js";
import { resolveStepwiseTarget } from "../targets/registry.js";
import { CONFIG_FIELDS, type Target } from "../targets/target.js";
import type { SessionTotals } from "../sessions/openLoop.js";
import { replayRecorded, type Replayed } from "../sessions/replayAll.js";
import { refuseNoReadable, recordedSummary, type LabelKey, type Labels, type RecordedRead } from "../sessions/recorded.js";
import { DEFAULT_TUNE_OUT } from "./tuneDefaults.js";
import { planGrounding, sessionSliceOf, sharedReproduceWords, type GroundingPlan, type SimulationArgs } from "./simulationPlan.js";

/** What `loopsim tune` takes: the options it shares with compare, and the sweep's own. */
export interface TuneArgs extends SimulationArgs {
  /** OpenClaw config whose effective block is the baseline the grid varies. */
  readonly config?: string;
  /** The agent whose agents.list override applies. */
  readonly agent?: string;
  /** Fields to vary (src/tune/grid.ts); DEFAULT_GRID when absent. */
  readonly grid?: string;
  /** The guard every config is run on; the reference unless named. */
  readonly target?: string;
}


/** A sweep, parsed and checked: what `runTune` runs. */
export interface TunePlan {
  readonly grounding: GroundingPlan;
  readonly args: TuneArgs;
  /** The folder the report (or partial) goes to; absent with --json and no --out: stdout only. */
  readonly out?: string;
  readonly guard: Target;
  readonly chosen: { readonly primary: AnyPopulation; readonly beside?: GroundedPopulation };
  /** The report's inputs before any session was read. */
  readonly inputs: TuneInputs;
  /** This shard's slice of the sessions (`--by sessions`). */
  readonly slice?: Shard;
  /** What the user should hear before the run (grid points skipped). */
  readonly notices: readonly string[];
}

/** The population a sweep runs: simulated, or real sessions (primary); and real sessions beside a simulated one. */
export function choosePopulations(options: Pick<TuneArgs, "sessions" | "inject" | "reaction" | "loops" | "reactionGrid">, population: PopulationSpec): { primary: AnyPopulation; beside?: GroundedPopulation } {
  // The reaction grid runs by default wherever real sessions run as agents.
  const flags = { ...groundingFlags(options), reactionGrid: options.reactionGrid ?? "default" };
  const primary = resolvePopulation(population, flags);
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

function baselineOf(options: TuneArgs): TuneInputs["baseline"] {
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

function tuneInputs(options: TuneArgs, given: PopulationSpec, chosen: TunePlan["chosen"]): { inputs: TuneInputs; notices: string[] } {
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
  const notices = grid.skipped.length === 0 ? [] : [`--grid "${gridSpec}": ${grid.skipped.length} of ${grid.skipped.length + grid.points.length} points skipped (the report lists them): ${grid.skipped.slice(0, 3).map((s) => `${s.label} (${s.reason})`).join("; ")}${grid.skipped.length > 3 ? "; ..." : ""}`];
  const configs: ConfigJob[] = [{ index: 0, label: "OpenClaw defaults", block: {} }];
  if (options.config !== undefined) configs.push({ index: 1, label: `baseline: ${baseline.source}`, block: baseline.block });
  for (const point of grid.points) configs.push({ index: configs.length, label: point.label, block: point.block });
  const reproduce = [
    "loopsim tune",
    `--seed ${options.seed}`,
    ...(chosen.primary.kind === "sessions" ? [] : [`--agents ${options.agents}`]),
    `--grid "${gridSpec}"`,
    ...populationWords(given),
    ...(options.config === undefined ? [] : [`--config ${options.config}`]),
    ...(options.agent === undefined ? [] : [`--agent ${options.agent}`]),
    ...(options.target === undefined || options.target === "reference" ? [] : [`--target ${options.target}`]),
    ...sharedReproduceWords(options),
  ].join(" ");
  const inputs: TuneInputs = {
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
  return { inputs, notices };
}

/** The files a tune run writes into its folder: the report, or this shard's partial. */
export function tuneOutputs(shard: Shard | undefined): string[] {
  return shard === undefined ? ["report.json"] : [`partial-${shard.index}-of-${shard.of}.json`];
}

/**
 * Parses and checks everything `loopsim tune` is given, before anything runs: the shared options
 * (src/commands/simulationPlan.ts), the guard, the baseline config and grid, the population.
 * `--json` without `--out` prints the report and writes nothing; otherwise the report goes to
 * `--out` (default reports/latest).
 */
export async function planTune(given: TuneArgs): Promise<TunePlan> {
  if (given === null || typeof given !== "object") throw new UserError("planTune: args must be an object of tune's options (population, agents, seed, grid, ...)");
  const out = given.out ?? (given.json === true ? undefined : DEFAULT_TUNE_OUT);
  const args: TuneArgs = { ...given, ...(out === undefined ? {} : { out }) };
  const grounding = await planGrounding(args, "configs", tuneOutputs, args.sessions);
  const resolved: TuneArgs = { ...args, ...grounding.args };
  const guard = await resolveStepwiseTarget(resolved.target ?? "reference");
  const ignores = CONFIG_FIELDS.filter((f) => !guard.capabilities.honours.includes(f));
  const chosen = choosePopulations(resolved, grounding.population);
  const slice = sessionSliceOf(grounding, chosen.primary.kind === "sessions" || chosen.beside !== undefined || resolved.sessions !== undefined);
  const { inputs, notices } = tuneInputs(resolved, grounding.population, chosen);
  return { grounding, args: resolved, ...(out === undefined ? {} : { out }), guard, chosen, inputs: { ...inputs, ...(ignores.length > 0 ? { targetIgnores: ignores } : {}) }, ...(slice === undefined ? {} : { slice }), notices };
}

/** What a tune run made: the whole report, or a shard's partial; and what reading the sessions found. */
export type TuneRun =
  | { readonly kind: "report"; readonly report: TuneReport; readonly read?: RecordedRead; readonly labels?: Labels; readonly summary: string }
  | { readonly kind: "partial"; readonly shard: Shard; readonly partial: TunePartial | TuneSessionPartial; readonly read?: RecordedRead; readonly labels?: Labels; readonly summary: string; readonly bySessions: boolean };

/** How far a run has come, for a progress bar: `start` once with the total, then `tick` with each step. */
export interface Progress {
  readonly start: (total: number) => void;
  readonly tick: (n: number) => void;
}

/** Runs a plan into a report (or a shard's partial); writes and prints nothing. */
export async function runTune(plan: TunePlan, progress?: Progress): Promise<TuneRun> {
  const { grounding: g, chosen, guard } = plan;
  const options = plan.args;
  const labels = g.labels;
  const shard = g.shard;
  const grounding = chosen.primary.kind === "sessions" ? chosen.primary.grounded : chosen.beside;
  const slice = plan.slice;
  const inputs = plan.inputs;
  // The simulated population is always sliced by config; by session, every config runs this shard's sessions.
  const jobs = inputs.configs.filter((c) => shard === undefined || c.index % shard.of === shard.index - 1);
  const sessionJobs = slice === undefined ? jobs : inputs.configs;
  const agents = chosen.primary.kind === "simulated" ? populationAgents(inputs.population, inputs.agents, inputs.seed) : [];
  progress?.start(jobs.length * agents.length);
  const simulated: ConfigRow[] = await evaluateAll(jobs, agents, inputs.population.calls, guard, g.workers, (n) => progress?.tick(n));
  const readOptions = { ...(labels === undefined ? {} : { labels }), strict: g.strict, ...(slice === undefined ? {} : { slice }) };
  const primary = chosen.primary.kind === "sessions";
  // The simulated rows, or (real sessions as the population) the configs alone, before the sessions' evidence.
  const base: readonly ConfigJob[] = primary ? jobs : simulated;
  // Real sessions as closed-loop agents, with injected loops: every config on the same agents.
  const evaluation = grounding === undefined ? undefined : await evaluateGroundedInThreads(grounding, sessionJobs.map((job) => ({ index: job.index, target: guard, block: job.block })), inputs.seed, readOptions, g.workers);
  // Recorded sessions: the same guard, each config, open-loop (see src/sessions/openLoop.ts). They
  // stream: each session is read, replayed under every config, and dropped; only its verdicts stay.
  const replayed = options.sessions === undefined ? undefined : await replayRecorded(options.sessions, readOptions, sessionJobs.map((job) => ({ target: guard, block: job.block })), g.workers);
  // A shard by session may hold no readable session of its own; the whole run may not.
  if (slice === undefined && grounding !== undefined) refuseNoReadable(evaluation?.read, `--population sessions:${grounding.paths.join(" ")}`);
  if (slice === undefined && options.sessions !== undefined) refuseNoReadable(replayed?.read, `--sessions ${options.sessions.join(" ")}`);
  const read = replayed?.read ?? evaluation?.read;
  const found = { ...(read === undefined ? {} : { read }), ...(labels === undefined ? {} : { labels }) };
  if (shard !== undefined) {
    const partial = slice === undefined ? tunePartial(shard, withEvidence(inputs, base, grounding, evaluation, primary, options.sessions, labels, replayed)) : sessionPartial(shard, inputs, base, grounding, evaluation, primary, options.sessions, labels, replayed);
    return { kind: "partial", shard, partial, ...found, bySessions: slice !== undefined, summary: `shard ${shard.index}/${shard.of} (${slice === undefined ? `${jobs.length} of ${inputs.configs.length} configs` : `its slice of the sessions under all ${inputs.configs.length} configs`})` };
  }
  const whole = withEvidence(inputs, base, grounding, evaluation, primary, options.sessions, labels, replayed);
  // Real loops with real outcomes (--loops real): every config replayed open-loop on the sessions, against their stretches and labels.
  const outcomes =
    grounding?.loops === "real"
      ? await measureRealOutcomes(grounding.paths, readOptions, inputs.configs.map((c) => ({ name: c.index === 0 ? "OpenClaw defaults" : `#${c.index} ${c.label}`, shipped: !isRefKind(guard.name, "candidate"), target: guard, config: configFrom(c.block) })), (options.outcomeLabels ?? []).map(loadDatasetLabels), undefined, undefined, 1, g.stretchSource)
      : undefined;
  const report = finishReport({ ...whole.inputs, ...(outcomes === undefined ? {} : { realOutcomes: outcomes }) }, whole.rows);
  return { kind: "report", report, ...found, summary: `${whole.rows.length} configs x ${chosen.primary.kind === "simulated" ? `${agents.length} agents` : `${plural(whole.inputs.grounded?.sessions ?? 0, "session")} as agents`}` };
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
export interface TuneSessionPartial {
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

/** The partial results of `tune --shard I/N` (files, or the folder that holds them) joined into the unsharded report. */
export function mergeTune(parts: readonly string[]): TuneReport {
  const paths = partsIn(parts, "partial");
  if (schemaOf(paths[0]) === SESSION_PARTIAL_SCHEMA) return mergeBySession(paths);
  const partials = readShardParts(paths, TUNE_SHARDS);
  return finishReport((partials[0] as (typeof partials)[number]).inputs, partials.flatMap((p) => p.rows));
}
