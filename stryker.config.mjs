// Stryker 9.6.1 (Stryker 10 needs Node 22) over models/, the reference alone, judged by the
// conformance tests, the property suite (fast-check's pinned seed, no shrinking) and the scenario
// corpus: the first of `npm run mutation`'s two groups (the second, the miner's rules, is
// stryker.miner.config.mjs, which takes everything else from here). Not part of `npm test`.
// `npm run mutation` drives it (mutation/runByFile.mjs): file by file, in two passes, each file's
// outcome kept in mutation/results/ and merged by mutation/summarize.mjs. Run directly
// (`npx stryker run stryker.config.mjs`), static mutants are only trustworthy with
// LOOPSIM_MUTATION_ISOLATE=1, which doubles the time. The report of the last run goes to
// reports/mutation/ (git-ignored).
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts" },
  mutate: ["models/**/*.ts"],
  coverageAnalysis: "perTest",
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/index.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  thresholds: { high: 90, low: 85, break: null },
  concurrency: 2,
  timeoutMS: 15000,
  tempDirName: ".stryker-tmp",
  // The runtimes' cache can hold gigabytes (and scratch folders that come and go): never copy it.
  ignorePatterns: [".loopsim-cache", "reports", "dist"],
  cleanTempDir: true,
};
