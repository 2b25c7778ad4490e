// Runs the law engineEqualsOracle (properties/laws/engineOracle.ts) against the reference engine.
import { it } from "vitest";
import { REFERENCE } from "./laws/law.js";
import { engineEqualsOracle } from "./laws/engineOracle.js";
import { assertLaw } from "./support.js";

it(engineEqualsOracle.name, () => {
  assertLaw(engineEqualsOracle, REFERENCE, "properties/oracle.test.ts");
});
