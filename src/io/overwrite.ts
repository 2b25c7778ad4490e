// One overwrite rule for every command that writes into a folder: an output file that is already
// there is kept unless --force says otherwise, so a second run never replaces a report silently.
// Checked before any work starts.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "./errors.js";

export function refuseOverwrite(dir: string, files: readonly string[], force: boolean): void {
  if (force) return;
  const existing = files.map((f) => join(dir, f)).find((path) => existsSync(path));
  if (existing !== undefined) throw new UserError(`${existing} exists; pass --force to overwrite it`);
}
