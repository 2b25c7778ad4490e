// Cline's loop detection: consecutive identical calls (name + key-sorted args, its task_progress
// parameter removed), checked after each call ran. Soft at 3: a warning appended to the next
// message to the model. Hard at 5: the task stops (it asks interactively, and fails unattended).
import { unorderedKey, withoutField } from "./callKeys.js";
import { extend, NO_STREAK, type Streak } from "./consecutive.js";
import { ALLOW, peerTarget } from "./peerGuard.js";

export const CLINE_SOFT = 3;
export const CLINE_HARD = 5;
const SOFT = "cline:repeated-call-soft";
const HARD = "cline:repeated-call-hard";

export const CLINE_TARGET = peerTarget<Streak>({
  name: "cline",
  summary: `Cline: a warning after the ${CLINE_SOFT}rd identical call in a row, the task stops after the ${CLINE_HARD}th; results are not compared`,
  notes: [
    "checked after the call ran: the warning and the stop come with the result, and the 5th call did run",
    "the soft warning is repeated on the 4th identical call too (the streak is still at or above 3)",
    "unattended, the hard limit fails the task: the run ends",
  ],
  detectors: [SOFT, HARD],
  warns: true,
  reducer: {
    initial: () => NO_STREAK,
    onCall: (state) => ({ state, action: ALLOW }),
    onOutcome(state, outcome) {
      const streak = extend(state, unorderedKey(outcome.tool, withoutField(outcome.params, "task_progress")));
      if (streak.length >= CLINE_HARD) return { state: streak, action: { kind: "stop", detector: HARD, count: streak.length, message: `Cline: ${outcome.tool} called ${streak.length} times in a row with the same arguments; the task stops.` } };
      if (streak.length >= CLINE_SOFT) return { state: streak, action: { kind: "warn", detector: SOFT, count: streak.length, message: `Cline: you have called ${outcome.tool} ${streak.length} times in a row with the same arguments. Try a different approach.` } };
      return { state: streak, action: ALLOW };
    },
  },
});
