// Runs the law reusedCallIdsStayInTheirRun (properties/laws/callIdReuse.ts) against the reference engine.
import { it } from "vitest";
import { REFERENCE } from "./laws/law.js";
import { reusedCallIdsStayInTheirRun } from "./laws/callIdReuse.js";
import { assertLaw } from "./support.js";

it(reusedCallIdsStayInTheirRun.name, () => {
  assertLaw(reusedCallIdsStayInTheirRun, REFERENCE, "properties/callIdReuse.test.ts");
});
