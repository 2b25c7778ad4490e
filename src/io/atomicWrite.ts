// Outputs are written to a temp file beside the target and renamed over it, so a crash or a
// full disk never leaves a half-written report, trace or scenario behind.
import { closeSync, existsSync, openSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { dirname, basename, join } from "node:path";
import { UserError } from "./errors.js";
import { fsUserError, isFsError } from "./fsErrors.js";
import type { Pieces } from "./spool.js";
import { makeOutputDir } from "./writable.js";

let counter = 0;

/** Writes text, or a document of text and spooled rows (a report too large to hold), atomically. */
export function writeFileAtomic(path: string, contents: string | Pieces): void {
  const dir = dirname(path);
  if (existsSync(path) && statSync(path).isDirectory()) throw new UserError(`${path}: is a directory; give a file path to write`);
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UserError(`${dir}: exists and is not a folder, so ${basename(path)} cannot be written in it`);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${counter++}.tmp`);
  try {
    makeOutputDir(dir);
    if (typeof contents === "string") writeFileSync(temp, contents);
    else writePiecesTo(temp, contents);
    renameSync(temp, path);
  } catch (error) {
    try {
      rmSync(temp, { force: true });
    } catch {
      // The folder refused the write, so it refuses the clean-up too: there is nothing to remove.
    }
    // Named by the file the user asked for, not by the temporary file beside it.
    if (isFsError(error)) throw fsUserError(error.path === temp ? Object.assign(error, { path }) : error, path, "write");
    throw error;
  }
}

function writePiecesTo(file: string, pieces: Pieces): void {
  const fd = openSync(file, "w");
  try {
    for (const piece of pieces) {
      if (typeof piece === "string") writeSync(fd, piece);
      else for (const chunk of piece.chunks()) writeSync(fd, chunk);
    }
  } finally {
    closeSync(fd);
  }
}
