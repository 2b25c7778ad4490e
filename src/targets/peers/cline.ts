// Cline's loop detection (cline 3.0, the SDK's LoopDetectionTracker): consecutive identical calls
// (name + key-sorted args) per session, checked as the tool starts; the call still runs. Hard at
// the 5th and every repeat after; hard trips the consecutive-mistake limit: unattended the task
// stops (interactively it asks, and going on does not reset the count). The old extension's
// task_progress stripping is gone.
// Its source also has a soft warning at exactly the 3rd, appended to the conversation as a user
// message; driven headless (cline@3.0.65, reports/peers), no request to the model ever carried it,
// on any of the 23 probes where the tracker would give it. The model follows the CLI: no warning.
import { unorderedKey } from "./callKeys.js";
import { extend, NO_STREAK, type Streak } from "./consecutive.js";
import { ALLOW, peerTarget } from "./peerGuard.js";
import { CLINE_NORMALIZATION } from "./normalization/unverified.js";

export const CLINE_HARD = 5;
const HARD = "cline:repeated-call-hard";

export const CLINE_TARGET = peerTarget<Streak>({
  name: "cline",
  summary: `Cline: the task stops at the ${CLINE_HARD}th identical call in a row (unattended); the calls run; no warning reaches the model; results are not compared`,
  notes: [
    "the call runs either way: the stop comes with its result",
    "the soft warning at exactly 3 in its source never reached the model when its CLI was driven (cline@3.0.65): not modelled",
    "unattended, the hard limit fails the task: the run ends after the 5th call ran",
    "args compared with keys sorted; every parameter counts (no task_progress stripping in the current SDK)",
    "a run stands for one session (its tracker counts per session; the streak carries across the user's turns there, it starts clean per run here)",
  ],
  detectors: [HARD],
  normalization: CLINE_NORMALIZATION,
  warns: false,
  reducer: {
    initial: () => NO_STREAK,
    onCall: (state) => ({ state, action: ALLOW }),
    onOutcome(state, outcome) {
      const streak = extend(state, unorderedKey(outcome.tool, outcome.params));
      if (streak.length >= CLINE_HARD) return { state: streak, action: { kind: "stop", detector: HARD, count: streak.length, message: `Cline: ${outcome.tool} called ${streak.length} times in a row with the same arguments; the task stops.` } };
      return { state: streak, action: ALLOW };
    },
  },
});
