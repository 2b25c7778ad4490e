// `loopsim scan PATH... [--config F] [--agent ID] [--target T] [--json] [--out DIR]`: every session
// under the paths through a target, one at a time (a large folder streams), with a summary.
// `planScan` parses and checks the options once; `runScan` scans and hands the report's documents
// to the caller (src/cli/scanOutput.ts writes and prints them).
import { join } from "node:path";
import type { ResolvedConfig } from "../../models/config.js";
import { UserError } from "../io/errors.js";
import { badFileLines, ignoredNote, reasonOf, sessionRefs, type BadFile } from "../import/sessionRefs.js";
import type { SessionFormat } from "../import/types.js";
import { refuseOverwrite } from "../io/overwrite.js";
import { withScratchDir } from "../io/scratchDir.js";
import { checkOutputDir } from "../io/writable.js";
import { ScanReportWriter, type ScanDocuments } from "../scan/reportWriter.js";
import { scanSession } from "../scan/scanSession.js";
import type { Target } from "../targets/target.js";
import { parseShard, type Shard } from "../io/shardSpec.js";
import { configFromOptions } from "../io/configFile.js";
import { resolveTarget } from "../targets/registry.js";
import { sliceOf } from "../sessions/recorded.js";
import { checkCiOutputs, type CiOutputs } from "../ci/emit.js";
import type { JUnitCase } from "../ci/junit.js";
import { placeOf, scanCase, withJsonLine, type Place } from "../ci/scanCases.js";
import { jsonPathLines } from "../ci/jsonPathLine.js";

/** What every session of a scan is run with, as planScan makes it from ScanArgs. */
export interface ScanOptions {
  /** Stop at the first unreadable file instead of skipping and reporting it. */
  readonly strict?: boolean;
  /** Overwrite a report already in `out`. */
  readonly force?: boolean;
  /** The sessions' format (default: detected for each file). */
  readonly format?: SessionFormat | "auto";
  /** The OpenClaw config every session is scanned with. */
  readonly config: ResolvedConfig;
  /** How the report names that config (the file, and the agent). */
  readonly configLabel: string;
  /** The guard every session is run through. */
  readonly target: Target;
  /** The caller prints the JSON report rather than the Markdown one. */
  readonly json: boolean;
  /** Folder for scan.{json,md,html} (checked by planScan; written by the caller). */
  readonly out?: string;
  /** Only this shard's slice of the sessions (every N-th of the listing, as tune and compare --by sessions). */
  readonly shard?: Shard;
  /** --junit FILE, --annotations */
  readonly ci?: CiOutputs;
  /** The options `trace` needs to show a session again as scan saw it (--config, --target). */
  readonly traceArgs?: string;
}

/** The files a scan writes into --out. */
export const SCAN_OUTPUTS: readonly string[] = ["scan.json", "scan.md", "scan.html"];

/** What `loopsim scan` takes, as the command line (or a library caller) hands it over. */
export interface ScanArgs {
  readonly paths: readonly string[];
  /** OpenClaw config file (JSON or JSON5); the defaults when absent. */
  readonly config?: string;
  /** The agent whose agents.list override applies (needs `config`). */
  readonly agent?: string;
  /** The target's name as `--target` takes it (default reference). */
  readonly target?: string;
  /** The caller prints the JSON report rather than the Markdown one. */
  readonly json?: boolean;
  /** Folder for scan.{json,md,html}: checked here, written by the caller. */
  readonly out?: string;
  /** The sessions' format (default: detected for each file). */
  readonly format?: SessionFormat | "auto";
  /** Stop at the first unreadable file (default: skip it and report it). */
  readonly strict?: boolean;
  /** Overwrite a report already in `out`. */
  readonly force?: boolean;
  /** I/N, auto or auto/N. */
  readonly shard?: string;
  /** A JUnit file and/or GitHub annotations (their paths checked here). */
  readonly ci?: CiOutputs;
}

/** A parsed scan: the paths to list, and the options every session is scanned with. */
export interface ScanPlan {
  readonly paths: readonly string[];
  readonly options: ScanOptions;
}

/**
 * Parses and checks what scan is given, once, before any session is read: the config, the target
 * (loaded), the shard, and the options `trace` needs to show a session again as scan saw it. An
 * output folder that cannot be written or holds a report (without `force`), a bad shard or an
 * unknown target is a user error (exitCode 2) naming the flag; nothing is created.
 */
export async function planScan(args: ScanArgs): Promise<ScanPlan> {
  if (args === null || typeof args !== "object" || !Array.isArray(args.paths) || !args.paths.every((p) => typeof p === "string" && p !== "")) throw new UserError("scan: paths must be a list of session files or folders");
  const config = configFromOptions(args.config, args.agent);
  if (args.out !== undefined) {
    checkOutputDir(args.out);
    refuseOverwrite(args.out, SCAN_OUTPUTS, args.force === true);
  }
  checkCiOutputs(args.ci, [...args.paths, ...(args.out === undefined ? [] : SCAN_OUTPUTS.map((f) => join(args.out as string, f)))]);
  const name = args.target ?? "reference";
  const target = await resolveTarget(name);
  const configLabel = args.config === undefined ? "OpenClaw defaults" : `${args.config}${args.agent === undefined ? "" : ` (agent ${args.agent})`}`;
  const traceArgs = `${args.config === undefined ? "" : ` --config ${args.config}`}${args.agent === undefined ? "" : ` --agent ${args.agent}`}${name === "reference" ? "" : ` --target ${target.loadedFrom ?? target.name}`}`;
  const options: ScanOptions = {
    config,
    configLabel,
    target,
    json: args.json === true,
    ...(args.out === undefined ? {} : { out: args.out }),
    strict: args.strict === true,
    force: args.force === true,
    ...(args.format === undefined ? {} : { format: args.format }),
    ...(args.shard === undefined ? {} : { shard: parseShard(args.shard) }),
    ...(args.ci === undefined ? {} : { ci: args.ci }),
    traceArgs,
  };
  return { paths: args.paths, options };
}

/** What a scan found besides its report: the sessions scanned, the files skipped, one CI case per session. */
export interface ScanRun {
  readonly sessions: number;
  readonly bad: readonly BadFile[];
  /** One JUnit case per session scanned, with where CI should place it (only when the plan asks for CI outputs). */
  readonly cases: readonly ScanCase[];
}

/** A session's JUnit case, where an annotation places it, and the file it came from. */
export interface ScanCase {
  readonly case: JUnitCase;
  readonly place: Place;
  readonly file: string;
}

/** Where a scan's report goes while its spooled pieces still exist; the command line writes or prints them. */
export interface ScanSink {
  /** A note about the listing (files passed over), before any session is scanned. */
  readonly notice?: (line: string) => void;
  readonly progress?: { readonly start: (total: number) => void; readonly tick: () => void; readonly stop: () => void };
  /** The report's documents, valid only until the promise it returns settles (they are spooled to a scratch folder). */
  readonly documents: (documents: ScanDocuments) => Promise<void>;
}

/**
 * Runs every session of a plan (planScan) through its target, one at a time (rows are spooled to a
 * scratch folder, memory holds the summary), and hands the report's documents to `sink`. Writes
 * nothing itself; a file that cannot be read is skipped and returned in `bad` (with `strict`, it
 * stops); no readable session at all is a user error.
 *
 * @param plan - from {@link planScan}.
 * @param sink - receives the notes, the progress and the report's documents (valid only while its promise is pending).
 */
export async function runScan(plan: ScanPlan, sink: ScanSink): Promise<ScanRun> {
  const { paths, options } = plan;
  const listed = await sessionRefs(paths, options.strict === true);
  const { bad, ignored } = listed;
  const refs = sliceOf(listed.refs, options.shard).map((s) => s.ref);
  if (options.shard !== undefined) sink.notice?.(`shard ${options.shard.index}/${options.shard.of}: scanning ${refs.length} of the ${listed.refs.length} sessions listed (a slice; the other shards hold the rest)`);
  const passedOver = ignoredNote(ignored);
  if (passedOver !== undefined) sink.notice?.(passedOver);
  if (listed.refs.length === 0 && bad.length === 0) throw new UserError(`no session files (*.jsonl, *.traj, *.traj.json, *.json, each also .gz) under ${paths.join(", ")}`);
  sink.progress?.start(refs.length);
  const cases: ScanCase[] = [];
  const jsonLines = jsonPathLines();
  const sessions = await withScratchDir("scan", async (scratch) => {
    const writer = new ScanReportWriter(scratch, options.target.name, options.configLabel);
    try {
      for (const { ref, id, span } of refs) {
        try {
          const scanned = await scanSession(ref, options.config, options.target, id, options.format ?? "auto", span);
          writer.add(scanned);
          if (options.ci !== undefined) {
            const at = withJsonLine(placeOf(scanned.firstBlock?.at ?? scanned.firstAbort?.at), jsonLines);
            cases.push({ case: scanCase(scanned, options.target.name, options.traceArgs ?? ""), place: at.file === undefined ? { file: scanned.file } : at, file: scanned.file });
          }
        } catch (error) {
          // A file that fails while it is read (cut short, not JSON) is reported and skipped.
          // --format naming another format is the user's mistake about every file: stop there.
          if (options.strict === true || !(error instanceof UserError) || /--format/.test(error.message)) throw error;
          bad.push({ file: ref, reason: reasonOf(error, ref) });
        }
        sink.progress?.tick();
      }
      sink.progress?.stop();
      if (writer.sessions === 0 && bad.length > 0) throw new UserError(`${paths.map((p) => (p === "-" ? "<stdin>" : p)).join(" ")}: no readable sessions (${bad.length} file${bad.length === 1 ? "" : "s"} could not be read):\n${badFileLines(bad).join("\n")}`);
      await sink.documents(writer.documents(bad, options.shard === undefined ? undefined : { index: options.shard.index, of: options.shard.of, sessions: refs.length, listed: listed.refs.length }));
      return writer.sessions;
    } finally {
      sink.progress?.stop();
      writer.close();
    }
  });
  return { sessions, bad, cases };
}
