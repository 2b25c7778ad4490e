// Runs the compiled CLI as a user would (npm test builds it first).
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function loopsim(args: string[], input?: string, cwd?: string, env?: Record<string, string>): CliResult {
  const result = spawnSync(process.execPath, [join(import.meta.dirname, "../../bin/loopsim.js"), ...args], {
    input,
    encoding: "utf8",
    cwd,
    env: env === undefined ? process.env : { ...process.env, ...env },
    maxBuffer: 256 * 1024 * 1024,
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** A fresh folder, inside the run's scratch folder (test/scratchRoot.ts removes it at the end). */
export function tempDir(): string {
  return mkdtempSync(join(process.env.LOOPSIM_TEST_SCRATCH ?? tmpdir(), "loopsim-test-"));
}

export function tempFile(name: string, contents: string): string {
  const path = join(tempDir(), name);
  writeFileSync(path, contents);
  return path;
}
