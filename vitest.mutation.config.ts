// The tests that judge models/ under mutation: the conformance tests (one per rule), the property
// suite and the scenario corpus (exact timelines). The CLI, importer and report tests add little
// about models/ but minutes per mutant. Modules are shared between test files (isolate: false):
// Stryker switches mutants at run time, and reloading every file for every mutant doubled the time.
// A static mutant (module-level code, run once at load) needs fresh modules, so mutation/runByFile.mjs
// runs those in a second pass with LOOPSIM_MUTATION_ISOLATE=1.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/conformance/**/*.test.ts", "properties/**/*.test.ts", "test/corpus.test.ts"],
    exclude: ["dist/**", "node_modules/**"],
    testTimeout: 120_000,
    pool: "threads",
    isolate: process.env.LOOPSIM_MUTATION_ISOLATE === "1",
    setupFiles: ["mutation/noShrink.setup.ts"],
  },
});
