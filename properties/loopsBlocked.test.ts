// Runs the law noProgressLoopsAreBlocked (properties/laws/targeted.ts) against the reference engine.
import { it } from "vitest";
import { REFERENCE } from "./laws/law.js";
import { noProgressLoopsAreBlocked } from "./laws/targeted.js";
import { assertLaw } from "./support.js";

it(noProgressLoopsAreBlocked.name, () => {
  assertLaw(noProgressLoopsAreBlocked, REFERENCE, "properties/loopsBlocked.test.ts");
});
