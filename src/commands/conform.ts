// `loopsim conform --target T [--target T2 ...]`: which documented rules each target keeps. Prints
// the matrix (Markdown) and, with --out, writes conformance.{md,json,html} and one counterexample
// scenario per failure. Exit 0 when every rule each target claims holds, 1 otherwise.
import { readTextFile } from "../io/textFile.js";
import { join, relative } from "node:path";
import cliProgress from "cli-progress";
import { CheckFailed, UserError } from "../io/errors.js";
import { VERSION } from "../io/version.js";
import { CONFORMANCE_SCHEMA, unjudgedRules, type ConformanceReport, type TargetConformance } from "../conform/matrix.js";
import { renderConformanceHtml } from "../conform/renderHtml.js";
import { renderConformanceMarkdown } from "../conform/renderMarkdown.js";
import { SPEC_RULES } from "../conform/rules.js";
import { conformSteps, conformTarget } from "../conform/run.js";
import { writeFileAtomic } from "../io/atomicWrite.js";
import { refuseOverwrite } from "../io/overwrite.js";
import { checkOutputDir } from "../io/writable.js";
import { resolveTarget } from "../targets/registry.js";
import { releaseLoadOrder, targetRefOf, type TargetRef } from "../targets/targetRef.js";
import type { Target } from "../targets/target.js";
import { checkCiOutputs, writeCiOutputs, type CiOutputs } from "../ci/emit.js";
import { conformanceCases, counterexampleFileOf } from "../ci/conformCases.js";
import { compareReleases } from "../targets/openclaw/versions.js";
import { isAgreementFile } from "../agreement/agreement.js";
import { cliFlag, resolveConformOptions } from "../conform/conformOptions.js";

export interface ConformCommandOptions {
  readonly targets: readonly string[];
  readonly json: boolean;
  readonly out?: string;
  readonly seed: number;
  readonly depth: number;
  readonly law?: string;
  readonly path?: string;
  readonly differentialSeed?: number;
  readonly force?: boolean;
  /** --junit FILE, --annotations */
  readonly ci?: CiOutputs;
}

/**
 * `conform --merge A.json B.json --out DIR`: one matrix from the JSON reports of several runs
 * (say, half the releases on each core), columns in the order given; the runs must share seed and
 * depth. The counterexample files stay where the runs wrote them.
 */
export async function mergeConformance(files: readonly string[], out: string | undefined, json: boolean, force = false, ci?: CiOutputs): Promise<void> {
  // agreement.json files (conform --against) merge into one agreement report instead.
  const firstText = files[0] === undefined ? undefined : tryParse(readTextFile(files[0], "report"));
  if (firstText !== undefined && isAgreementFile(firstText)) {
    if (ci !== undefined) throw new UserError("--junit and --annotations report conformance matrices; agreement reports (conform --against) have no test cases to give them");
    const { mergeAgreement } = await import("./agreement.js");
    return mergeAgreement(files, out, json, force);
  }
  checkCiOutputs(ci, [...files, ...(out === undefined ? [] : REPORT_FILES.map((f) => join(out, f)))]);
  const reports = files.map((file) => {
    try {
      const parsed = JSON.parse(readTextFile(file, "conformance report")) as ConformanceReport;
      if (parsed.schema !== CONFORMANCE_SCHEMA) throw new Error(`schema is not ${CONFORMANCE_SCHEMA}`);
      return parsed;
    } catch (error) {
      throw new UserError(`${file}: not a conformance report (${(error as Error).message})`);
    }
  });
  const first = reports[0];
  if (first === undefined) throw new UserError("--merge needs at least one conformance.json");
  reports.forEach((r, i) => {
    if (r.seed !== first.seed || r.depth !== first.depth) throw new UserError(`${files[i]}: seed ${r.seed}, depth ${r.depth} differ from ${files[0]} (seed ${first.seed}, depth ${first.depth})`);
  });
  // Columns: other targets in the order given, then releases oldest first.
  const all = reports.flatMap((r) => r.targets);
  const merged: ConformanceReport = { ...first, targets: releaseLoadOrder(all, (t) => t.target, compareReleases) };
  const command = ["loopsim conform", ...merged.targets.map((t) => `--target ${t.target}`), ...(out === undefined ? [] : [`--out ${out}`])].join(" ");
  const markdown = renderConformanceMarkdown(merged, command);
  if (out !== undefined) {
    checkOutputDir(out);
    refuseOverwrite(out, ["conformance.md", "conformance.json", "conformance.html"], force);
    writeFileAtomic(join(out, "conformance.md"), markdown);
    writeFileAtomic(join(out, "conformance.json"), JSON.stringify(merged, null, 2) + "\n");
    writeFileAtomic(join(out, "conformance.html"), renderConformanceHtml(merged, command));
  }
  process.stdout.write(json ? JSON.stringify(merged, null, 2) + "\n" : markdown);
  writeCiOutputs(ci, "loopsim conform", merged.targets.map(conformanceCases), (c) => ({ file: counterexampleFileOf(c.failure?.text ?? "") }));
  if (out !== undefined) process.stderr.write(`loopsim: wrote ${join(out, "conformance.{md,json,html}")}\n`);
}

/** What --out holds after a run: a --junit file there would replace one. */
const REPORT_FILES = ["conformance.md", "conformance.json", "conformance.html"];

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export async function conformCommand(options: ConformCommandOptions): Promise<void> {
  const names = options.targets.length === 0 ? ["reference"] : options.targets;
  // Read as the library reads conform's options (one resolver): a law that does not exist would
  // run 0 checks and pass, so it is refused before anything runs.
  resolveConformOptions({ seed: options.seed, depth: options.depth, law: options.law, path: options.path, differentialSeed: options.differentialSeed }, cliFlag);
  if (options.out !== undefined) {
    checkOutputDir(options.out);
    refuseOverwrite(options.out, ["conformance.md", "conformance.json", "conformance.html"], options.force === true);
  }
  checkCiOutputs(options.ci, options.out === undefined ? [] : REPORT_FILES.map((f) => join(options.out as string, f)));
  // Releases load oldest first: a newer release's global singletons can break an older one loaded
  // after it in the same process (2026.8.1 after 2026.9.6 fails), never the other way round seen.
  // Every name is parsed before anything loads: an unknown one fails first, with nothing run.
  const refs = names.map((name) => targetRefOf(name, "--target"));
  const order = releaseLoadOrder(names.map((name, i) => ({ name, i })), (n) => n.name, compareReleases);
  const resolved = new Map<number, Target>();
  for (const { i } of order) resolved.set(i, await resolveTarget(refs[i] as TargetRef));
  const targets = names.map((_, i) => resolved.get(i) as Target);
  const outDir = options.out === undefined ? undefined : join(options.out, "counterexamples");
  const steps = targets.length * conformSteps({ seed: options.seed, depth: options.depth, outDir, law: options.law });
  const bar = process.stderr.isTTY === true && !options.json ? new cliProgress.SingleBar({ stream: process.stderr, format: "conform [{bar}] {percentage}% | {target} | ETA {eta_formatted}", hideCursor: true }, cliProgress.Presets.shades_classic) : undefined;
  bar?.start(steps, 0, { target: names[0] });
  const columns: TargetConformance[] = [];
  try {
    for (const target of targets) {
      bar?.update({ target: target.name });
      columns.push(conformTarget(target, { seed: options.seed, depth: options.depth, outDir, law: options.law, path: options.path, differentialSeed: options.differentialSeed }, () => bar?.increment()));
    }
  } finally {
    bar?.stop();
  }
  const report: ConformanceReport = { schema: CONFORMANCE_SCHEMA, loopsimVersion: VERSION, seed: options.seed, depth: options.depth, rules: SPEC_RULES, targets: relativeFiles(columns, process.cwd()) };
  const command = ["loopsim conform", ...names.map((n) => `--target ${n}`), ...(options.out === undefined ? [] : [`--out ${options.out}`])].join(" ");
  const markdown = renderConformanceMarkdown(report, command);
  const json = JSON.stringify(report, null, 2) + "\n";
  if (options.out !== undefined) {
    writeFileAtomic(join(options.out, "conformance.md"), markdown);
    writeFileAtomic(join(options.out, "conformance.json"), json);
    writeFileAtomic(join(options.out, "conformance.html"), renderConformanceHtml(report, command));
  }
  process.stdout.write(options.json ? json : markdown);
  writeCiOutputs(options.ci, "loopsim conform", report.targets.map(conformanceCases), (c) => ({ file: counterexampleFileOf(c.failure?.text ?? "") }));
  if (options.out !== undefined) process.stderr.write(`loopsim: wrote ${join(options.out, "conformance.{md,json,html}")}\n`);
  const failing = columns.filter((c) => c.counts.fail > 0);
  if (failing.length > 0) throw new CheckFailed(`${failing.map((c) => `${c.target} fails ${c.counts.fail} rule${c.counts.fail === 1 ? "" : "s"}${unjudgedNote(c)}`).join("; ")}`);
}

/** A count of failing rules can fall because a check stopped at another rule: say which were not judged. */
function unjudgedNote(column: TargetConformance): string {
  const rules = unjudgedRules(column);
  return rules.length === 0 ? "" : ` (${rules.join(", ")} not judged: a check covering ${rules.length === 1 ? "it" : "them"} failed on another rule first)`;
}

/** Counterexample paths as the user can type them from where they ran the command. */
function relativeFiles(columns: readonly TargetConformance[], cwd: string): TargetConformance[] {
  const fix = <T extends { counterexample?: { file: string; replay: string } }>(x: T): T => {
    if (x.counterexample === undefined || x.counterexample.file === "") return x;
    const file = relative(cwd, x.counterexample.file);
    return { ...x, counterexample: { ...x.counterexample, file, replay: x.counterexample.replay.replace(x.counterexample.file, file) } };
  };
  return columns.map((c) => ({ ...c, checks: c.checks.map(fix), cells: Object.fromEntries(Object.entries(c.cells).map(([k, v]) => [k, fix(v)])) }));
}
