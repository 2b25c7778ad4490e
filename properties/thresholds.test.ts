// Runs the threshold and switch laws (properties/laws/thresholds.ts) against the reference engine.
import { it } from "vitest";
import { REFERENCE } from "./laws/law.js";
import { blockedCallsLeaveNoTrace, criticalsAlwaysEmitted, globalBreakerIgnoresSwitches, unknownToolBlocksAtThreshold } from "./laws/thresholds.js";
import { assertLaw } from "./support.js";

it(globalBreakerIgnoresSwitches.name, () => {
  assertLaw(globalBreakerIgnoresSwitches, REFERENCE, "properties/thresholds.test.ts");
});

it(unknownToolBlocksAtThreshold.name, () => {
  assertLaw(unknownToolBlocksAtThreshold, REFERENCE, "properties/thresholds.test.ts");
});

it(criticalsAlwaysEmitted.name, () => {
  assertLaw(criticalsAlwaysEmitted, REFERENCE, "properties/thresholds.test.ts");
});

it(blockedCallsLeaveNoTrace.name, () => {
  assertLaw(blockedCallsLeaveNoTrace, REFERENCE, "properties/thresholds.test.ts");
});
