// Outputs are written to a temp file beside the target and renamed over it, so a crash or a
// full disk never leaves a half-written report, trace or scenario behind.
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, basename, join } from "node:path";

let counter = 0;

export function writeFileAtomic(path: string, contents: string): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${counter++}.tmp`);
  try {
    writeFileSync(temp, contents);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
