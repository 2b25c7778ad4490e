// `loopsim conform --target T [--target T2 ...]`: which documented rules each target keeps. Prints
// the matrix (Markdown) and, with --out, writes conformance.{md,json,html} and one counterexample
// scenario per failure. Exit 0 when every rule each target claims holds, 1 otherwise.
import { join, relative } from "node:path";
import cliProgress from "cli-progress";
import { CheckFailed } from "../cli/errors.js";
import { VERSION } from "../cli/version.js";
import { CONFORMANCE_SCHEMA, type ConformanceReport, type TargetConformance } from "../conform/matrix.js";
import { renderConformanceHtml } from "../conform/renderHtml.js";
import { renderConformanceMarkdown } from "../conform/renderMarkdown.js";
import { SPEC_RULES } from "../conform/rules.js";
import { conformSteps, conformTarget } from "../conform/run.js";
import { writeFileAtomic } from "../io/atomicWrite.js";
import { ensureWritableDir } from "../io/writable.js";
import { resolveTarget } from "../targets/registry.js";

export interface ConformCommandOptions {
  readonly targets: readonly string[];
  readonly json: boolean;
  readonly out?: string;
  readonly seed: number;
  readonly depth: number;
  readonly law?: string;
  readonly path?: string;
  readonly differentialSeed?: number;
}

export async function conformCommand(options: ConformCommandOptions): Promise<void> {
  const names = options.targets.length === 0 ? ["reference"] : options.targets;
  if (options.out !== undefined) ensureWritableDir(options.out);
  const targets = [];
  for (const name of names) targets.push(await resolveTarget(name));
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
  const failing = columns.filter((c) => c.counts.fail > 0);
  if (failing.length > 0) throw new CheckFailed(`${failing.map((c) => `${c.target} fails ${c.counts.fail} rule${c.counts.fail === 1 ? "" : "s"}`).join("; ")}`);
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
