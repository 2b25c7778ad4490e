// The contract ships in the repo (docs/CONTRACT.md) with every rule ID, and its rule-to-tests
// table (docs/CONTRACT-coverage.md) is what the tests say today.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { contractRules, coverageMarkdown } from "../src/contract/coverage.js";

const ROOT = join(import.meta.dirname, "..");

it("docs/CONTRACT.md states every rule, by its ID", () => {
  const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);
  expect(contractRules(ROOT)).toEqual([...ids("C", 5), ...ids("E", 5), ...ids("H", 3), ...ids("R", 4), ...ids("S", 4), ...ids("D", 3), ...ids("W", 2), ...ids("G", 5), ...ids("K", 7)]);
});

it("docs/CONTRACT-coverage.md is up to date (run `npm run contract` after changing tests)", () => {
  expect(readFileSync(join(ROOT, "docs", "CONTRACT-coverage.md"), "utf8")).toBe(coverageMarkdown(ROOT));
});
