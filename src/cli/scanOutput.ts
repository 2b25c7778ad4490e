// The command line's half of scan: plan, run, and while the run's spooled documents exist, write
// scan.{json,md,html} and print the report; then the CI outputs and the files skipped (exit 1).
import { join } from "node:path";
import cliProgress from "cli-progress";
import { writeFileAtomic } from "../io/atomicWrite.js";
import { CheckFailed } from "../io/errors.js";
import { writePieces } from "../io/spool.js";
import { badFileLines } from "../import/sessionRefs.js";
import { writeCiOutputs } from "../ci/emit.js";
import { distinctNames, unreadableCase } from "../ci/scanCases.js";
import { planScan, runScan, type ScanArgs, type ScanOptions } from "../commands/scan.js";

const say = (line: string) => process.stderr.write(`loopsim: ${line}\n`);

/** `loopsim scan`. */
export async function scanCommand(args: ScanArgs): Promise<void> {
  const plan = await planScan(args);
  await scanPlanned(plan.paths, plan.options);
}

/** A planned scan run and written: the report into --out and on stdout (JSON with --json, else Markdown). */
export async function scanPlanned(paths: readonly string[], options: ScanOptions): Promise<void> {
  const bar = process.stderr.isTTY === true && !options.json ? new cliProgress.SingleBar({ stream: process.stderr, format: "scan [{bar}] {value}/{total} sessions", hideCursor: true }, cliProgress.Presets.shades_classic) : undefined;
  const run = await runScan({ paths, options }, {
    notice: say,
    ...(bar === undefined ? {} : { progress: { start: (total: number) => bar.start(total, 0), tick: () => bar.increment(), stop: () => bar.stop() } }),
    documents: async (documents) => {
      if (options.out !== undefined) {
        writeFileAtomic(join(options.out, "scan.json"), documents.json);
        writeFileAtomic(join(options.out, "scan.md"), documents.markdown);
        writeFileAtomic(join(options.out, "scan.html"), documents.html);
      }
      await writePieces(process.stdout, options.json ? documents.json : documents.markdown);
      if (options.out !== undefined) say(`wrote ${join(options.out, "scan.{json,md,html}")}`);
    },
  });
  if (options.ci !== undefined) {
    const all = [...run.cases, ...run.bad.map((b) => ({ ...unreadableCase(b.file, b.reason, options.target.name), file: b.file }))];
    const named = distinctNames(all);
    const places = new Map(named.map((c) => [c.case, c.place]));
    writeCiOutputs(options.ci, "loopsim scan", [{ name: `loopsim scan ${options.target.name}`, cases: named.map((c) => c.case) }], (c) => places.get(c) ?? {});
  }
  if (run.bad.length > 0) {
    for (const line of badFileLines(run.bad)) say(line);
    throw new CheckFailed(`${run.bad.length} unreadable file${run.bad.length === 1 ? "" : "s"} skipped; the other ${run.sessions} sessions are in the report (--strict stops at the first)`);
  }
}
