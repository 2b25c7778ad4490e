// `loopsim conform --against RUNTIME@V [--against ...] [--target MODEL]`: loopsim's model of a
// runtime against the runtime's real code, on the pinned probe set. Without --target, each
// runtime is paired with the model of the same name (gemini-cli@0.61.0 with gemini-cli). Writes
// agreement.{md,json} with --out; exit 1 when any probe differs or could not be observed.
// `planAgreement` parses once, `runAgreement` runs the probes and writes nothing;
// src/cli/conformOutput.ts writes and prints.
import { UserError } from "../io/errors.js";
import { availableParallelism } from "node:os";
import { AGREEMENT_SCHEMA, agreementLine, checkAgreement, defaultDrivenParallel, drivenSubject, inProcessSubject, notRunLine, isAgreementFile, type AgreementFile, type AgreementReport, type NotRun, type RealSubject } from "../agreement/agreement.js";
import { PROBES, type Probe } from "../agreement/probeSet.js";
import { renderAgreementMarkdown } from "../agreement/renderAgreement.js";
import { readTextFile } from "../io/textFile.js";
import { refuseOverwrite } from "../io/overwrite.js";
import { checkOutputDir } from "../io/writable.js";
import { findBuiltInTarget } from "../targets/registry.js";
import type { Target } from "../targets/target.js";
import { loadDrivenRuntime } from "../targets/runtimes/drivenRuntimes.js";
import { closest } from "../format/didYouMean.js";
import { drivenRuntimeNames, IN_PROCESS_RUNTIMES, parseTargetRef, printTargetRef, runtimeFamilyOf, runtimeNamesHelp, versionText, type TargetRef } from "../targets/targetRef.js";

/** What `loopsim conform --against` takes, as the command line (or a library caller) hands it over. */
export interface AgreementOptions {
  readonly against: readonly string[];
  readonly model?: string;
  readonly out?: string;
  readonly json: boolean;
  /** Only these probes (by id); all when empty. */
  readonly probes?: readonly string[];
  /** Driven CLIs at once (default: defaultDrivenParallel of the cores). */
  readonly parallel?: number;
  readonly force?: boolean;
}

type RuntimeRef = Extract<TargetRef, { kind: "inProcessRuntime" | "drivenRuntime" }>;

/** `--against NAME` parsed: a runtime at a version, or the user error that says what to write. */
export function againstRef(name: string): RuntimeRef {
  const parsed = parseTargetRef(name);
  if (parsed.ok && (parsed.ref.kind === "inProcessRuntime" || parsed.ref.kind === "drivenRuntime")) return parsed.ref;
  const runtimes: readonly string[] = [...IN_PROCESS_RUNTIMES, ...drivenRuntimeNames()];
  // A runtime's model name (qwen-code) without a version: suggest its @latest, which does run.
  if (parsed.ok && runtimes.includes(printTargetRef(parsed.ref))) throw new UserError(`--against ${name}: name a version of the runtime, e.g. ${name}@latest or a version from \`loopsim targets\``);
  if (!parsed.ok && runtimes.includes(runtimeFamilyOf(name) ?? "")) throw new UserError(`--against ${parsed.problem}`);
  const guess = closest(name, runtimes);
  throw new UserError(`--against ${name}: not a real runtime loopsim can run (${guess === undefined ? "" : `did you mean "${guess}@latest"? `}known: ${runtimeNamesHelp()})`);
}

async function subjectFor(ref: RuntimeRef, note: (line: string) => void, parallel: number): Promise<RealSubject> {
  switch (ref.kind) {
    case "inProcessRuntime": {
      const { loadGeminiTarget, geminiToolCall } = await import("../targets/runtimes/geminiCore.js");
      return inProcessSubject(await loadGeminiTarget(versionText(ref.version), note), { toolCall: geminiToolCall });
    }
    case "drivenRuntime":
      return drivenSubject(await loadDrivenRuntime(ref, note), parallel);
    default: {
      const unhandled: never = ref;
      throw new Error(`unhandled ${JSON.stringify(unhandled)}`);
    }
  }
}

/** A parsed agreement run: each runtime (parsed) with its model (found), the probes, the outputs. */
export interface AgreementPlan {
  readonly checks: readonly { readonly name: string; readonly ref: RuntimeRef; readonly model: Target }[];
  readonly probes: readonly Probe[];
  readonly model?: string;
  readonly out?: string;
  readonly json: boolean;
  readonly parallel: number;
}

/**
 * Parses and checks what `conform --against` is given, once, before anything runs: the output
 * folder, the probes, every runtime's name (a name that is no runtime fails first) and its model.
 */
export function planAgreement(options: AgreementOptions): AgreementPlan {
  if (options === null || typeof options !== "object" || !Array.isArray(options.against) || options.against.length === 0) throw new UserError("--against: name at least one runtime at a version (e.g. gemini-cli@0.61.0)");
  if (options.out !== undefined) {
    checkOutputDir(options.out);
    refuseOverwrite(options.out, ["agreement.md", "agreement.json"], options.force === true);
  }
  const probes = options.probes === undefined || options.probes.length === 0 ? PROBES : options.probes.map((id) => PROBES.find((p) => p.id === id) ?? badProbe(id));
  // Every name parsed before anything runs: a name that is no runtime fails first (exit 2).
  const refs = options.against.map(againstRef);
  const checks = options.against.map((name, i) => {
    const ref = refs[i] as RuntimeRef;
    const modelName = options.model ?? ref.runtime;
    const model = findBuiltInTarget(modelName);
    if (model === undefined) throw new UserError(`${options.model === undefined ? `--against ${name}` : `--target ${modelName}`}: no built-in model named ${modelName} to check ${name} against`);
    return { name, ref, model };
  });
  return { checks, probes, ...(options.model === undefined ? {} : { model: options.model }), ...(options.out === undefined ? {} : { out: options.out }), json: options.json, parallel: options.parallel ?? defaultDrivenParallel(availableParallelism()) };
}

/** What an agreement run (or a merge) made: the report's file, as agreement.{md,json}, and the failure to exit 1 with. */
export interface AgreementRun {
  readonly file: AgreementFile;
  readonly markdown: string;
  readonly json: string;
  /** The runtimes that differ, could not be observed or did not run (undefined: none). */
  readonly failing?: string;
}

/** Where an agreement run's notes go: npm's and each runtime not run (`note`), and each probe as it is done (`probe`). */
export interface AgreementSink {
  readonly note?: (line: string) => void;
  readonly probe?: (subject: string, done: number, total: number, id: string) => void;
}

/**
 * Runs each runtime's probes beside its model; a runtime that cannot run here is a check not
 * made, reported with its reason. Writes and prints nothing (the sink hears the progress).
 */
export async function runAgreement(plan: AgreementPlan, sink: AgreementSink = {}): Promise<AgreementRun> {
  const note = sink.note ?? (() => undefined);
  const reports: AgreementReport[] = [];
  const notRun: NotRun[] = [];
  for (const { name, ref, model } of plan.checks) {
    let subject: RealSubject;
    try {
      subject = await subjectFor(ref, note, plan.parallel);
    } catch (error) {
      // A runtime that cannot run here (no binary for this platform, a registry or GitHub out of
      // reach) is a check not made: reported with its reason, after the others have run, and exit
      // 1. A name that is no runtime at all stays the user's mistake (exit 2).
      if (!(error instanceof UserError)) throw error;
      notRun.push({ model: model.name, against: name, reason: error.message });
      note(`loopsim: ${name} not run: ${error.message}`);
      continue;
    }
    reports.push(await checkAgreement(model, subject, plan.probes, (done, id) => sink.probe?.(subject.name, done, plan.probes.length, id)));
  }
  const command = ["loopsim conform", ...(plan.model === undefined ? [] : [`--target ${plan.model}`]), ...plan.checks.map((c) => `--against ${c.name}`), ...(plan.out === undefined ? [] : [`--out ${plan.out}`])].join(" ");
  return agreementRun({ command, reports, notRun });
}

/** The report's file in its two forms, and what makes the exit 1: a difference, an n/a or a runtime not run. */
function agreementRun(file: AgreementFile): AgreementRun {
  const failing = [...file.reports.filter((r) => r.differ > 0 || r.na > 0).map(agreementLine), ...file.notRun.map(notRunLine)];
  return { file, markdown: renderAgreementMarkdown(file.reports, file.command, file.notRun), json: JSON.stringify(file, null, 2) + "\n", ...(failing.length === 0 ? {} : { failing: failing.join("; ") }) };
}

/**
 * `conform --merge a/agreement.json b/agreement.json`: one report from runs made apart (the driven
 * CLIs take minutes each, so they are worth spreading over machines or CI jobs). The same runtime
 * in two parts: the later part's report replaces the earlier (re-run one runtime after a change to
 * its model, and merge it over the old report), and `notice` says so. A runtime that ran in one part
 * is no longer "not run" from another. Writes nothing; `out` is checked.
 */
export function mergeAgreementReports(files: readonly string[], out: string | undefined, force: boolean, notice: (line: string) => void = () => undefined): AgreementRun {
  if (!Array.isArray(files) || !files.every((f) => typeof f === "string" && f !== "")) throw new UserError("--merge: name the agreement.json files of the runs");
  const parts = files.map((file) => {
    let parsed: Partial<AgreementFile>;
    try {
      parsed = JSON.parse(readTextFile(file, "agreement report")) as Partial<AgreementFile>;
    } catch (error) {
      throw new UserError(`${file}: not an agreement report (${(error as Error).message})`);
    }
    if (!isAgreementFile(parsed)) throw new UserError(`${file}: not an agreement report (no reports list)`);
    (parsed.reports ?? []).forEach((r, i) => {
      if (r.schema !== AGREEMENT_SCHEMA) throw new UserError(`${file}: reports[${i}].schema: is not ${AGREEMENT_SCHEMA}`);
    });
    return { file, reports: parsed.reports ?? [], notRun: Array.isArray(parsed.notRun) ? parsed.notRun : [] };
  });
  if (out !== undefined) {
    checkOutputDir(out);
    refuseOverwrite(out, ["agreement.md", "agreement.json"], force);
  }
  // By runtime, in the order first met: a later part's report takes the earlier one's place.
  const ran = new Map<string, { report: AgreementReport; file: string }>();
  for (const part of parts) {
    for (const report of part.reports) {
      const key = checkKey(report);
      const earlier = ran.get(key);
      if (earlier !== undefined) notice(`${key}: the report in ${part.file} replaces the one in ${earlier.file}`);
      ran.set(key, { report, file: part.file });
    }
  }
  const missed = new Map<string, NotRun>();
  for (const entry of parts.flatMap((p) => p.notRun)) {
    const key = checkKey(entry);
    if (!ran.has(key) && !missed.has(key)) missed.set(key, entry);
  }
  const reports = [...ran.values()].map((r) => r.report);
  const notRun = [...missed.values()];
  const command = ["loopsim conform", ...[...reports, ...notRun].map((r) => `--against ${r.against}`), ...(out === undefined ? [] : [`--out ${out}`])].join(" ");
  return agreementRun({ command, reports, notRun });
}

/** "kilo against kilo@7.7.9": one check, whichever part it comes from. */
function checkKey(check: { readonly model: string; readonly against: string }): string {
  return `${check.model} against ${check.against}`;
}

function badProbe(id: string): never {
  throw new UserError(`--probe ${id}: no such probe (known: ${PROBES.map((p) => p.id).join(", ")})`);
}
