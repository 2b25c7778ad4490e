// Roo Code's ToolRepetitionDetector: with its limit of 3, the 4th identical call in a row (key
// order ignored) is not executed, the model gets a tool error and the user is asked.
import { unorderedKey } from "./callKeys.js";
import { extend, NO_STREAK, type Streak } from "./consecutive.js";
import { ALLOW, peerTarget } from "./peerGuard.js";
import { ROO_NORMALIZATION } from "./normalization/rooCode.js";

export const ROO_LIMIT = 3;
const DETECTOR = "roo-code:tool-repetition";

export const ROO_CODE_TARGET = peerTarget<Streak>({
  name: "roo-code",
  summary: `Roo Code: the ${ROO_LIMIT + 1}th identical call in a row is refused and the user asked (here: the run ends); results are not compared`,
  notes: [
    "checked before execution: the refused call does not run",
    "the user is asked and no user answers in a simulation, so the run ends there; Roo's counter reset after the question never matters",
    "a run stands for one task (its detector lives in the task, across the user's messages there)",
  ],
  detectors: [DETECTOR],
  normalization: ROO_NORMALIZATION,
  warns: false,
  reducer: {
    initial: () => NO_STREAK,
    onCall(state, call) {
      const streak = extend(state, unorderedKey(call.tool, call.params));
      if (streak.length <= ROO_LIMIT) return { state: streak, action: ALLOW };
      return { state: streak, action: { kind: "stop", detector: DETECTOR, count: streak.length, message: `Roo Code: ${call.tool} repeated ${streak.length} times in a row; the call was refused and the user asked for guidance.` } };
    },
    onOutcome: (state) => ({ state, action: ALLOW }),
  },
});
