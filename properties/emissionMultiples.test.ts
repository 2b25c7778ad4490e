// Runs the law warningsEmittedAtMultiples (properties/laws/targeted.ts) against the reference engine.
import { it } from "vitest";
import { REFERENCE } from "./laws/law.js";
import { warningsEmittedAtMultiples } from "./laws/targeted.js";
import { assertLaw } from "./support.js";

it(warningsEmittedAtMultiples.name, () => {
  assertLaw(warningsEmittedAtMultiples, REFERENCE, "properties/emissionMultiples.test.ts");
});
