// File-system failures are the user's to fix (a directory where a file was meant, a file where a
// folder was meant, no permission, a full disk): one line naming the path, exit 2, no stack.
import { UserError } from "../cli/errors.js";

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
