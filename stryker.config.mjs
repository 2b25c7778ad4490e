// `npm run mutation`: Stryker 9.6.1 (Stryker 10 needs Node 22) over models/, the reference alone,
// killed by the conformance tests and the property suite with fast-check's pinned seed. Not part
// of `npm test`: a whole run takes hours on 2 cores. `npm run mutation -- --mutate models/guard.ts`
// runs one file. The report goes to reports/mutation/ (git-ignored) and a summary to stdout.
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
  cleanTempDir: true,
};
