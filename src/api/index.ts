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
export type { OpenedSession } from "../import/session.js";
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
export { lawChecks } from "../conform/lawChecks.js";
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

/**
 * The laws: SPEC invariants over generated inputs, each a fast-check property that holds for any
 * target which has what the law {@link Law.needs | needs}. `conform` runs every one of them.
 */
export const laws: readonly Law<never>[] = SEMANTIC_LAWS;

/**
 * Loads a target by the name `--target` takes: `reference`, `zoo:NAME`, a peer's name,
 * `openclaw@VERSION` (fetched with npm into the cache once), `openclaw@PATH` (a local build:
 * a checkout's dist/, an unpacked package or an npm pack tarball), or the path of an adapter
 * module that exports a target (relative to the working directory).
 *
 * @throws a user error (with `exitCode` 2) naming what is wrong when the name loads nothing.
 */
export function loadTarget(name: string): Promise<Target> {
  return resolveTarget(name);
}

/**
 * Checks an adapter object (as an adapter module would export it) and completes it as a target:
 * `summary`, `notes` and `breaks` may be left out.
 *
 * @param adapter - an object with `name`, `capabilities` and `start(config)`.
 * @param loadedFrom - what `--target` would load it by (its module's path), for replay lines.
 */
export function asTarget(adapter: unknown, loadedFrom?: string): Target {
  const label = typeof (adapter as { name?: unknown } | undefined)?.name === "string" ? (adapter as { name: string }).name : "adapter";
  return targetFromObject(adapter, label, loadedFrom);
}

/**
 * The effective config of a `tools.loopDetection` block, defaults filled in and out-of-range
 * values repaired as the contract says.
 *
 * @param loopDetection - the block's own fields (`{ enabled: true, warningThreshold: 5 }`); none for the defaults.
 */
export function resolveConfig(loopDetection: unknown = {}): ResolvedConfig {
  return configFrom(loopDetection);
}

/** Runs events through a fresh session of the target and returns every output, in order. */
export function runTrace(target: Target, events: Iterable<ToolEvent>, config: ResolvedConfig = resolveConfig()): TargetOutput[] {
  return runTarget(target, config, events);
}

/**
 * Reads a trace (loopsim's JSONL events) or a recorded session of any format loopsim imports,
 * validated as the CLI does.
 *
 * @throws a user error naming the file, line and rule broken on bad input.
 */
export async function readEvents(file: string, format: SessionFormat | "auto" = "auto"): Promise<ToolEvent[]> {
  const opened = await openSession(file, format);
  const events: ToolEvent[] = [];
  for await (const imported of opened.events) events.push(imported.event);
  return events;
}

/** What `conform` runs, and with which seeds. */
export interface ConformOptions {
  /** Seed of the laws and the differential run (the CLI's default: 20261202). */
  readonly seed?: number;
  /** Multiplies the cases of every law and of the differential run (default 1). */
  readonly depth?: number;
  /** Counterexample scenarios are written under this folder; none when absent. */
  readonly outDir?: string;
  /** Run only this law (with `path`, replays a shrunk failure). */
  readonly law?: string;
  /** fast-check path of a shrunk counterexample, as a failure prints it. */
  readonly path?: string;
}

/** The CLI's default seed: a run with it is the run `loopsim conform` makes. */
export const DEFAULT_SEED = 20261202;

/**
 * The conformance of one target, as one column of `loopsim conform`'s matrix: the checks
 * (scenarios, probes, laws, the differential run) and each contract rule's cell. A failing check
 * carries its minimal counterexample and the command that replays it.
 */
export function conform(target: Target, options: ConformOptions = {}): TargetConformance {
  return conformTarget(target, {
    seed: options.seed ?? DEFAULT_SEED,
    depth: options.depth ?? 1,
    outDir: options.outDir,
    ...(options.law === undefined ? {} : { law: options.law }),
    ...(options.path === undefined ? {} : { path: options.path }),
  });
}

/** Folds check results (say, of {@link lawChecks} alone) into a conformance column. */
export function conformanceOf(target: Target, checks: readonly CheckResult[]): TargetConformance {
  return summarise(target, checks);
}
