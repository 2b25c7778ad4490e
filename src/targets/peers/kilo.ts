// Kilo Code (current, opencode-based): identical calls (name + args) among the last 30 completed
// or failed calls, not necessarily in a row; the count restarts when a write tool runs or the
// same tool runs with other args. At 3, it asks permission (`doom_loop`).
import { unorderedKey } from "./callKeys.js";
import { ALLOW, peerTarget } from "./peerGuard.js";

export const KILO_WINDOW = 30;
export const KILO_THRESHOLD = 3;
export const KILO_WRITE_TOOLS: ReadonlySet<string> = new Set(["edit", "multiedit", "write", "apply_patch"]);
const DETECTOR = "kilo:doom-loop";

interface Completed {
  readonly tool: string;
  readonly key: string;
}

/** Identical completed calls since the last reset (a write, or the same tool with other args). */
function identicalSinceReset(window: readonly Completed[], tool: string, key: string): number {
  let count = 0;
  for (let i = window.length - 1; i >= 0; i--) {
    const entry = window[i] as Completed;
    if (entry.key === key) count++;
    else if (KILO_WRITE_TOOLS.has(entry.tool) || entry.tool === tool) break;
  }
  return count;
}

export const KILO_TARGET = peerTarget<readonly Completed[]>({
  name: "kilo",
  summary: `Kilo Code: the ${KILO_THRESHOLD}rd identical call among the last ${KILO_WINDOW} asks permission (here: the run ends), unless a write or the same tool with other args came between; results are not compared`,
  notes: [
    "checked before the call runs, counting completed or failed calls (the window holds calls that ran)",
    "args compared as values, key order ignored",
    "write tools: edit, multiedit, write, apply_patch",
    "permission is asked and no user answers in a simulation: the run ends there",
  ],
  detectors: [DETECTOR],
  warns: false,
  reducer: {
    initial: () => [],
    onCall(window, call) {
      const key = unorderedKey(call.tool, call.params);
      const count = identicalSinceReset(window, call.tool, key) + 1;
      if (count < KILO_THRESHOLD) return { state: window, action: ALLOW };
      return { state: window, action: { kind: "stop", detector: DETECTOR, count, message: `Kilo Code: ${call.tool} called ${count} times with the same arguments; permission asked (doom_loop).` } };
    },
    onOutcome(window, outcome) {
      return { state: [...window, { tool: outcome.tool, key: unorderedKey(outcome.tool, outcome.params) }].slice(-KILO_WINDOW), action: ALLOW };
    },
  },
});
