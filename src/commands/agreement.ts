// `loopsim conform --against RUNTIME@V [--against ...] [--target MODEL]`: loopsim's model of a
// runtime against the runtime's real code, on the pinned probe set. Without --target, each
// runtime is paired with the model of the same name (gemini-cli@0.61.0 with gemini-cli). Writes
// agreement.{md,json} with --out; exit 1 when any probe differs or could not be observed.
import { join } from "node:path";
import { CheckFailed, UserError } from "../io/errors.js";
import { availableParallelism } from "node:os";
import { AGREEMENT_SCHEMA, agreementLine, checkAgreement, defaultDrivenParallel, drivenSubject, inProcessSubject, notRunLine, isAgreementFile, type AgreementFile, type AgreementReport, type NotRun, type RealSubject } from "../agreement/agreement.js";
import { PROBES } from "../agreement/probeSet.js";
import { renderAgreementMarkdown } from "../agreement/renderAgreement.js";
import { writeFileAtomic } from "../io/atomicWrite.js";
import { readTextFile } from "../io/textFile.js";
import { refuseOverwrite } from "../io/overwrite.js";
import { checkOutputDir } from "../io/writable.js";
import { findBuiltInTarget } from "../targets/registry.js";
import { loadDrivenRuntime } from "../targets/runtimes/drivenRuntimes.js";
import { closest } from "../format/didYouMean.js";
import { drivenRuntimeNames, IN_PROCESS_RUNTIMES, parseTargetRef, printTargetRef, runtimeFamilyOf, runtimeNamesHelp, versionText, type TargetRef } from "../targets/targetRef.js";

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

export async function agreementCommand(options: AgreementOptions): Promise<void> {
  if (options.out !== undefined) {
    checkOutputDir(options.out);
    refuseOverwrite(options.out, ["agreement.md", "agreement.json"], options.force === true);
  }
  const probes = options.probes === undefined || options.probes.length === 0 ? PROBES : options.probes.map((id) => PROBES.find((p) => p.id === id) ?? badProbe(id));
  const note = (line: string) => process.stderr.write(line + "\n");
  const reports: AgreementReport[] = [];
  const notRun: NotRun[] = [];
  // Every name parsed before anything runs: a name that is no runtime fails first (exit 2).
  const refs = options.against.map(againstRef);
  for (const [i, name] of options.against.entries()) {
    const ref = refs[i] as RuntimeRef;
    const modelName = options.model ?? ref.runtime;
    const model = findBuiltInTarget(modelName);
    if (model === undefined) throw new UserError(`${options.model === undefined ? `--against ${name}` : `--target ${modelName}`}: no built-in model named ${modelName} to check ${name} against`);
    let subject: RealSubject;
    try {
      subject = await subjectFor(ref, note, options.parallel ?? defaultDrivenParallel(availableParallelism()));
    } catch (error) {
      // A runtime that cannot run here (no binary for this platform, a registry or GitHub out of
      // reach) is a check not made: reported with its reason, after the others have run, and exit
      // 1. A name that is no runtime at all stays the user's mistake (exit 2).
      if (!(error instanceof UserError)) throw error;
      notRun.push({ model: model.name, against: name, reason: error.message });
      note(`loopsim: ${name} not run: ${error.message}`);
      continue;
    }
    const report = await checkAgreement(model, subject, probes, (done, id) => {
      // On a terminal one line redrawn; elsewhere (CI logs, a pipe) one line per probe, so a run of
      // minutes is never silent.
      if (process.stderr.isTTY === true) process.stderr.write(`\r${subject.name}: probe ${done}/${probes.length} (${id})\u001b[K`);
      else process.stderr.write(`loopsim: ${subject.name}: probe ${done}/${probes.length} (${id})\n`);
    });
    if (process.stderr.isTTY === true) process.stderr.write("\n");
    reports.push(report);
  }
  const command = ["loopsim conform", ...(options.model === undefined ? [] : [`--target ${options.model}`]), ...options.against.map((a) => `--against ${a}`), ...(options.out === undefined ? [] : [`--out ${options.out}`])].join(" ");
  writeAgreement({ command, reports, notRun }, options.out, options.json);
}

/** Writes agreement.{md,json} (with an out folder) and prints one; exit 1 for a difference, an
 * n/a or a runtime not run. */
function writeAgreement(file: AgreementFile, out: string | undefined, json: boolean): void {
  const markdown = renderAgreementMarkdown(file.reports, file.command, file.notRun);
  const text = JSON.stringify(file, null, 2) + "\n";
  if (out !== undefined) {
    writeFileAtomic(join(out, "agreement.md"), markdown);
    writeFileAtomic(join(out, "agreement.json"), text);
  }
  process.stdout.write(json ? text : markdown);
  if (out !== undefined) process.stderr.write(`loopsim: wrote ${join(out, "agreement.{md,json}")}\n`);
  const failing = [...file.reports.filter((r) => r.differ > 0 || r.na > 0).map(agreementLine), ...file.notRun.map(notRunLine)];
  if (failing.length > 0) throw new CheckFailed(failing.join("; "));
}

/**
 * `conform --merge a/agreement.json b/agreement.json`: one report from runs made apart (the driven
 * CLIs take minutes each, so they are worth spreading over machines or CI jobs). The same runtime
 * in two parts: the later part's report replaces the earlier (re-run one runtime after a change to
 * its model, and merge it over the old report), and stderr says so. A runtime that ran in one part
 * is no longer "not run" from another.
 */
export function mergeAgreement(files: readonly string[], out: string | undefined, json: boolean, force: boolean): void {
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
      if (earlier !== undefined) process.stderr.write(`loopsim: ${key}: the report in ${part.file} replaces the one in ${earlier.file}\n`);
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
  writeAgreement({ command, reports, notRun }, out, json);
}

/** "kilo against kilo@7.7.9": one check, whichever part it comes from. */
function checkKey(check: { readonly model: string; readonly against: string }): string {
  return `${check.model} against ${check.against}`;
}

function badProbe(id: string): never {
  throw new UserError(`--probe ${id}: no such probe (known: ${PROBES.map((p) => p.id).join(", ")})`);
}
