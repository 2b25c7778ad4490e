// The tests that judge the miner's rules (src/realLoops/) under mutation: the focused test files
// mutation/files.mjs names for each rule. mutation/runByFile.mjs names the file's own list in
// LOOPSIM_MUTATION_TESTS (comma-separated); without it, every miner test file runs. Modules are
// shared between test files as in vitest.mutation.config.ts, and fresh for every run in the
// static-mutant pass (LOOPSIM_MUTATION_ISOLATE=1). Unlike the models/ tests, these make scratch
// folders (tempDir()), so the suite's globalSetup is here too: they go under one folder per run,
// removed when the run ends.
import { defineConfig } from "vitest/config";
// @ts-expect-error: a plain ES module of the mutation scripts, without type declarations.
import { minerTests } from "./mutation/files.mjs";

const named = (process.env.LOOPSIM_MUTATION_TESTS ?? "").split(",").filter((t) => t !== "");

export default defineConfig({
  test: {
    include: named.length > 0 ? named : (minerTests() as string[]),
    exclude: ["dist/**", "node_modules/**"],
    testTimeout: 120_000,
    pool: "threads",
    isolate: process.env.LOOPSIM_MUTATION_ISOLATE === "1",
    globalSetup: ["./test/scratchRoot.ts"],
    setupFiles: ["mutation/noShrink.setup.ts"],
  },
});
