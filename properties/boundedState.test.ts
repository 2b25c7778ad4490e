// Runs the law boundedState (properties/laws/boundedState.ts) against the reference engine.
import { it } from "vitest";
import { REFERENCE } from "./laws/law.js";
import { boundedState } from "./laws/boundedState.js";
import { assertLaw } from "./support.js";

it(boundedState.name, () => {
  assertLaw(boundedState, REFERENCE, "properties/boundedState.test.ts");
});
