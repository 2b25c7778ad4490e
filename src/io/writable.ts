// Output folders are checked before any work starts, so a long run never fails at its last step.
import { accessSync, constants, mkdirSync, statSync } from "node:fs";
import { UserError } from "./errors.js";
import { fsUserError, isFsError } from "./fsErrors.js";

export function ensureWritableDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    if (code === "EEXIST" || code === "ENOTDIR") throw new UserError(`${dir}: cannot create the output folder (a file is in the way)`);
    if (isFsError(error)) throw fsUserError(error, dir, "create the output folder");
    throw error;
  }
  if (!statSync(dir).isDirectory()) throw new UserError(`${dir}: is a file, not a folder`);
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new UserError(`${dir}: the output folder is not writable`);
  }
}
