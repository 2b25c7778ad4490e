// A private temporary folder for the length of one job: removed when the job ends, fails, or the
// user presses Ctrl-C, so a long run that is interrupted leaves nothing in the system's tmp.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

export async function withScratchDir<T>(prefix: string, job: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), `loopsim-${prefix}-`));
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  const onSignal = (signal: NodeJS.Signals): void => {
    remove();
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  process.once("exit", remove);
  for (const s of SIGNALS) process.once(s, onSignal);
  try {
    return await job(dir);
  } finally {
    remove();
    process.removeListener("exit", remove);
    for (const s of SIGNALS) process.removeListener(s, onSignal);
  }
}
