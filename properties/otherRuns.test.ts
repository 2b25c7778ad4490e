// Runs the law otherRunsNeverAdd (properties/laws/runScoping.ts) against the reference engine.
import { it } from "vitest";
import { REFERENCE } from "./laws/law.js";
import { otherRunsNeverAdd } from "./laws/runScoping.js";
import { assertLaw } from "./support.js";

it(otherRunsNeverAdd.name, () => {
  assertLaw(otherRunsNeverAdd, REFERENCE, "properties/otherRuns.test.ts");
});
