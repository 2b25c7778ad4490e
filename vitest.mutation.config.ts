// The tests that judge models/ under mutation: the conformance tests (one per rule) and the
// property suite. The CLI, importer and report tests add nothing about models/ but minutes.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/conformance/**/*.test.ts", "properties/**/*.test.ts"],
    exclude: ["dist/**", "node_modules/**"],
    testTimeout: 120_000,
    pool: "threads",
  },
});
