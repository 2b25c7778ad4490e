// Runs the law blocksAreSticky (properties/laws/targeted.ts) against the reference engine.
import { it } from "vitest";
import { REFERENCE } from "./laws/law.js";
import { blocksAreSticky } from "./laws/targeted.js";
import { assertLaw } from "./support.js";

it(blocksAreSticky.name, () => {
  assertLaw(blocksAreSticky, REFERENCE, "properties/stickyBlocks.test.ts");
});
