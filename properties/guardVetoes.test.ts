// Runs the law vetoesNeverFillTheGuardWindow (properties/laws/guardVetoes.ts) against the reference engine.
import { it } from "vitest";
import { REFERENCE } from "./laws/law.js";
import { vetoesNeverFillTheGuardWindow } from "./laws/guardVetoes.js";
import { assertLaw } from "./support.js";

it(vetoesNeverFillTheGuardWindow.name, () => {
  assertLaw(vetoesNeverFillTheGuardWindow, REFERENCE, "properties/guardVetoes.test.ts");
});
