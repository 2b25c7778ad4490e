// Output folders are checked before any work starts, so a long run never fails at its last step,
// and they are created only when the first output is written, so a run that stops on a user error
// (or on Ctrl-C) leaves no empty folder behind.
//
// Folders are made one level at a time from the nearest one that exists. Node's recursive mkdir
// spins forever on a path under a pseudo file system that refuses new entries (`/proc/x` answers
// ENOENT to every attempt, and the recursive walk tries again), so it is never used on a user's path.
import { accessSync, constants, lstatSync, mkdirSync, mkdtempSync, rmdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { UserError } from "./errors.js";
import { fsUserError, isFsError } from "./fsErrors.js";

/** The nearest existing ancestor of `path` (or `path` itself), with the missing folders below it. */
function nearestExisting(path: string): { existing: string; missing: string[] } {
  const missing: string[] = [];
  let current = resolve(path);
  for (;;) {
    try {
      lstatSync(current);
      return { existing: current, missing: missing.reverse() };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const parent = dirname(current);
      // ENOTDIR: a file stands where a folder of the path should be; the walk finds that file.
      if ((code !== "ENOENT" && code !== "ENOTDIR") || parent === current) throw error;
      missing.push(current);
      current = parent;
    }
  }
}

function refuse(dir: string, error: unknown, what: string): never {
  const code = (error as NodeJS.ErrnoException).code ?? "error";
  if (code === "EEXIST" || code === "ENOTDIR") throw new UserError(`${dir}: cannot create the output folder (a file is in the way)`);
  if (isFsError(error)) throw fsUserError(error, dir, what);
  throw error;
}

/**
 * Checks that `dir` is, or can become, a writable output folder, without creating it. A missing
 * folder is judged by its nearest existing ancestor: that must be a writable folder in which a
 * folder can really be made (a probe made and removed at once: root may write everywhere by
 * permission bits, yet `/proc` refuses every new entry).
 */
export function checkOutputDir(dir: string): void {
  let found: { existing: string; missing: string[] };
  try {
    found = nearestExisting(dir);
  } catch (error) {
    refuse(dir, error, "create the output folder");
  }
  const { existing, missing } = found;
  let stat;
  try {
    stat = statSync(existing);
  } catch (error) {
    refuse(dir, error, "create the output folder");
  }
  if (!stat.isDirectory()) throw new UserError(`${dir}: cannot create the output folder (a file is in the way${missing.length === 0 ? "" : `: ${existing}`})`);
  try {
    accessSync(existing, constants.W_OK);
  } catch {
    throw new UserError(missing.length === 0 ? `${dir}: the output folder is not writable` : `${dir}: cannot create the output folder: permission denied`);
  }
  if (missing.length === 0) return;
  try {
    rmdirSync(mkdtempSync(join(existing, ".loopsim-probe-")));
  } catch (error) {
    throw new UserError(`${dir}: cannot create the output folder (${existing} refuses new folders: ${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
}

/** Creates `dir` and its missing parents, one level at a time (see the note at the top). */
export function makeOutputDir(dir: string): void {
  let missing: string[];
  try {
    missing = nearestExisting(dir).missing;
  } catch (error) {
    refuse(dir, error, "create the output folder");
  }
  for (const folder of missing) {
    try {
      mkdirSync(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST" && statSync(folder).isDirectory()) continue; // made meanwhile
      refuse(dir, error, "create the output folder");
    }
  }
  if (!statSync(dir).isDirectory()) throw new UserError(`${dir}: is a file, not a folder`);
}

/**
 * The check of `checkOutputDir`, for commands that write into the folder as they go (a folder of
 * scenario files): it is created now, after the inputs were read.
 */
export function ensureWritableDir(dir: string): void {
  checkOutputDir(dir);
  makeOutputDir(dir);
}
