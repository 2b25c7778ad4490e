// Runs the law scopedWithoutEviction (properties/laws/runScoping.ts) against the reference engine.
import { it } from "vitest";
import { REFERENCE } from "./laws/law.js";
import { scopedWithoutEviction } from "./laws/runScoping.js";
import { assertLaw } from "./support.js";

it(scopedWithoutEviction.name, () => {
  assertLaw(scopedWithoutEviction, REFERENCE, "properties/scopedNoEviction.test.ts");
});
