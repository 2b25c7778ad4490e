// Runs the law guardExact (properties/laws/guard.ts) against the reference engine.
import { it } from "vitest";
import { REFERENCE } from "./laws/law.js";
import { guardExact } from "./laws/guard.js";
import { assertLaw } from "./support.js";

it(guardExact.name, () => {
  assertLaw(guardExact, REFERENCE, "properties/guard.test.ts");
});
