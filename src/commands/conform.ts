// `loopsim conform --target T [--target T2 ...]`: which documented rules each target keeps. Prints
// the matrix (Markdown) and, with --out, writes conformance.{md,json,html} and one counterexample
// scenario per failure. Exit 0 when every rule each target claims holds, 1 otherwise.
// `planConform` parses and loads once, `runConform` runs the checks into the report (the
// counterexample scenarios are the only files it writes); src/cli/conformOutput.ts writes the
// report and prints.
import { readTextFile } from "../io/textFile.js";
import { join, relative } from "node:path";
import { UserError } from "../io/errors.js";
import { VERSION } from "../io/version.js";
import { CONFORMANCE_SCHEMA, unjudgedRules, type ConformanceReport, type TargetConformance } from "../conform/matrix.js";
import { renderConformanceHtml } from "../conform/renderHtml.js";
import { renderConformanceMarkdown } from "../conform/renderMarkdown.js";
import { SPEC_RULES } from "../conform/rules.js";
import { conformSteps, conformTarget } from "../conform/run.js";
import { refuseOverwrite } from "../io/overwrite.js";
import { checkOutputDir } from "../io/writable.js";
import { resolveTarget } from "../targets/registry.js";
import { releaseLoadOrder, targetRefOf, type TargetRef } from "../targets/targetRef.js";
import type { Target } from "../targets/target.js";
import { checkCiOutputs, type CiOutputs } from "../ci/emit.js";
import { compareReleases } from "../targets/openclaw/versions.js";
import { isAgreementFile } from "../agreement/agreement.js";
import { cliFlag, resolveConformOptions, type ResolvedConformOptions } from "../conform/conformOptions.js";

/** What `loopsim conform` takes, as the command line (or a library caller) hands it over. */
export interface ConformArgs {
  /** The targets to check, as `--target` names them (default: the reference). */
  readonly targets?: readonly string[];
  /** The caller prints the JSON report rather than the Markdown matrix. */
  readonly json?: boolean;
  /** Folder for conformance.{md,json,html} (written by the caller) and the counterexample scenarios (written by the checks, under counterexamples/). */
  readonly out?: string;
  /** Seed of the laws and the differential run (default 20261202). */
  readonly seed?: number;
  /** Multiplies the cases of every law and of the differential run (default 1). */
  readonly depth?: number;
  /** Run only this law (with `path`, replay a shrunk failure). */
  readonly law?: string;
  /** fast-check path of a shrunk counterexample, as a failure prints it. */
  readonly path?: string;
  /** Seed of the differential run alone (default: `seed`). */
  readonly differentialSeed?: number;
  /** Overwrite the reports already in `out`. */
  readonly force?: boolean;
  /** A JUnit file and/or GitHub annotations (their paths checked here). */
  readonly ci?: CiOutputs;
}

/** A parsed conform run: the targets (loaded, releases oldest first), their names, and the options checked. */
export interface ConformPlan {
  readonly names: readonly string[];
  readonly targets: readonly Target[];
  readonly options: ResolvedConformOptions;
  readonly out?: string;
  readonly json: boolean;
  readonly ci?: CiOutputs;
}

/** What a conform run (or a merge) made: the report in each of its forms, and the failure to exit 1 with. */
export interface ConformRun {
  readonly report: ConformanceReport;
  /** The command the report quotes. */
  readonly command: string;
  /** conformance.md, conformance.json and conformance.html. */
  readonly markdown: string;
  readonly json: string;
  readonly html: string;
  /** Which targets fail which count of rules (undefined: every claimed rule holds). */
  readonly failing?: string;
}

/**
 * `conform --merge A.json B.json --out DIR`: one matrix from the JSON reports of several runs
 * (say, half the releases on each core), columns in the order given; the runs must share seed and
 * depth. The counterexample files stay where the runs wrote them. Writes nothing; `out` is checked
 * (and named in the report's command). Agreement reports merge elsewhere (mergeAgreement).
 */
export function mergeConformanceReports(files: readonly string[], out: string | undefined, force = false, ci?: CiOutputs): ConformRun {
  if (!Array.isArray(files) || !files.every((f) => typeof f === "string" && f !== "")) throw new UserError("--merge: name the conformance.json files of the runs");
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
    refuseOverwrite(out, REPORT_FILES, force);
  }
  return { report: merged, command, markdown, json: JSON.stringify(merged, null, 2) + "\n", html: renderConformanceHtml(merged, command) };
}

/** Whether a report file is an agreement report (conform --against), which merges apart. */
export function isAgreementReportFile(file: string | undefined): boolean {
  const text = file === undefined ? undefined : tryParse(readTextFile(file, "report"));
  return text !== undefined && isAgreementFile(text);
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

/**
 * Parses and checks what `conform` is given, once, before any check runs: the options (as the
 * library's conform reads them: an unknown law, a bad seed or depth is refused), the output
 * folder and CI paths, every target name, then the targets loaded (releases oldest first: a
 * newer release's globals can break an older one loaded after it). Each problem is a user error
 * (exitCode 2) naming the flag.
 */
export async function planConform(args: ConformArgs): Promise<ConformPlan> {
  if (args === null || typeof args !== "object") throw new UserError("conform: the arguments must be an object (targets, seed, depth, law, ...)");
  if (args.targets !== undefined && (!Array.isArray(args.targets) || !args.targets.every((t) => typeof t === "string"))) throw new UserError("--target: targets must be a list of target names");
  const names = args.targets === undefined || args.targets.length === 0 ? ["reference"] : args.targets;
  const given = resolveConformOptions({ seed: args.seed, depth: args.depth, law: args.law, path: args.path, differentialSeed: args.differentialSeed }, cliFlag);
  if (args.out !== undefined) {
    checkOutputDir(args.out);
    refuseOverwrite(args.out, REPORT_FILES, args.force === true);
  }
  checkCiOutputs(args.ci, args.out === undefined ? [] : REPORT_FILES.map((f) => join(args.out as string, f)));
  // Every name is parsed before anything loads: an unknown one fails first, with nothing run.
  const refs = names.map((name) => targetRefOf(name, "--target"));
  const order = releaseLoadOrder(names.map((name, i) => ({ name, i })), (n) => n.name, compareReleases);
  const resolved = new Map<number, Target>();
  for (const { i } of order) resolved.set(i, await resolveTarget(refs[i] as TargetRef));
  const outDir = args.out === undefined ? undefined : join(args.out, "counterexamples");
  return { names, targets: names.map((_, i) => resolved.get(i) as Target), options: { ...given, outDir }, ...(args.out === undefined ? {} : { out: args.out }), json: args.json === true, ...(args.ci === undefined ? {} : { ci: args.ci }) };
}

/** How far a conform run has come: `start` with the steps, `target` as each column starts, `tick` per step. */
export interface ConformProgress {
  readonly start: (steps: number, first: string) => void;
  readonly target: (name: string) => void;
  readonly tick: () => void;
}

/**
 * Runs every check of a plan on each target into the matrix; the counterexample scenarios go
 * under `out`/counterexamples (as the library's conform writes them), the report is returned,
 * not written, and nothing is printed.
 */
export function runConform(plan: ConformPlan, progress?: ConformProgress): ConformRun {
  const { names, targets, options } = plan;
  const steps = targets.length * conformSteps(options);
  progress?.start(steps, names[0] as string);
  const columns: TargetConformance[] = [];
  for (const target of targets) {
    progress?.target(target.name);
    columns.push(conformTarget(target, options, () => progress?.tick()));
  }
  const report: ConformanceReport = { schema: CONFORMANCE_SCHEMA, loopsimVersion: VERSION, seed: options.seed, depth: options.depth, rules: SPEC_RULES, targets: relativeFiles(columns, process.cwd()) };
  const command = ["loopsim conform", ...names.map((n) => `--target ${n}`), ...(plan.out === undefined ? [] : [`--out ${plan.out}`])].join(" ");
  const failing = columns.filter((c) => c.counts.fail > 0);
  return {
    report,
    command,
    markdown: renderConformanceMarkdown(report, command),
    json: JSON.stringify(report, null, 2) + "\n",
    html: renderConformanceHtml(report, command),
    ...(failing.length === 0 ? {} : { failing: failing.map((c) => `${c.target} fails ${c.counts.fail} rule${c.counts.fail === 1 ? "" : "s"}${unjudgedNote(c)}`).join("; ") }),
  };
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
