// This project's own vitest config. Without one, vitest looks for a config in the folders above:
// run from a loopsim checkout (examples/guard-project), it would take loopsim's own, whose
// reporter and test globs are not this project's.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The laws are many small properties: the default timeout is too short at full depth.
    testTimeout: 120_000,
  },
});
