// `loopsim conform --against RUNTIME@V [--against ...] [--target MODEL]`: loopsim's model of a
// runtime against the runtime's real code, on the pinned probe set. Without --target, each
// runtime is paired with the model of the same name (gemini-cli@0.61.0 with gemini-cli). Writes
// agreement.{md,json} with --out; exit 1 when any probe differs or could not be observed.
import { join } from "node:path";
import { CheckFailed, UserError } from "../io/errors.js";
import { availableParallelism } from "node:os";
import { agreementLine, checkAgreement, defaultDrivenParallel, drivenSubject, inProcessSubject, type AgreementReport, type RealSubject } from "../agreement/agreement.js";
import { PROBES } from "../agreement/probeSet.js";
import { renderAgreementMarkdown } from "../agreement/renderAgreement.js";
import { writeFileAtomic } from "../io/atomicWrite.js";
import { refuseOverwrite } from "../io/overwrite.js";
import { checkOutputDir } from "../io/writable.js";
import { findBuiltInTarget, isGeminiName } from "../targets/registry.js";
import { isDrivenRuntimeName, loadDrivenRuntime } from "../targets/runtimes/drivenRuntimes.js";

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

async function subjectFor(name: string, note: (line: string) => void, parallel: number): Promise<RealSubject> {
  if (isGeminiName(name)) {
    const { loadGeminiTarget, geminiToolCall } = await import("../targets/runtimes/geminiCore.js");
    return inProcessSubject(await loadGeminiTarget(name.slice("gemini-cli@".length), note), { toolCall: geminiToolCall });
  }
  if (isDrivenRuntimeName(name)) return drivenSubject(await loadDrivenRuntime(name, note), parallel);
  throw new UserError(`--against ${name}: not a real runtime loopsim can run (gemini-cli@VERSION in-process; opencode@V, kilo@V, qwen-code@V driven through their CLIs)`);
}

export async function agreementCommand(options: AgreementOptions): Promise<void> {
  if (options.out !== undefined) {
    checkOutputDir(options.out);
    refuseOverwrite(options.out, ["agreement.md", "agreement.json"], options.force === true);
  }
  const probes = options.probes === undefined || options.probes.length === 0 ? PROBES : options.probes.map((id) => PROBES.find((p) => p.id === id) ?? badProbe(id));
  const note = (line: string) => process.stderr.write(line + "\n");
  const reports: AgreementReport[] = [];
  for (const name of options.against) {
    if (name.lastIndexOf("@") <= 0) throw new UserError(`--against ${name}: name a version of the runtime, e.g. ${name}@latest or a version from \`loopsim targets\``);
    const modelName = options.model ?? name.slice(0, name.lastIndexOf("@"));
    const model = findBuiltInTarget(modelName);
    if (model === undefined) throw new UserError(`${options.model === undefined ? `--against ${name}` : `--target ${modelName}`}: no built-in model named ${modelName} to check ${name} against`);
    const subject = await subjectFor(name, note, options.parallel ?? defaultDrivenParallel(availableParallelism()));
    const report = await checkAgreement(model, subject, probes, (done, id) => {
      if (process.stderr.isTTY === true) process.stderr.write(`\r${subject.name}: probe ${done}/${probes.length} (${id})\u001b[K`);
    });
    if (process.stderr.isTTY === true) process.stderr.write("\n");
    reports.push(report);
  }
  const command = ["loopsim conform", ...(options.model === undefined ? [] : [`--target ${options.model}`]), ...options.against.map((a) => `--against ${a}`), ...(options.out === undefined ? [] : [`--out ${options.out}`])].join(" ");
  const markdown = renderAgreementMarkdown(reports, command);
  const json = JSON.stringify({ command, reports }, null, 2) + "\n";
  if (options.out !== undefined) {
    writeFileAtomic(join(options.out, "agreement.md"), markdown);
    writeFileAtomic(join(options.out, "agreement.json"), json);
  }
  process.stdout.write(options.json ? json : markdown);
  const failing = reports.filter((r) => r.differ > 0 || r.na > 0);
  if (failing.length > 0) throw new CheckFailed(failing.map(agreementLine).join("; "));
}

function badProbe(id: string): never {
  throw new UserError(`--probe ${id}: no such probe (known: ${PROBES.map((p) => p.id).join(", ")})`);
}
