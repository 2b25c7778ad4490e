// Cline's loop detection (cline 3.0, the SDK's LoopDetectionTracker): consecutive identical calls
// (name + key-sorted args) per session, checked as the tool starts; the call still runs. A soft
// warning at exactly the 3rd; hard at the 5th and every repeat after. Hard trips the
// consecutive-mistake limit: unattended the task stops (interactively it asks, and going on does
// not reset the count). The old extension's task_progress stripping is gone.
import { unorderedKey } from "./callKeys.js";
import { extend, NO_STREAK, type Streak } from "./consecutive.js";
import { ALLOW, peerTarget } from "./peerGuard.js";
import { CLINE_NORMALIZATION } from "./normalization/unverified.js";

export const CLINE_SOFT = 3;
export const CLINE_HARD = 5;
const SOFT = "cline:repeated-call-soft";
const HARD = "cline:repeated-call-hard";

export const CLINE_TARGET = peerTarget<Streak>({
  name: "cline",
  summary: `Cline: a warning at exactly the ${CLINE_SOFT}rd identical call in a row, the task stops at the ${CLINE_HARD}th (unattended); the calls run; results are not compared`,
  notes: [
    "the call runs either way: the warning and the stop come with its result",
    "the soft warning is given once, at exactly 3 (the 4th identical call gets none)",
    "unattended, the hard limit fails the task: the run ends after the 5th call ran",
    "args compared with keys sorted; every parameter counts (no task_progress stripping in the current SDK)",
    "a run stands for one session (its tracker counts per session; the streak carries across the user's turns there, it starts clean per run here)",
  ],
  detectors: [SOFT, HARD],
  normalization: CLINE_NORMALIZATION,
  warns: true,
  reducer: {
    initial: () => NO_STREAK,
    onCall: (state) => ({ state, action: ALLOW }),
    onOutcome(state, outcome) {
      const streak = extend(state, unorderedKey(outcome.tool, outcome.params));
      if (streak.length >= CLINE_HARD) return { state: streak, action: { kind: "stop", detector: HARD, count: streak.length, message: `Cline: ${outcome.tool} called ${streak.length} times in a row with the same arguments; the task stops.` } };
      if (streak.length === CLINE_SOFT) return { state: streak, action: { kind: "warn", detector: SOFT, count: streak.length, message: `Cline: you have called ${outcome.tool} ${streak.length} times in a row with the same arguments. Try a different approach.` } };
      return { state: streak, action: ALLOW };
    },
  },
});
