// The command line's half of tune, compare and their merges: plan, run, then write and print.
// The plan and run functions (src/commands/tune.ts, compare.ts) compute and return; only this
// file writes reports, prints them, draws the progress bar and turns skipped files into exit 1.
import { join } from "node:path";
import cliProgress from "cli-progress";
import { writeFileAtomic } from "../io/atomicWrite.js";
import { refuseOverwrite } from "../io/overwrite.js";
import { checkOutputDir } from "../io/writable.js";
import { partsIn } from "../io/shardParts.js";
import { plural } from "../format/words.js";
import { failOnUnreadable, type Labels, type RecordedRead } from "../sessions/recorded.js";
import type { Shard } from "../io/shardSpec.js";
import { reportJson, type TuneReport } from "../tune/report.js";
import { renderHtml } from "../tune/renderHtml.js";
import { renderMarkdown } from "../tune/renderMarkdown.js";
import type { CompareReport } from "../compare/report.js";
import { renderCompareHtml } from "../compare/renderHtml.js";
import { renderCompareMarkdown } from "../compare/renderMarkdown.js";
import { mergeTune, planTune, runTune, type Progress, type TuneArgs } from "../commands/tune.js";
import { compareOutputs, mergeCompare, planCompare, runCompare, type CompareArgs } from "../commands/compare.js";

const say = (line: string) => process.stderr.write(`loopsim: ${line}\n`);

/** report.{json,md,html} in `out`. */
export function writeTuneReport(out: string, report: TuneReport): void {
  writeFileAtomic(join(out, "report.json"), reportJson(report));
  writeFileAtomic(join(out, "report.md"), renderMarkdown(report));
  writeFileAtomic(join(out, "report.html"), renderHtml(report));
}

/** compare.{json,md,html} in `out`. */
export function writeCompareReport(out: string, report: CompareReport): void {
  writeFileAtomic(join(out, "compare.json"), JSON.stringify(report, null, 2) + "\n");
  writeFileAtomic(join(out, "compare.md"), renderCompareMarkdown(report));
  writeFileAtomic(join(out, "compare.html"), renderCompareHtml(report));
}

/** A progress bar on a terminal (none with --json or off a terminal); Ctrl-C gives the cursor back. */
function progressBar(json: boolean): { progress?: Progress; stop: () => void } {
  if (process.stderr.isTTY !== true || json) return { stop: () => undefined };
  // etaBuffer: the ETA averages the last 200 ticks, so worker start-up does not skew the first one.
  const bar = new cliProgress.SingleBar({ stream: process.stderr, format: "tune [{bar}] {percentage}% | {value}/{total} simulations | ETA {eta_formatted}", hideCursor: true, etaBuffer: 200 }, cliProgress.Presets.shades_classic);
  const interrupted = () => {
    bar.stop();
    process.stderr.write("\u001b[?25h");
    process.exit(130);
  };
  process.once("SIGINT", interrupted);
  return {
    progress: { start: (total) => bar.start(total, 0), tick: (n) => bar.increment(n) },
    stop: () => {
      bar.stop();
      process.removeListener("SIGINT", interrupted);
    },
  };
}

/** A shard's partial: into `out`, or to stdout without it. */
function writePartial(out: string | undefined, file: string, partial: unknown, summary: string, json: boolean): void {
  const text = JSON.stringify(partial, null, 2) + "\n";
  if (out === undefined) {
    process.stdout.write(text);
    return;
  }
  writeFileAtomic(join(out, file), text);
  if (json) process.stdout.write(text);
  else say(`wrote ${summary} to ${join(out, file)}`);
}

/** After the output: what could not be read or matched, and exit 1 when a file was skipped. */
function finish(found: { readonly read?: RecordedRead; readonly labels?: Labels }, inShard?: Shard): void {
  if (found.read !== undefined) failOnUnreadable(found.read, found.labels, inShard);
}

/** `loopsim tune`. With --json and no --out, the report goes to stdout and nothing is written. */
export async function tuneCommand(args: TuneArgs): Promise<void> {
  const plan = await planTune(args);
  for (const notice of plan.notices) say(notice);
  const bar = progressBar(plan.grounding.json);
  const run = await runTune(plan, bar.progress).finally(bar.stop);
  if (run.kind === "partial") {
    writePartial(plan.out, `partial-${run.shard.index}-of-${run.shard.of}.json`, run.partial, run.summary, plan.grounding.json);
    finish(run, run.bySessions ? run.shard : undefined);
    return;
  }
  if (plan.out !== undefined) writeTuneReport(plan.out, run.report);
  if (plan.grounding.json) process.stdout.write(reportJson(run.report));
  else if (plan.out !== undefined) say(`${run.summary}; wrote ${join(plan.out, "report.{json,md,html}")}`);
  finish(run);
}

/** `loopsim merge`: the parts of `tune --shard I/N` into the whole report. */
export function mergeTuneCommand(parts: readonly string[], out: string, force: boolean, json: boolean): void {
  refuseOverwrite(out, ["report.json"], force);
  const report = mergeTune(parts);
  writeTuneReport(out, report);
  if (json) process.stdout.write(reportJson(report));
  else say(`merged ${partsIn(parts, "partial").length} shards into ${join(out, "report.{json,md,html}")}`);
}

/** `loopsim compare`. Without --out, the Markdown (or with --json the JSON) goes to stdout. */
export async function compareCommand(args: CompareArgs): Promise<void> {
  const plan = await planCompare(args);
  const run = await runCompare(plan, say);
  const out = plan.args.out;
  if (run.kind === "partial") {
    writePartial(out, `compare-partial-${run.shard.index}-of-${run.shard.of}.json`, run.partial, run.summary, false);
    finish(run, run.bySessions ? run.shard : undefined);
    return;
  }
  emitCompare(run.report, out, plan.grounding.json);
  finish(run);
}

/** `loopsim compare --merge`: the partials of `compare --shard I/N` into the whole report. */
export function mergeCompareCommand(parts: readonly string[], out: string | undefined, json: boolean, force = false): void {
  if (out !== undefined) {
    checkOutputDir(out);
    refuseOverwrite(out, compareOutputs(undefined), force);
  }
  emitCompare(mergeCompare(parts), out, json);
}

function emitCompare(report: CompareReport, out: string | undefined, json: boolean): void {
  if (out !== undefined) {
    writeCompareReport(out, report);
    say(`${report.rows.length} guards x ${report.grounded === undefined ? `${report.agents} agents` : `${plural(report.grounded.sessions, "session")} as agents`}${report.sessions === undefined ? "" : ` and ${report.sessions.count} sessions`}; wrote ${join(out, "compare.{json,md,html}")}`);
  }
  if (json) process.stdout.write(JSON.stringify(report, null, 2) + "\n");
  else if (out === undefined) process.stdout.write(renderCompareMarkdown(report));
}
