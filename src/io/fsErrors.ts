// File-system failures are the user's to fix (a directory where a file was meant, a file where a
// folder was meant, no permission, a full disk): one line naming the path, exit 2, no stack.
import { statSync, type Stats } from "node:fs";
import { UserError } from "./errors.js";

const REASONS: Readonly<Record<string, string>> = {
  ENOENT: "no such file or folder",
  EISDIR: "is a directory, not a file",
  ENOTDIR: "a part of this path is a file, not a folder",
  EEXIST: "exists and is not a folder",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "read-only file system",
  ENOSPC: "no space left on the device",
  EMFILE: "too many open files",
  ENAMETOOLONG: "name too long",
  ELOOP: "a loop of symbolic links",
};

export function isFsError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === "string" && (error as NodeJS.ErrnoException).code !== undefined && (error as NodeJS.ErrnoException).code! in REASONS;
}

/** The one-line user error for a file-system failure on `path` (the error's own path if it has one). */
export function fsUserError(error: NodeJS.ErrnoException, path?: string, doing?: string): UserError {
  const where = error.path ?? path ?? "";
  const reason = REASONS[error.code ?? ""] ?? error.message;
  return new UserError(`${where}: ${doing === undefined ? "" : `cannot ${doing}: `}${reason}`);
}

/** Runs fn; a file-system failure becomes the user error for `path`. */
export function withFsErrors<T>(path: string, doing: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (isFsError(error)) throw fsUserError(error, path, doing);
    throw error;
  }
}

/** The stat of an input path, or why it cannot be looked at, in words. */
function lookAt(path: string): { readonly stats: Stats } | { readonly code: string; readonly reason: string } {
  try {
    return { stats: statSync(path) };
  } catch (error) {
    if (isFsError(error)) return { code: error.code as string, reason: REASONS[error.code as string] as string };
    throw error;
  }
}

/** Why an input path cannot be used, in words, or undefined when it can be looked at. */
export function inputProblem(path: string): { readonly code: string; readonly reason: string } | undefined {
  const seen = lookAt(path);
  return "stats" in seen ? undefined : seen;
}

/**
 * Whether an input path is a file or a folder. A path that is missing, or that cannot be looked at
 * (a folder on the way without permission), is the user's error with its true reason: an
 * unreadable folder is not "no such file".
 */
export function inputKind(path: string, label = ""): "file" | "folder" {
  const seen = lookAt(path);
  if (!("stats" in seen)) throw new UserError(`${label}${path}: ${seen.reason}`);
  return seen.stats.isDirectory() ? "folder" : "file";
}
