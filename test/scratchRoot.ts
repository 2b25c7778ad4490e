// Vitest's global setup: one scratch folder for the whole run, under the system's temp folder,
// that every test's tempDir() (test/cli/run.ts) makes its folders in, removed when the run ends
// (also when tests fail), so a run leaves nothing behind in /tmp. Workers inherit the variable.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), "loopsim-test-run-"));
  // Traversable by others, as /tmp is: a test that runs the CLI as another user (nobody, when the
  // suite runs as root) opens its own folder in here. Each folder inside stays 0700 unless its
  // test opens it.
  chmodSync(root, 0o755);
  process.env.LOOPSIM_TEST_SCRATCH = root;
  return () => rmSync(root, { recursive: true, force: true });
}
