import { defineConfig } from "vitest/config";
import SlowFirstSequencer from "./test/slowFirst.js";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "properties/**/*.test.ts"],
    exclude: ["dist/**", "node_modules/**"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "threads",
    // Every tempDir() of the run lives in one folder, removed when the run ends.
    globalSetup: ["./test/scratchRoot.ts"],
    // Most test files wait on the CLI in a child process, so two workers keep both cores busy
    // (vitest's default on a 2-core machine is one).
    maxWorkers: 2,
    // The slowest files first, also in a clean clone that has no record of the last run.
    sequence: { sequencer: SlowFirstSequencer },
    // The default reporter, then every SKIPPED line of the run repeated in one box at the end.
    reporters: ["default", "./test/skippedSummary.ts"],
  },
});
