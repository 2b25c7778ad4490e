// Gemini CLI's heuristic loop check (LoopDetectionService): a key per call (tool name + args as
// given, no key sorting), the last 25 keys of the current prompt, and a loop when the tail is a
// cycle of period 1 to 5 repeated 5 times: 5 identical calls, 10 for an A/B alternation, 25 for a
// period-5 cycle. Strike 1 sends a hidden feedback message and a recovery turn; strike 2 stops.
import { orderedKey } from "./callKeys.js";
import { ALLOW, peerTarget } from "./peerGuard.js";

export const GEMINI_KEYS_KEPT = 25;
export const GEMINI_REPEATS = 5;
export const GEMINI_MAX_PERIOD = 5;
const DETECTOR = "gemini-cli:tool-call-cycle";

interface GeminiState {
  readonly keys: readonly string[];
  readonly strikes: number;
}

/** The shortest period p (1..5) whose cycle fills the last 5p keys, or undefined. */
export function cyclePeriod(keys: readonly string[]): number | undefined {
  for (let p = 1; p <= GEMINI_MAX_PERIOD; p++) {
    const span = p * GEMINI_REPEATS;
    if (keys.length < span) return undefined;
    let periodic = true;
    for (let i = keys.length - span + p; i < keys.length && periodic; i++) periodic = keys[i] === keys[i - p];
    if (periodic) return p;
  }
  return undefined;
}

export const GEMINI_CLI_TARGET = peerTarget<GeminiState>({
  name: "gemini-cli",
  summary: "Gemini CLI: a cycle of period 1-5 repeated 5 times (5 identical calls, 10 for A/B) gets a feedback message, the next detection in the prompt stops it; results are not compared",
  notes: [
    "args as given: the same args in another key order are another key",
    "checked as each call is requested; the strike-1 feedback is a warning the agent sees, and the call runs",
    "after strike 1 the key list starts again (the recovery turn), so strike 2 needs a whole new cycle",
    "a run stands for one user prompt",
  ],
  detectors: [DETECTOR],
  warns: true,
  reducer: {
    initial: () => ({ keys: [], strikes: 0 }),
    onCall(state, call) {
      const keys = [...state.keys, orderedKey(call.tool, call.params)].slice(-GEMINI_KEYS_KEPT);
      const period = cyclePeriod(keys);
      if (period === undefined) return { state: { ...state, keys }, action: ALLOW };
      const count = period * GEMINI_REPEATS;
      if (state.strikes === 0) {
        return { state: { keys: [], strikes: 1 }, action: { kind: "warn", detector: DETECTOR, count, message: `Gemini CLI: a repeating cycle of ${period} tool call${period === 1 ? "" : "s"} was detected. Stop repeating and try a different approach.` } };
      }
      return { state: { keys, strikes: state.strikes + 1 }, action: { kind: "stop", detector: DETECTOR, count, message: `Gemini CLI: the loop was detected again in this prompt; the request stops with a loop error.` } };
    },
    onOutcome: (state) => ({ state, action: ALLOW }),
  },
});
