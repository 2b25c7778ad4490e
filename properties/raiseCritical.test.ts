// Runs the law raisingCriticalNeverAddsBlocks (properties/laws/monotonicity.ts) against the reference engine.
import { it } from "vitest";
import { REFERENCE } from "./laws/law.js";
import { raisingCriticalNeverAddsBlocks } from "./laws/monotonicity.js";
import { assertLaw } from "./support.js";

it(raisingCriticalNeverAddsBlocks.name, () => {
  assertLaw(raisingCriticalNeverAddsBlocks, REFERENCE, "properties/raiseCritical.test.ts");
});
