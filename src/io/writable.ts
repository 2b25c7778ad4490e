// Output folders are checked before any work starts, so a long run never fails at its last step.
import { accessSync, constants, mkdirSync, statSync } from "node:fs";
import { UserError } from "../cli/errors.js";

export function ensureWritableDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    throw new UserError(`${dir}: cannot create the output folder (${code === "EEXIST" || code === "ENOTDIR" ? "a file is in the way" : code})`);
  }
  if (!statSync(dir).isDirectory()) throw new UserError(`${dir}: is a file, not a folder`);
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new UserError(`${dir}: the output folder is not writable`);
  }
}
