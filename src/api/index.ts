/**
 * loopsim as a library: everything the CLI does to a loop guard, callable from a project's own
 * tests. Load a target (a built-in, a shipped OpenClaw release, a local OpenClaw build, or an
 * adapter of your own), run a trace through it, check its conformance to the behaviour contract,
 * and reach the laws, the fast-check arbitraries, the scenario files and the session importers
 * the checks are made of.
 *
 * ```ts
 * import { conform, loadTarget } from "loopsim";
 * const report = conform(await loadTarget("./my-guard.mjs"));
 * console.log(report.counts); // { pass, fail, na, untested }
 * ```
 *
 * What is public, and what a version number promises about it, is in docs/SEMVER.md.
 *
 * @packageDocumentation
 */
import { configFrom } from "../../models/configResolution.js";
import type { ResolvedConfig } from "../../models/config.js";
import type { ToolEvent } from "../../models/events.js";
import { SEMANTIC_LAWS } from "../../properties/laws/index.js";
import type { Law } from "../../properties/laws/law.js";
import type { CheckResult } from "../conform/check.js";
import { summarise, type TargetConformance } from "../conform/matrix.js";
import { conformTarget } from "../conform/run.js";
import { openSession } from "../import/session.js";
import type { SessionFormat } from "../import/types.js";
import { resolveTarget, targetFromObject } from "../targets/registry.js";
import { targetRefOf } from "../targets/targetRef.js";
import { UserError } from "../io/errors.js";
import { unknownName } from "../format/didYouMean.js";
import { FORMATS } from "../import/types.js";
import type { OpenOptions } from "../import/session.js";
import { lawChecks as lawChecksOf, type LawRunOptions } from "../conform/lawChecks.js";
import { DEFAULT_CONFORM_SEED, libraryField, resolveConformOptions } from "../conform/conformOptions.js";
import { withReplayForThisMachine } from "./replayCommand.js";
import { checkedEvents, checkedResolvedConfig, checkedTarget, checkLoopDetectionTypes } from "./checks.js";
import { runTarget, type Target, type TargetOutput } from "../targets/target.js";

export type { ResolvedConfig } from "../../models/config.js";
export type { CallEvent, CompactionEvent, OutcomeEvent, ToolEvent } from "../../models/events.js";
export type { Law } from "../../properties/laws/law.js";
export type { CheckResult, CheckStatus, Counterexample } from "../conform/check.js";
export type { Cell, ConformanceReport, TargetConformance } from "../conform/matrix.js";
export type { SpecRule } from "../conform/rules.js";
export type { ConfigField, StateSize, Target, TargetCapabilities, TargetOutput, TargetSession } from "../targets/target.js";
export type { LoadedScenario, ScenarioLoad } from "../scenario/load.js";
export type { Replayed } from "../scenario/replay.js";
export type { Scenario } from "../scenario/scenario.js";
export type { OpenedSession, OpenOptions } from "../import/session.js";
export type { LawRunOptions } from "../conform/lawChecks.js";
export type { SessionFormat } from "../import/types.js";
export type { ConfigArbitraryOptions, LoopDetectionBlock } from "../arbitraries/configArbitrary.js";
export type { Segment, TraceArbitraryOptions } from "../arbitraries/traceArbitrary.js";
export type { JUnitCase, JUnitSuite } from "../ci/junit.js";
export type { Annotation } from "../ci/annotations.js";
export type { MinedCall, MineParameters, Stretch, StretchKind, StretchRule } from "../realLoops/mine.js";
export type { Catalogue, CatalogueStretch } from "../realLoops/catalogue.js";

export { REFERENCE_TARGET } from "../targets/reference.js";
export { DEFAULT_MINE_PARAMETERS, kindOfRule, mineStretches, STRETCH_RULES } from "../realLoops/mine.js";
export { BUILT_IN_TARGETS } from "../targets/registry.js";
export { SPEC_RULES } from "../conform/rules.js";
export { CONFIG_FIELDS } from "../targets/target.js";
export { probeChecks } from "../conform/probeChecks.js";
export { scenarioChecks } from "../conform/scenarioChecks.js";
export { differentialChecks } from "../conform/differential.js";
export { configBlockArbitrary } from "../arbitraries/configArbitrary.js";
export { segmentArbitrary, segmentsToEvents, traceArbitrary } from "../arbitraries/traceArbitrary.js";
export { loadScenario } from "../scenario/load.js";
export { replayScenario } from "../scenario/replay.js";
export { detectFormat } from "../import/detect.js";
export { openSession } from "../import/session.js";
export { renderJUnit } from "../ci/junit.js";
export { renderAnnotations } from "../ci/annotations.js";
export { conformanceCases } from "../ci/conformCases.js";
// tune and compare as the command line runs them: plan (every check the CLI makes), then run
// into a report; writing it is the caller's (the renderers are not public, the JSON is).
export type { SimulationArgs } from "../commands/simulationPlan.js";
export type { TuneArgs, TunePlan, TuneRun, Progress } from "../commands/tune.js";
export type { CompareArgs, ComparePlan, CompareRun } from "../commands/compare.js";
export type { TuneReport } from "../tune/report.js";
export type { CompareReport } from "../compare/report.js";
export { planTune, runTune, mergeTune } from "../commands/tune.js";
export { planCompare, runCompare, mergeCompare } from "../commands/compare.js";
// scan and loops the same way: the plan makes every check the command line makes; the run hands
// back the report (scan: its documents, to a sink, while they are spooled) and writes nothing.
export type { ScanArgs, ScanCase, ScanOptions, ScanPlan, ScanRun, ScanSink } from "../commands/scan.js";
export type { ScanDocuments } from "../scan/reportWriter.js";
export type { Place } from "../ci/scanCases.js";
export type { CiOutputs } from "../ci/emit.js";
export type { BadFile } from "../import/sessionRefs.js";
export type { Shard } from "../io/shardSpec.js";
export { planScan, runScan } from "../commands/scan.js";
export { writePieces, type Pieces, type Spool } from "../io/spool.js";
export type { JudgedFile, LoopsArgs, LoopsPlan } from "../commands/loopsPlan.js";
export type { LoopsRun, LoopsSink } from "../commands/loops.js";
export { planLoops } from "../commands/loopsPlan.js";
export { runLoops } from "../commands/loops.js";
export type { CalibrateArgs, CalibratePlan } from "../commands/calibratePlan.js";
export type { CalibrateRun, CalibrationReport } from "../commands/calibrate.js";
export type { ReactionFit } from "../grounded/reactionFit.js";
export type { RecordedRead } from "../sessions/recorded.js";
export { planCalibrate } from "../commands/calibratePlan.js";
export { runCalibrate } from "../commands/calibrate.js";
export type { ReplayArgs, ReplayOptions, ReplayOutcome, ReplayPlan, ReplayRun } from "../commands/replay.js";
export { planReplay, runReplay } from "../commands/replay.js";
export type { RecordArgs, RecordPlan, RecordRun } from "../commands/scenarioRecord.js";
export type { Fact } from "../scenario/minimizeFact.js";
export { planScenarioRecord, runScenarioRecord } from "../commands/scenarioRecord.js";
export type { ConfigCheck } from "../commands/config.js";
export { checkConfigFile } from "../commands/config.js";
export type { FitChangingArgsArgs, FitChangingArgsRun } from "../commands/fitChangingArgs.js";
export { fitChangingArgs } from "../commands/fitChangingArgs.js";
export type { TraceArgs, TraceOptions } from "../commands/trace.js";
export { planTraceFile, runTraceFile } from "../commands/trace.js";
export type { TargetListing } from "../commands/targets.js";
export { fetchTargets, listTargets } from "../commands/targets.js";
export type { OutdatedReport, OutdatedRow } from "../commands/targetsOutdated.js";
export { outdatedTargets } from "../commands/targetsOutdated.js";
export type { ConformArgs, ConformPlan, ConformProgress, ConformRun } from "../commands/conform.js";
export type { ResolvedConformOptions } from "../conform/conformOptions.js";
export { mergeConformanceReports, planConform, runConform } from "../commands/conform.js";
export type { AgreementOptions, AgreementPlan, AgreementRun, AgreementSink } from "../commands/agreement.js";
export { mergeAgreementReports, planAgreement, runAgreement } from "../commands/agreement.js";
export type { FieldCellReplay, FieldCommandOptions, FieldPlan, FieldReplayOptions, FieldRun, FieldSink } from "../commands/field.js";
export { planField, replayFieldCell, runField } from "../commands/field.js";
export type { SimulateOptions, SimulateRun } from "../commands/simulate.js";
export type { ModelPreset } from "../sim/agentModel.js";
export { runSimulation } from "../commands/simulate.js";
export type { ImportOptions, ImportRun, ImportSink } from "../commands/import.js";
export { importSessions } from "../commands/import.js";

/**
 * The laws: SPEC invariants over generated inputs, each a fast-check property that holds for any
 * target which has what the law {@link Law.needs | needs}. `conform` runs every one of them.
 */
export const laws: readonly Law<never>[] = SEMANTIC_LAWS;

/**
 * Loads a target by the name `--target` takes: `reference`, `oracle`, `zoo:NAME`, a peer's name
 * (`goose:N` too), `openclaw@VERSION` or `openclaw@latest` (fetched with npm into the cache once),
 * `openclaw@PATH` (a local build: a checkout's dist/, an unpacked package or an npm pack
 * tarball), `RUNTIME@VERSION` for a runtime that runs here, or the path of an adapter module
 * (`.mjs`, `.js` or `.cjs`, relative to the working directory) that exports a target. A guard
 * written in TypeScript is built first, or handed to {@link asTarget} as an object: Node 20
 * cannot load a `.ts` file by path.
 *
 * @param name - the target's name, as `--target` takes it.
 * @throws a user error (with `exitCode` 2) naming what is wrong when the name is not a string,
 * names nothing, or loads nothing; the message says what to write instead.
 */
export function loadTarget(name: string): Promise<Target> {
  try {
    return resolveTarget(targetRefOf(name, "loadTarget: name"));
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Checks an adapter object (as an adapter module would export it) and completes it as a target:
 * `summary`, `notes` and `breaks` may be left out. This is how a guard written in TypeScript is
 * checked from a project's own (TypeScript) tests, without building it first:
 *
 * ```ts
 * import { asTarget, conform } from "loopsim";
 * import { myGuard } from "../src/my-guard.js";
 * // The second argument is what replay lines load it by: the module built from the source.
 * const report = conform(asTarget(myGuard, "./dist/my-guard.js"));
 * ```
 *
 * @param adapter - an object with `name`, `capabilities` and `start(config)`.
 * @param loadedFrom - what `--target` would load it by (a built module's path), for replay lines;
 * without it, a replay line names the target by its `name`, which only a built-in answers to.
 * @throws a user error listing every problem when the object is not a target.
 */
export function asTarget(adapter: unknown, loadedFrom?: string): Target {
  const label = typeof (adapter as { name?: unknown } | undefined)?.name === "string" ? (adapter as { name: string }).name : "adapter";
  if (loadedFrom !== undefined && typeof loadedFrom !== "string") throw new UserError(`asTarget: loadedFrom must be a path (a string) (got ${typeof loadedFrom})`);
  return targetFromObject(adapter, label, loadedFrom);
}

/**
 * The effective config of a `tools.loopDetection` block, defaults filled in and out-of-range
 * values repaired as the contract says (a threshold of 0 becomes the default; a critical
 * threshold at or below the warning one is raised above it).
 *
 * @param loopDetection - the block's own fields (`{ enabled: true, warningThreshold: 5 }`); none for the defaults.
 * @throws a user error when the block is not an object, or a field has the wrong TYPE (a string
 * where a count goes) or is unknown: repairing covers values, not types.
 */
export function resolveConfig(loopDetection: unknown = {}): ResolvedConfig {
  checkLoopDetectionTypes(loopDetection, "resolveConfig", "loopDetection");
  return configFrom(loopDetection);
}

/**
 * Runs events through a fresh session of the target and returns every output, in order.
 *
 * @param target - a target from {@link loadTarget} or {@link asTarget}.
 * @param events - loopsim trace events, each checked as a trace file's line is.
 * @param config - a config from {@link resolveConfig} (default: the defaults).
 * @throws a user error naming the argument (and the event's index) when one is malformed.
 */
export function runTrace(target: Target, events: Iterable<ToolEvent>, config: ResolvedConfig = resolveConfig()): TargetOutput[] {
  const checkedTargetValue = checkedTarget(target, "runTrace: target");
  const checked = checkedEvents(events, "runTrace", "events");
  return runTarget(checkedTargetValue, checkedResolvedConfig(config, "runTrace: config"), checked);
}

/**
 * Reads a trace (loopsim's JSONL events) or a recorded session of any format loopsim imports,
 * validated as the CLI does.
 *
 * @param file - the file's path.
 * @param format - `auto` (detected from the file) or one of the formats `loopsim import` reads.
 * @param options - see {@link OpenOptions}.
 * @throws a user error naming the file, line and rule broken on bad input.
 */
export async function readEvents(file: string, format: SessionFormat | "auto" = "auto", options: OpenOptions = {}): Promise<ToolEvent[]> {
  if (typeof file !== "string" || file === "") throw new UserError(`readEvents: file must be a path (got ${typeof file})`);
  if (format !== "auto" && !(FORMATS as readonly string[]).includes(format)) throw new UserError(`readEvents: format ${unknownName("format", String(format), ["auto", ...FORMATS])}`);
  const opened = await openSession(file, format, options);
  const events: ToolEvent[] = [];
  for await (const imported of opened.events) events.push(imported.event);
  return events;
}

/** What `conform` runs, and with which seeds. */
export interface ConformOptions {
  /** Seed of the laws and the differential run (the CLI's default: 20261202); a whole number from 0. */
  readonly seed?: number;
  /** Multiplies the cases of every law and of the differential run (default 1; above 0, at most 1,000). */
  readonly depth?: number;
  /** Counterexample scenarios are written under this folder; none when absent. */
  readonly outDir?: string;
  /** Run only this law (with `path`, replays a shrunk failure); an unknown law is refused. */
  readonly law?: string;
  /** fast-check path of a shrunk counterexample, as a failure prints it. */
  readonly path?: string;
}

/** The CLI's default seed: a run with it is the run `loopsim conform` makes. */
export const DEFAULT_SEED = DEFAULT_CONFORM_SEED;

/**
 * The conformance of one target, as one column of `loopsim conform`'s matrix: the checks
 * (scenarios, probes, laws, the differential run) and each contract rule's cell. A failing check
 * carries its minimal counterexample and the command that replays it.
 *
 * @param target - a target from {@link loadTarget} or {@link asTarget}.
 * @param options - read as `loopsim conform` reads its flags: an unknown law, a seed that is not a
 * whole number or a depth out of bounds is refused before anything runs.
 * @throws a user error (exitCode 2) naming `conform` and the argument.
 */
export function conform(target: Target, options: ConformOptions = {}): TargetConformance {
  const checked = checkedTarget(target, "conform: target");
  const resolved = resolveConformOptions(options, libraryField("conform"), ["seed", "depth", "outDir", "law", "path"]);
  const column = conformTarget(checked, resolved);
  return { ...column, checks: column.checks.map(withReplayForThisMachine) };
}

/** What {@link lawChecks} runs: every field optional, read as `conform` reads its own. */
export interface LawCheckOptions {
  /** Seed of the laws (default 20261202). */
  readonly seed?: number;
  /** Multiplies each law's number of cases (default 1; above 0, at most 1,000). */
  readonly depth?: number;
  /** Only this law; an unknown law is refused. */
  readonly only?: string;
  /** fast-check path of a shrunk counterexample (with `only`). */
  readonly path?: string;
  /** Counterexample scenarios are written under this folder; none when absent. */
  readonly outDir?: string;
}

/**
 * Every law of the property suite as a check on the target (n/a where it lacks what a law needs,
 * or where the law's cases never reached what it must reach).
 *
 * @param target - a target from {@link loadTarget} or {@link asTarget}.
 * @param options - seed, depth, one law, a path to replay, a folder for counterexamples.
 * @throws a user error (exitCode 2) naming `lawChecks` and the argument.
 */
export function lawChecks(target: Target, options?: LawCheckOptions): CheckResult[];
/**
 * @deprecated since 0.2: pass one options object, `lawChecks(target, { outDir, seed, depth })`.
 * This form stays until 1.0.
 */
export function lawChecks(target: Target, outDir: string | undefined, options: LawRunOptions, onTick?: () => void): CheckResult[];
export function lawChecks(target: Target, second?: LawCheckOptions | string, third?: LawRunOptions, onTick?: () => void): CheckResult[] {
  const checked = checkedTarget(target, "lawChecks: target");
  const legacy = third !== undefined || typeof second === "string";
  const given: LawCheckOptions | undefined = legacy ? { ...(third ?? {}), ...(second === undefined ? {} : { outDir: second as string }) } : (second as LawCheckOptions | undefined);
  const { only, ...rest } = (given ?? {}) as LawCheckOptions & Record<string, unknown>;
  const nameOf = (field: string) => `lawChecks: options.${field === "law" ? "only" : field}`;
  const resolved = resolveConformOptions(given === undefined ? undefined : { ...rest, ...(only === undefined ? {} : { law: only }) }, nameOf, ["seed", "depth", "outDir", "law", "path"]);
  return lawChecksOf(checked, resolved.outDir, { seed: resolved.seed, depth: resolved.depth, ...(resolved.law === undefined ? {} : { only: resolved.law }), ...(resolved.path === undefined ? {} : { path: resolved.path }) }, onTick).map(withReplayForThisMachine);
}

/**
 * Folds check results (say, of {@link lawChecks} alone) into a conformance column.
 *
 * @param target - the target the checks ran on.
 * @param checks - the results, in the order to list them.
 */
export function conformanceOf(target: Target, checks: readonly CheckResult[]): TargetConformance {
  if (!Array.isArray(checks)) throw new UserError(`conformanceOf: checks must be an array of check results (got ${typeof checks})`);
  return summarise(checkedTarget(target, "conformanceOf: target"), checks);
}
