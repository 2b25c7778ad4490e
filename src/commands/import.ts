// `loopsim import PATH... [--format F] [--out FILE|DIR]`: recorded sessions as loopsim traces,
// one JSON event per line, each with meta.at = its place in the original file. One input goes to
// --out FILE (or stdout); several, or a folder, go to --out DIR, one trace per session.
// `importSessions` writes the trace files (streamed, each atomically) and prints nothing; the
// command line prints one session's trace and the notes.
import { createWriteStream, existsSync, openSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { once } from "node:events";
import { UserError } from "../io/errors.js";
import { fsUserError, isFsError } from "../io/fsErrors.js";
import { openSession, STDIN } from "../import/session.js";
import type { ElementSpan } from "../import/jsonDocument.js";
import { reasonOf, sessionRefs, type BadFile, type SessionRef } from "../import/sessionRefs.js";
import { statsLine } from "../import/summary.js";
import type { SessionFormat } from "../import/types.js";
import { refuseOverwrite } from "../io/overwrite.js";
import { checkOutputDir, makeOutputDir } from "../io/writable.js";

/** How `loopsim import` reads and writes: the sessions' format, the output file or folder, and the flags. */
export interface ImportOptions {
  readonly format: SessionFormat | "auto";
  readonly out?: string;
  /** Stop at the first unreadable file instead of reporting it and going on. */
  readonly strict?: boolean;
  readonly force?: boolean;
}

/** A trace file name for a session id: its relative path (and #id) flattened into one name. */
function traceName(id: string): string {
  return id.replace(/^(\.\.?[\\/])+/, "").replace(/[\\/#]/g, "__").replace(/\.(jsonl|traj\.json|traj|json)(\.gz)?(?=__|$)/, "") + ".jsonl";
}

/**
 * Session ids as trace names: an absolute id is named from the folder all the inputs share, so
 * `import /work/data/swe --out d` writes `swe__ID.jsonl`, not a flattened copy of the whole path.
 */
function traceNames(ids: readonly string[]): string[] {
  const files = ids.map((id) => id.split("#")[0] as string);
  const absolute = files.filter((f) => isAbsolute(f));
  if (absolute.length === 0) return ids.map(traceName);
  let common = dirname(dirname(absolute[0] as string));
  while (!absolute.every((f) => f.startsWith(common.endsWith(sep) ? common : common + sep)) && dirname(common) !== common) common = dirname(common);
  return ids.map((id) => traceName(isAbsolute(id) ? relative(common, id) : id));
}

function openOutput(tmp: string, out: string): number {
  try {
    return openSync(tmp, "w");
  } catch (error) {
    if (isFsError(error)) throw fsUserError(Object.assign(error, { path: out }), out, "write");
    throw error;
  }
}

/** A single session's --out: a file whose folder can be made, never a folder. */
function checkOutputFile(out: string): void {
  if (existsSync(out) && statSync(out).isDirectory()) throw new UserError(`${out}: is a folder; give a file path for one session's trace (several sessions write into a folder)`);
  checkOutputDir(dirname(resolve(out)));
}

/** Streams one session into a file, atomically (a temporary file, then a rename). */
async function importTo(file: string, format: SessionFormat | "auto", out: string | undefined, span: ElementSpan | undefined, line: (text: string) => void | Promise<void>): Promise<string> {
  // A file that fails half-way leaves no partial trace behind (the temporary file is removed).
  const opened = await openSession(file, format, { span });
  if (opened.format === "trace") throw new UserError(`${file === "-" ? STDIN : file}: already a loopsim trace`);
  if (out !== undefined) makeOutputDir(dirname(resolve(out)));
  const tmp = out === undefined ? undefined : join(dirname(out), `.${basename(out)}.tmp-${process.pid}`);
  // Opened here, so a folder that refuses the file is a user error before any event is read.
  const stream = tmp === undefined || out === undefined ? undefined : createWriteStream(tmp, { fd: openOutput(tmp, out) });
  // An error of the stream (a full disk) is raised once the writes below are done.
  let streamError: Error | undefined;
  stream?.on("error", (error) => {
    streamError = error;
  });
  try {
    for await (const { event, at } of opened.events) {
      const text = JSON.stringify({ ...event, meta: { at } });
      if (stream !== undefined) {
        if (!stream.write(text + "\n")) await once(stream, "drain");
      } else await line(text);
    }
  } catch (error) {
    if (stream !== undefined) {
      stream.on("error", () => undefined); // writes still queued fail once it is destroyed: expected
      const closed = new Promise<void>((resolve) => stream.once("close", () => resolve()));
      stream.destroy();
      await closed;
    }
    if (tmp !== undefined) rmSync(tmp, { force: true });
    throw error;
  }
  if (stream !== undefined && tmp !== undefined && out !== undefined) {
    stream.end();
    if (streamError === undefined && !stream.closed) await Promise.race([once(stream, "finish"), once(stream, "close")]);
    if (streamError !== undefined) {
      rmSync(tmp, { force: true });
      throw fsUserError(Object.assign(streamError, { path: out }), out, "write");
    }
    renameSync(tmp, out);
  }
  return statsLine(file === "-" ? STDIN : file, opened.format, opened.stats);
}

/** What an import did: the files skipped as unreadable (each said once), and where the traces went. */
export interface ImportRun {
  /** Files that could not be read (several sessions only: one unreadable session is a user error). */
  readonly bad: readonly BadFile[];
  /** Traces written into `out` (several sessions), or 0 for one session. */
  readonly written: number;
}

/** Where an import's lines go: one session's trace without `out` (`line`), and the summaries (`note`). */
export interface ImportSink {
  readonly line: (text: string) => void | Promise<void>;
  /** One session's trace has all gone to `line` (flush it), before its summary is noted. */
  readonly end?: () => void | Promise<void>;
  readonly note?: (text: string) => void;
}

/**
 * Converts recorded sessions into loopsim traces: one session to `out` (a file) or, without it,
 * line by line to `sink.line`; several (or a folder) into `out` (a folder), one trace per session,
 * each file written atomically as it streams. Prints nothing itself: `sink.note` hears each
 * session's summary and where the traces went.
 */
export async function importSessions(paths: readonly string[], options: ImportOptions, sink: ImportSink): Promise<ImportRun> {
  if (!Array.isArray(paths) || !paths.every((p) => typeof p === "string" && p !== "")) throw new UserError("importSessions: paths must be a list of session files or folders");
  if (options === null || typeof options !== "object") throw new UserError("importSessions: options must be an object (format, out, strict, force)");
  const note = sink.note ?? (() => undefined);
  // The same file named twice is one input, not two sessions.
  const unique = paths.filter((p, i) => paths.findIndex((q) => resolve(q) === resolve(p)) === i);
  const { refs, bad } = await sessionRefs(unique, options.strict === true);
  if (refs.length === 0 && bad.length === 0) throw new UserError(`no session files under ${unique.join(", ")}`);
  // A folder given is many sessions even when it holds one; a file given by name is one.
  const many = refs.length + bad.length > 1 || unique.some((p) => !refs.some((r) => r.ref === p) && !bad.some((b) => b.file === p));
  const onlyBad = bad[0];
  if (!many && refs.length === 0 && onlyBad !== undefined) throw new UserError(`${onlyBad.file === "-" ? STDIN : onlyBad.file}: ${onlyBad.reason}`);
  if (!many) {
    if (options.out !== undefined) checkOutputFile(options.out);
    const summary = await importTo((refs[0] as SessionRef).ref, options.format, options.out, undefined, sink.line);
    await sink.end?.();
    note(summary);
    if (options.out !== undefined) note(`wrote ${options.out}`);
    return { bad: [], written: 0 };
  }
  if (options.out === undefined) throw new UserError("several sessions need --out DIR (one trace per session)");
  if (!existsSync(options.out) && /\.jsonl?$/i.test(options.out)) {
    throw new UserError(`--out ${options.out}: ${refs.length + bad.length} sessions need a folder (one trace per session), and this looks like a file name; give a folder`);
  }
  checkOutputDir(options.out);
  const names = traceNames(refs.map((r) => r.id));
  refuseOverwrite(options.out, names, options.force === true);
  let written = 0;
  for (const [i, { ref, span }] of refs.entries()) {
    try {
      note(await importTo(ref, options.format, join(options.out, names[i] as string), span, sink.line));
      written++;
    } catch (error) {
      // --format naming another format is the user's mistake about every file: stop there.
      if (options.strict === true || !(error instanceof UserError) || /--format/.test(error.message)) throw error;
      bad.push({ file: ref, reason: reasonOf(error, ref) });
    }
  }
  if (bad.length === 0) note(`wrote ${written} trace${written === 1 ? "" : "s"} into ${options.out}`);
  return { bad, written };
}
