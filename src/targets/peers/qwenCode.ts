// Qwen Code's always-on safety: the 5th identical call in a row (name + args) stops the turn.
import { orderedKey } from "./callKeys.js";
import { extend, NO_STREAK, type Streak } from "./consecutive.js";
import { ALLOW, peerTarget } from "./peerGuard.js";

export const QWEN_STOP_AT = 5;
const DETECTOR = "qwen-code:identical-calls";

export const QWEN_CODE_TARGET = peerTarget<Streak>({
  name: "qwen-code",
  summary: `Qwen Code: the ${QWEN_STOP_AT}th identical call in a row stops the turn; results are not compared`,
  notes: [
    "args compared as serialized, key order included (the description says name + args, no sorting)",
    "its task_list tool, the one whose results Qwen compares, is not modelled: no simulated agent calls it",
    "the stop is checked before the call runs, so the stopping call does not run",
  ],
  detectors: [DETECTOR],
  warns: false,
  reducer: {
    initial: () => NO_STREAK,
    onCall(state, call) {
      const streak = extend(state, orderedKey(call.tool, call.params));
      if (streak.length < QWEN_STOP_AT) return { state: streak, action: ALLOW };
      return { state: streak, action: { kind: "stop", detector: DETECTOR, count: streak.length, message: `Qwen Code: ${call.tool} called ${streak.length} times in a row with the same arguments; the turn stops.` } };
    },
    onOutcome: (state) => ({ state, action: ALLOW }),
  },
});
