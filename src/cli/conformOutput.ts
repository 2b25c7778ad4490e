// The command line's half of conform: plan (planConform), run (runConform) with a progress bar on a
// terminal, then write conformance.{md,json,html}, print the matrix, write the CI outputs, and
// exit 1 when a target fails a rule it claims. `--merge` joins the reports of several runs.
import { join } from "node:path";
import cliProgress from "cli-progress";
import { writeFileAtomic } from "../io/atomicWrite.js";
import { CheckFailed, UserError } from "../io/errors.js";
import { writeCiOutputs, type CiOutputs } from "../ci/emit.js";
import { conformanceCases, counterexampleFileOf } from "../ci/conformCases.js";
import type { AgreementOptions, AgreementRun } from "../commands/agreement.js";
import { isAgreementReportFile, mergeConformanceReports, planConform, runConform, type ConformArgs, type ConformRun } from "../commands/conform.js";

/** `loopsim conform --target T...`. */
export async function conformCommand(args: ConformArgs): Promise<void> {
  const plan = await planConform(args);
  const bar = process.stderr.isTTY === true && !plan.json ? new cliProgress.SingleBar({ stream: process.stderr, format: "conform [{bar}] {percentage}% | {target} | ETA {eta_formatted}", hideCursor: true }, cliProgress.Presets.shades_classic) : undefined;
  let run: ConformRun;
  try {
    run = runConform(plan, bar === undefined ? undefined : { start: (steps, first) => bar.start(steps, 0, { target: first }), target: (name) => bar.update({ target: name }), tick: () => bar.increment() });
  } finally {
    bar?.stop();
  }
  emit(run, plan.out, plan.json, plan.ci);
  if (run.failing !== undefined) throw new CheckFailed(run.failing);
}

/** `loopsim conform --merge A.json B.json [--out DIR]`: one matrix (or one agreement report) from several runs. */
export async function mergeConformance(files: readonly string[], out: string | undefined, json: boolean, force = false, ci?: CiOutputs): Promise<void> {
  // agreement.json files (conform --against) merge into one agreement report instead.
  if (isAgreementReportFile(files[0])) {
    if (ci !== undefined) throw new UserError("--junit and --annotations report conformance matrices; agreement reports (conform --against) have no test cases to give them");
    const { mergeAgreementReports } = await import("../commands/agreement.js");
    return emitAgreement(mergeAgreementReports(files, out, force, (line) => process.stderr.write(`loopsim: ${line}\n`)), out, json);
  }
  emit(mergeConformanceReports(files, out, force, ci), out, json, ci);
}

/** `loopsim conform --against RUNTIME@V...`: a model beside the real runtime on the pinned probes. */
export async function agreementCommand(options: AgreementOptions): Promise<void> {
  const { planAgreement, runAgreement } = await import("../commands/agreement.js");
  const plan = planAgreement(options);
  const run = await runAgreement(plan, {
    note: (line) => process.stderr.write(line + "\n"),
    // On a terminal one line redrawn; elsewhere (CI logs, a pipe) one line per probe, so a run of
    // minutes is never silent.
    probe: (subject, done, total, id) => {
      if (process.stderr.isTTY === true) process.stderr.write(`\r${subject}: probe ${done}/${total} (${id})\u001b[K${done === total ? "\n" : ""}`);
      else process.stderr.write(`loopsim: ${subject}: probe ${done}/${total} (${id})\n`);
    },
  });
  emitAgreement(run, plan.out, plan.json);
}

/** agreement.{md,json} into --out, one of them on stdout; exit 1 for a difference, an n/a or a runtime not run. */
function emitAgreement(run: AgreementRun, out: string | undefined, json: boolean): void {
  if (out !== undefined) {
    writeFileAtomic(join(out, "agreement.md"), run.markdown);
    writeFileAtomic(join(out, "agreement.json"), run.json);
  }
  process.stdout.write(json ? run.json : run.markdown);
  if (out !== undefined) process.stderr.write(`loopsim: wrote ${join(out, "agreement.{md,json}")}\n`);
  if (run.failing !== undefined) throw new CheckFailed(run.failing);
}

/** The report into --out, the matrix (or JSON) on stdout, the CI outputs, and where it went. */
function emit(run: ConformRun, out: string | undefined, json: boolean, ci: CiOutputs | undefined): void {
  if (out !== undefined) {
    writeFileAtomic(join(out, "conformance.md"), run.markdown);
    writeFileAtomic(join(out, "conformance.json"), run.json);
    writeFileAtomic(join(out, "conformance.html"), run.html);
  }
  process.stdout.write(json ? run.json : run.markdown);
  writeCiOutputs(ci, "loopsim conform", run.report.targets.map(conformanceCases), (c) => ({ file: counterexampleFileOf(c.failure?.text ?? "") }));
  if (out !== undefined) process.stderr.write(`loopsim: wrote ${join(out, "conformance.{md,json,html}")}\n`);
}
