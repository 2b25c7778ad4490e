// `loopsim import PATH... [--format F] [--out FILE|DIR]`: recorded sessions as loopsim traces,
// one JSON event per line, each with meta.at = its place in the original file. One input goes to
// --out FILE (or stdout); several, or a folder, go to --out DIR, one trace per session.
import { createWriteStream, renameSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { once } from "node:events";
import { UserError } from "../cli/errors.js";
import { openSession, sessionFiles } from "../import/session.js";
import { statsLine } from "../import/summary.js";
import type { SessionFormat } from "../import/types.js";
import { ensureWritableDir } from "../io/writable.js";
import { LineWriter } from "../io/bufferedOutput.js";

export interface ImportOptions {
  readonly format: SessionFormat | "auto";
  readonly out?: string;
}

function traceName(file: string, roots: readonly string[]): string {
  const root = roots.find((r) => file.startsWith(r)) ?? "";
  const rel = root === file || root === "" ? basename(file) : relative(root, file);
  return rel.replace(/[\\/]/g, "__").replace(/\.(jsonl|traj\.json|traj|json)$/, "") + ".jsonl";
}

/** Streams one session into a file, atomically (a temporary file, then a rename). */
async function importTo(file: string, format: SessionFormat | "auto", out: string | undefined): Promise<string> {
  const opened = openSession(file, format);
  if (opened.format === "trace") throw new UserError(`${file}: already a loopsim trace`);
  const tmp = out === undefined ? undefined : `${out}.tmp-${process.pid}`;
  const stream = tmp === undefined ? undefined : createWriteStream(tmp);
  const writer = stream === undefined ? new LineWriter() : undefined;
  for await (const { event, at } of opened.events) {
    const line = JSON.stringify({ ...event, meta: { at } });
    if (stream !== undefined) {
      if (!stream.write(line + "\n")) await once(stream, "drain");
    } else await writer?.line(line);
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
  const files = sessionFiles(paths);
  if (files.length === 0) throw new UserError(`no session files under ${paths.join(", ")}`);
  const many = files.length > 1 || paths.some((p) => !files.includes(p));
  if (many) {
    if (options.out === undefined) throw new UserError("several sessions need --out DIR (one trace per session)");
    ensureWritableDir(options.out);
    for (const file of files) process.stderr.write(`loopsim: ${await importTo(file, options.format, join(options.out, traceName(file, paths)))}\n`);
    return;
  }
  process.stderr.write(`loopsim: ${await importTo(files[0] as string, options.format, options.out)}\n`);
}
