// Running the field scenarios on targets: each in-process target takes the expanded trace; each
// driven runtime takes the trace as a script; every cell is judged by the scenario's expectation.
import { resolveEffectiveConfig } from "../../models/configResolution.js";
import { runTarget, type Target } from "../targets/target.js";
import type { DrivenRuntime } from "../targets/runtimes/drivenRuntime.js";
import { fieldScript, observeDriven } from "./driven.js";
import type { FieldNeed } from "./fieldScenario.js";
import { judge } from "./judge.js";
import { runtimeOf, targetKind, type TargetKind } from "./lineup.js";
import type { LoadedField } from "./load.js";
import { observeOutputs, type Observation } from "./observe.js";
import { productOf, restsOn } from "./product.js";
import { JUDGED, type FieldCell, type FieldRow, type RealCode } from "./report.js";
import { parseTargetRef, shippedCodeOf, versionLabelOf } from "../targets/targetRef.js";
import { compareTargets, compareVersions, lastingFixAfter, regressionsOf, timelineOf, type TimelineStatus } from "./timeline.js";

/** A column as the runner gets it: loaded, or why it could not be. */
export type FieldSubject =
  | { readonly kind: "in-process"; readonly name: string; readonly target: Target }
  | { readonly kind: "driven"; readonly name: string; readonly runtime: DrivenRuntime }
  | { readonly kind: "missing"; readonly name: string; readonly reason: string };

export type DrivenScope = "own" | "all" | "none";

/** The longest wait for a driven CLI's next model request or exit. */
export const DRIVEN_STEP_TIMEOUT_MS = 180_000;

export function replayLine(file: string, target: string): string {
  return `loopsim field replay ${file} --target ${target}`;
}

/** Why a target cannot judge a scenario with these needs, or undefined when it can. */
export function lacks(kind: TargetKind, name: string, needs: readonly FieldNeed[]): string | undefined {
  if (needs.includes("model-text") && kind !== "runtime driven") return `the scenario turns on the model's text (thoughts, messages), which field scenarios do not write yet (traces can carry it as message and thought events)`;
  if (needs.includes("model-text")) return `the scripted model of a driven run sends tool calls only, not the repeated text the scenario needs`;
  if (needs.includes("runtime-tools") && kind === "runtime driven") return `the driven script turns every call into a read of a file; this scenario depends on the runtime's own tool (its name and behaviour), which the script cannot call`;
  if (needs.includes("warning-delivery") && (kind === "release" || kind === "build")) return `${name}'s caller, which hands warnings to the model, is not exported: loopsim emulates it (warnings by buckets of 10), so whether the model sees a warning is not the release's own behaviour`;
  return undefined;
}

/** `config`: the OpenClaw config this cell is judged with (a config variant; default: the scenario's). */
export function inProcessObservation(target: Target, loaded: LoadedField, withConfig: unknown = loaded.scenario.config): Observation {
  const config = resolveEffectiveConfig(withConfig ?? {}).config;
  return observeOutputs(loaded.trace, runTarget(target, config, loaded.trace.events));
}

export async function drivenObservation(runtime: DrivenRuntime, loaded: LoadedField): Promise<Observation | string> {
  const script = fieldScript(loaded.trace);
  // A generous wait per step: a CLI's first start on a busy machine can take over a minute.
  const observed = await runtime.drive(script.script, { stepTimeoutMs: DRIVEN_STEP_TIMEOUT_MS });
  if (!observed.ok) return observed.error;
  return observeDriven(loaded.trace, script, observed.prompts);
}

/** Why a subject is not judged on a scenario (n/a or not run), or undefined when it is. */
export function notJudged(subject: FieldSubject, loaded: LoadedField, driven: DrivenScope): Pick<FieldCell, "status" | "reason"> | undefined {
  if (subject.kind === "missing") return { status: "not-run", reason: subject.reason };
  const why = lacks(targetKind(subject.name), subject.name, loaded.scenario.needs ?? []);
  if (why !== undefined) return { status: "n/a", reason: why };
  if (subject.kind === "driven") {
    if (driven === "none") return { status: "not-run", reason: "driven runtimes were not run (--driven none)" };
    if (driven === "own" && runtimeOf(subject.name) !== loaded.scenario.runtime) return { status: "not-run", reason: `driven runtimes ran only their own runtime's scenarios (--driven all runs ${subject.name} on this one too)` };
  }
  return undefined;
}

/** What a loaded subject did on the scenario, or why a driven run did not complete. */
/** A driven CLI runs its own config, not an OpenClaw one: it is run once per scenario, whatever the config variant. */
export async function observeSubject(subject: Exclude<FieldSubject, { kind: "missing" }>, loaded: LoadedField, config?: unknown): Promise<Observation | string> {
  return subject.kind === "driven" ? drivenObservation(subject.runtime, loaded) : inProcessObservation(subject.target, loaded, config ?? loaded.scenario.config);
}

/** One cell: a subject on a scenario with one config. `file` is the scenario's path as the user typed it; `variant` the config's name in the replay line. */
export async function fieldCell(subject: FieldSubject, loaded: LoadedField, file: string, driven: DrivenScope, variant?: { name: string; config: unknown }): Promise<FieldCell> {
  const replay = replayLine(file, subject.name) + (variant === undefined || variant.name === "scenario" ? "" : ` --config ${variant.name}`);
  const skipped = notJudged(subject, loaded, driven);
  if (skipped !== undefined || subject.kind === "missing") return { status: skipped?.status ?? "not-run", reason: skipped?.reason ?? "", replay };
  const observation = await observeSubject(subject, loaded, variant?.config);
  if (typeof observation === "string") return { status: "not-run", reason: `the driven run did not complete: ${observation}`, replay };
  return judgedCell(loaded, subject.name, observation, replay);
}

/** A judged cell: the verdict to the loop's end, what ran, and whose rule the verdict rests on. */
export function judgedCell(loaded: LoadedField, name: string, observation: Observation, replay: string): FieldCell {
  const j = judge(loaded.scenario.expected, observation);
  const product = productOf(name, loaded.scenario);
  const about = { loop: j.loop, ran: product.ran, ...(product.standsInFor === undefined ? {} : { standsInFor: product.standsInFor }), restsOn: restsOn(loaded.scenario, product, j.loop) };
  return j.status === "fixed" ? { status: "fixed", observed: j.observed, ...about, replay } : { status: j.status, observed: j.observed, broken: j.broken, ...about, replay };
}

/** Runtimes whose own code loopsim runs (releases in-process, Gemini CLI in-process, the driven CLIs). */
const RUN_HERE: readonly string[] = ["openclaw", "gemini-cli", "opencode", "kilo", "qwen-code"];

/** Why a runtime's own code is not run here (runtimes loopsim runs are found among the columns). */
export const NOT_RUN_HERE: Readonly<Record<string, string>> = {
  "roo-code": "Roo Code ships only as a VS Code extension (npm roo-cline is an unrelated placeholder)",
  openhands: "OpenHands is a Python package and PyPI is not reachable here",
  goose: "Goose is a Rust crate, not on npm",
  crewai: "CrewAI is a Python package and PyPI is not reachable here",
  cline: "Cline's CLI is not among the runtimes loopsim drives in this matrix",
  crush: "Crush's CLI (@charmland/crush) is not among the runtimes loopsim drives in this matrix",
};

/** Whether a column runs the runtime's own shipped code (a release, a build, a runtime in its plain mode), not a model of it. */
function runsOwnCodeOf(column: string, runtime: string): boolean {
  const parsed = parseTargetRef(column);
  const code = parsed.ok ? shippedCodeOf(parsed.ref) : undefined;
  return code !== undefined && code.mode === undefined && code.runtime === runtime;
}

/**
 * The reported runtime's real code among the columns: the version nearest the reported one (the
 * newest not after it, else the oldest), its verdict, every version's verdict oldest first, the
 * first later version from which it stays fixed, and every fix a later version lost again.
 */
export function realCodeOf(row: Pick<FieldRow, "runtime" | "reportedVersion" | "cells">, columns: readonly string[]): RealCode {
  const mine = columns.filter((c) => runsOwnCodeOf(c, row.runtime));
  const order = (a: string, b: string) => compareTargets(row.runtime, a, b);
  const nearest = (among: readonly string[]): string | undefined => {
    const sorted = [...among].sort(order);
    const reported = row.reportedVersion;
    const notAfter = reported === null ? [] : sorted.filter((c) => compareVersions(row.runtime, versionLabelOf(c), reported) <= 0);
    return notAfter[notAfter.length - 1] ?? sorted[0];
  };
  const judged = mine.filter((c) => JUDGED.includes(row.cells[c]?.status ?? "not-run"));
  if (judged.length === 0) {
    // Why not: the reason of the column nearest the reported version, not of the oldest.
    const at = nearest(mine.filter((c) => row.cells[c] !== undefined));
    const cell = at === undefined ? undefined : row.cells[at];
    if (cell !== undefined && at !== undefined) return { why: `${at}: ${cell.reason ?? cell.status}` };
    if (RUN_HERE.includes(row.runtime)) return { why: `no ${row.runtime} column in this run (--target ${row.runtime}@VERSION)` };
    return { why: NOT_RUN_HERE[row.runtime] ?? `${row.runtime}'s own code is not run by loopsim` };
  }
  const timeline = timelineOf(row.runtime, judged.map((c) => ({ target: c, status: row.cells[c]?.status as TimelineStatus })));
  const target = nearest(judged) as string;
  const status = row.cells[target]?.status;
  const laterFix = status === "fixed" ? undefined : lastingFixAfter(timeline, target, row.runtime);
  const regressions = regressionsOf(timeline);
  return { target, ...(status === undefined ? {} : { status }), ...(laterFix === undefined ? {} : { laterFix }), timeline, ...(regressions.length === 0 ? {} : { regressions }) };
}
