// `loopsim scan PATH... [--config F] [--agent ID] [--target T] [--json] [--out DIR]`: every session
// under the paths through a target, one at a time (a large folder streams), with a summary.
import { join } from "node:path";
import cliProgress from "cli-progress";
import type { ResolvedConfig } from "../../models/config.js";
import { CheckFailed, UserError } from "../io/errors.js";
import { badFileLines, ignoredNote, reasonOf, sessionRefs } from "../import/sessionRefs.js";
import type { SessionFormat } from "../import/types.js";
import { writeFileAtomic } from "../io/atomicWrite.js";
import { refuseOverwrite } from "../io/overwrite.js";
import { withScratchDir } from "../io/scratchDir.js";
import { writePieces } from "../io/spool.js";
import { checkOutputDir } from "../io/writable.js";
import { ScanReportWriter } from "../scan/reportWriter.js";
import { scanSession } from "../scan/scanSession.js";
import type { Target } from "../targets/target.js";
import type { Shard } from "../io/shardSpec.js";
import { sliceOf } from "../sessions/recorded.js";
import { checkCiOutputs, writeCiOutputs, type CiOutputs } from "../ci/emit.js";
import type { JUnitCase } from "../ci/junit.js";
import { distinctNames, placeOf, scanCase, unreadableCase, type Place } from "../ci/scanCases.js";

export interface ScanOptions {
  /** Stop at the first unreadable file instead of skipping and reporting it. */
  readonly strict?: boolean;
  readonly force?: boolean;
  readonly format?: SessionFormat | "auto";
  readonly config: ResolvedConfig;
  readonly configLabel: string;
  readonly target: Target;
  readonly json: boolean;
  readonly out?: string;
  /** Only this shard's slice of the sessions (every N-th of the listing, as tune and compare --by sessions). */
  readonly shard?: Shard;
  /** --junit FILE, --annotations */
  readonly ci?: CiOutputs;
  /** The options `trace` needs to show a session again as scan saw it (--config, --target). */
  readonly traceArgs?: string;
}

export async function scanCommand(paths: readonly string[], options: ScanOptions): Promise<void> {
  if (options.out !== undefined) {
    checkOutputDir(options.out);
    refuseOverwrite(options.out, ["scan.json", "scan.md", "scan.html"], options.force === true);
  }
  checkCiOutputs(options.ci, [...paths, ...(options.out === undefined ? [] : ["scan.json", "scan.md", "scan.html"].map((f) => join(options.out as string, f)))]);
  const listed = await sessionRefs(paths, options.strict === true);
  const { bad, ignored } = listed;
  const refs = sliceOf(listed.refs, options.shard).map((s) => s.ref);
  if (options.shard !== undefined) process.stderr.write(`loopsim: shard ${options.shard.index}/${options.shard.of}: scanning ${refs.length} of the ${listed.refs.length} sessions listed (a slice; the other shards hold the rest)\n`);
  const passedOver = ignoredNote(ignored);
  if (passedOver !== undefined) process.stderr.write(`loopsim: ${passedOver}\n`);
  if (listed.refs.length === 0 && bad.length === 0) throw new UserError(`no session files (*.jsonl, *.traj, *.traj.json, *.json) under ${paths.join(", ")}`);
  const bar = process.stderr.isTTY === true && !options.json ? new cliProgress.SingleBar({ stream: process.stderr, format: "scan [{bar}] {value}/{total} sessions", hideCursor: true }, cliProgress.Presets.shades_classic) : undefined;
  bar?.start(refs.length, 0);
  const cases: { case: JUnitCase; place: Place; file: string }[] = [];
  // Rows are spooled to a scratch folder as each session is scanned; memory holds the summary.
  const scanned = await withScratchDir("scan", async (scratch) => {
    const writer = new ScanReportWriter(scratch, options.target.name, options.configLabel);
    try {
      for (const { ref, id, span } of refs) {
        try {
          const scanned = await scanSession(ref, options.config, options.target, id, options.format ?? "auto", span);
          writer.add(scanned);
          if (options.ci !== undefined) {
            const at = placeOf(scanned.firstBlock?.at ?? scanned.firstAbort?.at);
            cases.push({ case: scanCase(scanned, options.target.name, options.traceArgs ?? ""), place: at.file === undefined ? { file: scanned.file } : at, file: scanned.file });
          }
        } catch (error) {
          // A file that fails while it is read (cut short, not JSON) is reported and skipped.
          // --format naming another format is the user's mistake about every file: stop there.
          if (options.strict === true || !(error instanceof UserError) || /--format/.test(error.message)) throw error;
          bad.push({ file: ref, reason: reasonOf(error, ref) });
        }
        bar?.increment();
      }
      bar?.stop();
      if (writer.sessions === 0 && bad.length > 0) throw new UserError(`${paths.map((p) => (p === "-" ? "<stdin>" : p)).join(" ")}: no readable sessions (${bad.length} file${bad.length === 1 ? "" : "s"} could not be read):\n${badFileLines(bad).join("\n")}`);
      const documents = writer.documents(bad, options.shard === undefined ? undefined : { index: options.shard.index, of: options.shard.of, sessions: refs.length, listed: listed.refs.length });
      if (options.out !== undefined) {
        writeFileAtomic(join(options.out, "scan.json"), documents.json);
        writeFileAtomic(join(options.out, "scan.md"), documents.markdown);
        writeFileAtomic(join(options.out, "scan.html"), documents.html);
      }
      await writePieces(process.stdout, options.json ? documents.json : documents.markdown);
      if (options.out !== undefined) process.stderr.write(`loopsim: wrote ${join(options.out, "scan.{json,md,html}")}\n`);
      return writer.sessions;
    } finally {
      bar?.stop();
      writer.close();
    }
  });
  if (options.ci !== undefined) {
    const all = [...cases, ...bad.map((b) => ({ ...unreadableCase(b.file, b.reason, options.target.name), file: b.file }))];
    const named = distinctNames(all);
    const places = new Map(named.map((c) => [c.case, c.place]));
    writeCiOutputs(options.ci, "loopsim scan", [{ name: `loopsim scan ${options.target.name}`, cases: named.map((c) => c.case) }], (c) => places.get(c) ?? {});
  }
  if (bad.length > 0) {
    for (const line of badFileLines(bad)) process.stderr.write(`loopsim: ${line}\n`);
    throw new CheckFailed(`${bad.length} unreadable file${bad.length === 1 ? "" : "s"} skipped; the other ${scanned} sessions are in the report (--strict stops at the first)`);
  }
}
