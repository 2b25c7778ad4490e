// Runs the law enabledFalseSilent (properties/laws/enabledModes.ts) against the reference engine.
import { it } from "vitest";
import { REFERENCE } from "./laws/law.js";
import { enabledFalseSilent } from "./laws/enabledModes.js";
import { assertLaw } from "./support.js";

it(enabledFalseSilent.name, () => {
  assertLaw(enabledFalseSilent, REFERENCE, "properties/enabledFalse.test.ts");
});
