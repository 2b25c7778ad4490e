// Runs the law enabledUnsetGuardOnly (properties/laws/enabledModes.ts) against the reference engine.
import { it } from "vitest";
import { REFERENCE } from "./laws/law.js";
import { enabledUnsetGuardOnly } from "./laws/enabledModes.js";
import { assertLaw } from "./support.js";

it(enabledUnsetGuardOnly.name, () => {
  assertLaw(enabledUnsetGuardOnly, REFERENCE, "properties/enabledUnset.test.ts");
});
