// Runs the law noBlockWithoutEvidence (properties/laws/evidence.ts) against the reference engine.
import { it } from "vitest";
import { REFERENCE } from "./laws/law.js";
import { noBlockWithoutEvidence } from "./laws/evidence.js";
import { assertLaw } from "./support.js";

it(noBlockWithoutEvidence.name, () => {
  assertLaw(noBlockWithoutEvidence, REFERENCE, "properties/evidence.test.ts");
});
