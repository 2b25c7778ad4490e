// Runs the law freshRunStartsFromZero (properties/laws/runScoping.ts) against the reference engine.
import { it } from "vitest";
import { REFERENCE } from "./laws/law.js";
import { freshRunStartsFromZero } from "./laws/runScoping.js";
import { assertLaw } from "./support.js";

it(freshRunStartsFromZero.name, () => {
  assertLaw(freshRunStartsFromZero, REFERENCE, "properties/freshRun.test.ts");
});
