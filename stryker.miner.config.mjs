// Stryker over the miner's rules (src/realLoops/; the list and each rule's tests are in
// mutation/files.mjs), everything else as in stryker.config.mjs. `npm run mutation` drives it for
// that group: file by file, two passes, each file's own test files named to vitest in
// LOOPSIM_MUTATION_TESTS. Run directly (`npx stryker run stryker.miner.config.mjs`), every miner
// test file judges every rule.
import base from "./stryker.config.mjs";
import { MINER_RULES } from "./mutation/files.mjs";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  ...base,
  vitest: { configFile: "vitest.mutation.miner.config.ts" },
  mutate: Object.keys(MINER_RULES),
};
