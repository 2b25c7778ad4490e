// Runs the law warningsComeFirst (properties/laws/warningsFirst.ts) against the reference engine.
import { it } from "vitest";
import { REFERENCE } from "./laws/law.js";
import { warningsComeFirst } from "./laws/warningsFirst.js";
import { assertLaw } from "./support.js";

it(warningsComeFirst.name, () => {
  assertLaw(warningsComeFirst, REFERENCE, "properties/warningsFirst.test.ts");
});
