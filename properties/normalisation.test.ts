// Runs the law normalisationInvariant (properties/laws/normalisation.ts) against the reference engine.
import { it } from "vitest";
import { REFERENCE } from "./laws/law.js";
import { normalisationInvariant } from "./laws/normalisation.js";
import { assertLaw } from "./support.js";

it(normalisationInvariant.name, () => {
  assertLaw(normalisationInvariant, REFERENCE, "properties/normalisation.test.ts");
});
