// Runs the law unknownStreakBreaksAtAnyOtherRecord (properties/laws/unknownStreakBreaks.ts) against the reference engine.
import { it } from "vitest";
import { REFERENCE } from "./laws/law.js";
import { unknownStreakBreaksAtAnyOtherRecord } from "./laws/unknownStreakBreaks.js";
import { assertLaw } from "./support.js";

it(unknownStreakBreaksAtAnyOtherRecord.name, () => {
  assertLaw(unknownStreakBreaksAtAnyOtherRecord, REFERENCE, "properties/unknownStreakBreaks.test.ts");
});
