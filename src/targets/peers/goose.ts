// Goose's RepetitionInspector: more than max_tool_repetitions identical calls in a row (args as
// JSON values) and the call is denied, the denial returned to the model. Off unless the limit is
// set: `goose` is the shipped default, `goose:N` sets the limit.
import { unorderedKey } from "./callKeys.js";
import { extend, NO_STREAK, type Streak } from "./consecutive.js";
import { ALLOW, peerTarget } from "./peerGuard.js";
import type { Target } from "../target.js";

const DETECTOR = "goose:repetition";

export function gooseTarget(limit: number | undefined): Target {
  return peerTarget<Streak>({
    name: limit === undefined ? "goose" : `goose:${limit}`,
    summary:
      limit === undefined
        ? "Goose as shipped: the repetition inspector is off (max_tool_repetitions unset), every call runs"
        : `Goose with max_tool_repetitions = ${limit}: the ${limit + 1}th identical call in a row is denied; results are not compared`,
    notes: [
      "args compared as JSON values (key order ignored)",
      "denied calls still count: while the agent repeats the same call, every further repeat is denied",
    ],
    detectors: limit === undefined ? [] : [DETECTOR],
    warns: false,
    reducer: {
      initial: () => NO_STREAK,
      onCall(state, call) {
        const streak = extend(state, unorderedKey(call.tool, call.params));
        if (limit === undefined || streak.length <= limit) return { state: streak, action: ALLOW };
        return { state: streak, action: { kind: "block", detector: DETECTOR, count: streak.length, message: `Goose: ${call.tool} was called ${streak.length} times in a row with the same arguments (limit ${limit}); the call was denied.` } };
      },
      onOutcome: (state) => ({ state, action: ALLOW }),
    },
  });
}
