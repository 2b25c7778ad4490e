// Runs the law raisingWarningNeverAddsWarnings (properties/laws/monotonicity.ts) against the reference engine.
import { it } from "vitest";
import { REFERENCE } from "./laws/law.js";
import { raisingWarningNeverAddsWarnings } from "./laws/monotonicity.js";
import { assertLaw } from "./support.js";

it(raisingWarningNeverAddsWarnings.name, () => {
  assertLaw(raisingWarningNeverAddsWarnings, REFERENCE, "properties/raiseWarning.test.ts");
});
