// `loopsim import PATH... [--format F] [--out FILE|DIR]`: recorded sessions as loopsim traces,
// one JSON event per line, each with meta.at = its place in the original file. One input goes to
// --out FILE (or stdout); several, or a folder, go to --out DIR, one trace per session.
import { createWriteStream, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { once } from "node:events";
import { CheckFailed, UserError } from "../io/errors.js";
import { openSession } from "../import/session.js";
import { badFileLines, reasonOf, sessionRefs, type SessionRef } from "../import/sessionRefs.js";
import { statsLine } from "../import/summary.js";
import type { SessionFormat } from "../import/types.js";
import { refuseOverwrite } from "../io/overwrite.js";
import { ensureWritableDir } from "../io/writable.js";
import { LineWriter } from "../io/bufferedOutput.js";

export interface ImportOptions {
  readonly format: SessionFormat | "auto";
  readonly out?: string;
  /** Stop at the first unreadable file instead of reporting it and going on. */
  readonly strict?: boolean;
  readonly force?: boolean;
}

/** A trace file name for a session id: its relative path (and #id) flattened into one name. */
function traceName(id: string): string {
  return id.replace(/^(\.\.?[\\/])+/, "").replace(/[\\/#]/g, "__").replace(/\.(jsonl|traj\.json|traj|json)(?=__|$)/, "") + ".jsonl";
}

/** Streams one session into a file, atomically (a temporary file, then a rename). */
async function importTo(file: string, format: SessionFormat | "auto", out: string | undefined): Promise<string> {
  // A file that fails half-way leaves no partial trace behind (the temporary file is removed).
  const opened = await openSession(file, format);
  if (opened.format === "trace") throw new UserError(`${file}: already a loopsim trace`);
  const tmp = out === undefined ? undefined : `${out}.tmp-${process.pid}`;
  const stream = tmp === undefined ? undefined : createWriteStream(tmp);
  const writer = stream === undefined ? new LineWriter() : undefined;
  try {
    for await (const { event, at } of opened.events) {
      const line = JSON.stringify({ ...event, meta: { at } });
      if (stream !== undefined) {
        if (!stream.write(line + "\n")) await once(stream, "drain");
      } else await writer?.line(line);
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
    await once(stream, "finish");
    renameSync(tmp, out);
  }
  await writer?.flush();
  return statsLine(file, opened.format, opened.stats);
}

export async function importCommand(paths: readonly string[], options: ImportOptions): Promise<void> {
  const { refs, bad } = await sessionRefs(paths, options.strict === true);
  if (refs.length === 0 && bad.length === 0) throw new UserError(`no session files under ${paths.join(", ")}`);
  const many = refs.length + bad.length > 1 || paths.some((p) => !refs.some((r) => r.ref === p));
  if (!many) {
    process.stderr.write(`loopsim: ${await importTo((refs[0] as SessionRef).ref, options.format, options.out)}\n`);
    return;
  }
  if (options.out === undefined) throw new UserError("several sessions need --out DIR (one trace per session)");
  ensureWritableDir(options.out);
  refuseOverwrite(options.out, refs.map((r) => traceName(r.id)), options.force === true);
  let written = 0;
  for (const { ref, id } of refs) {
    try {
      process.stderr.write(`loopsim: ${await importTo(ref, options.format, join(options.out, traceName(id)))}\n`);
      written++;
    } catch (error) {
      // --format naming another format is the user's mistake about every file: stop there.
      if (options.strict === true || !(error instanceof UserError) || /--format/.test(error.message)) throw error;
      bad.push({ file: ref, reason: reasonOf(error, ref) });
    }
  }
  if (bad.length > 0) {
    for (const line of badFileLines(bad)) process.stderr.write(`loopsim: ${line}\n`);
    throw new CheckFailed(`${bad.length} unreadable file${bad.length === 1 ? "" : "s"} skipped; ${written} sessions imported (--strict stops at the first)`);
  }
}
