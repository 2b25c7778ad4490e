// Vitest's global setup: one scratch folder for the whole run, under the system's temp folder,
// that every test's tempDir() (test/cli/run.ts) makes its folders in, removed when the run ends
// (also when tests fail), so a run leaves nothing behind in /tmp. Workers inherit the variable.
import { chmodSync, existsSync, mkdtempSync, rmdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), "loopsim-test-run-"));
  // Traversable by others, as /tmp is: a test that runs the CLI as another user (nobody, when the
  // suite runs as root) opens its own folder in here. Each folder inside stays 0700 unless its
  // test opens it.
  chmodSync(root, 0o755);
  process.env.LOOPSIM_TEST_SCRATCH = root;
  // Older OpenClaw releases make /tmp/openclaw when their logger loads; every loopsim process
  // removes it at exit when it made it (src/targets/openclaw/silence.ts), but two test processes
  // that load releases side by side can each find the other's and leave it to the other. The run
  // removes it if it was not there when the run began and is still empty.
  const releaseTmp = "/tmp/openclaw";
  const hadReleaseTmp = existsSync(releaseTmp);
  // Ctrl-C: vitest exits (130) without calling the teardown below, so the scratch folder also goes
  // when the process exits, whatever way it does.
  const removeRoot = () => rmSync(root, { recursive: true, force: true });
  process.once("exit", removeRoot);
  return () => {
    removeRoot();
    process.removeListener("exit", removeRoot);
    if (hadReleaseTmp) return;
    try {
      rmdirSync(releaseTmp);
      console.log(`loopsim tests: removed ${releaseTmp}, which a release made while two test processes loaded releases side by side`);
    } catch {
      // Not there (the usual case), or not empty: left as it is.
    }
  };
}
