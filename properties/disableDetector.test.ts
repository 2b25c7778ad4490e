// Runs the law disablingDetectorNeverAddsBlocks (properties/laws/monotonicity.ts) against the reference engine.
import { it } from "vitest";
import { REFERENCE } from "./laws/law.js";
import { disablingDetectorNeverAddsBlocks } from "./laws/monotonicity.js";
import { assertLaw } from "./support.js";

it(disablingDetectorNeverAddsBlocks.name, () => {
  assertLaw(disablingDetectorNeverAddsBlocks, REFERENCE, "properties/disableDetector.test.ts");
});
