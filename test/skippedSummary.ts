// A vitest reporter that gathers every "SKIPPED: ..." line the tests print (a runtime not in the
// cache, no ../shared/corpus, no Chromium, not root) and repeats them in a box after the run's
// totals, so a fresh clone that skipped the corpus tests cannot miss it among hundreds of lines.
import type { UserConsoleLog } from "vitest";
import type { Reporter } from "vitest/node";

export default class SkippedSummary implements Reporter {
  private readonly skipped = new Set<string>();

  onUserConsoleLog(log: UserConsoleLog): void {
    for (const line of log.content.split("\n")) if (line.startsWith("SKIPPED:")) this.skipped.add(line.trim());
  }

  onTestRunEnd(): void {
    if (this.skipped.size === 0) return;
    const lines = [...this.skipped].sort();
    const rule = "=".repeat(100);
    process.stdout.write(`\n${rule}\n${lines.length} part${lines.length === 1 ? "" : "s"} of the suite did NOT run here (they passed nothing and failed nothing):\n${lines.map((l) => `  ${l}`).join("\n")}\n${rule}\n`);
  }
}
