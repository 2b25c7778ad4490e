import { defineConfig } from "vitest/config";

const ALL = ["test/**/*.test.ts", "properties/**/*.test.ts"];
// Test files that only call loopsim's modules in this process: no child process, no release or
// runtime loaded (a release sets HOME and OPENCLAW_* in the process that loads it), no environment
// or global changed. These share one module graph per worker (isolate: false): each file no longer
// loads and compiles the engine, fast-check and the importers afresh, which took a third of their
// time. Every other file, and any new one, still gets fresh modules of its own. Vitest queues a
// project's files together (by project name, so these come first), which matters: a worker keeps
// its modules only while the next file in its queue shares them.
const IN_PROCESS = [
  "properties/**/*.test.ts",
  "test/conformance/**/*.test.ts",
  "test/bugZoo.test.ts",
  "test/candidates.test.ts",
  "test/changingArgsFamily.test.ts",
  "test/committedOutputs.test.ts",
  "test/contract.test.ts",
  "test/corpus.test.ts",
  "test/eventPairs.test.ts",
  "test/grounded.test.ts",
  "test/idleRecheck.test.ts",
  "test/kiloInvalidArguments.test.ts",
  "test/metrics.test.ts",
  "test/noNewFactOnline.test.ts",
  "test/opencodeArgs.test.ts",
  "test/peerEvidence.test.ts",
  "test/raterAgreement.test.ts",
  "test/reactionSensitivity.test.ts",
  "test/realLoops.test.ts",
  "test/realLoopsCorpus.test.ts",
  "test/refusalWordings.test.ts",
  "test/shellParseFailures.test.ts",
  "test/sweAgentFidelity.test.ts",
  "test/textEvents.test.ts",
  "test/textLoopFamily.test.ts",
  "test/textRules.test.ts",
  "test/unlandedEdits.test.ts",
  "test/unmovedBreak.test.ts",
];

export default defineConfig({
  test: {
    exclude: ["dist/**", "node_modules/**"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "threads",
    // Every tempDir() of the run lives in one folder, removed when the run ends.
    globalSetup: ["./test/scratchRoot.ts"],
    // Most test files wait on the CLI in a child process, so two workers keep both cores busy
    // (vitest's default on a 2-core machine is one).
    maxWorkers: 2,
    // The default reporter, then every SKIPPED line of the run repeated in one box at the end.
    reporters: ["default", "./test/skippedSummary.ts"],
    projects: [
      { extends: true, test: { name: "in-process", include: IN_PROCESS, isolate: false } },
      { extends: true, test: { name: "isolated", include: ALL, exclude: ["dist/**", "node_modules/**", ...IN_PROCESS] } },
    ],
  },
});
