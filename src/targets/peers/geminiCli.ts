// Gemini CLI's heuristic loop check (LoopDetectionService, as shipped from 0.44 with the cycle
// rule of 0.5x-0.6x): a key per call (tool name + args as given, no key sorting), the last 25 keys
// of the current prompt, and a loop when the tail is a cycle of period 1 to 5 repeated 5 times:
// 5 identical calls, 10 for an A/B alternation, 25 for a period-5 cycle.
// Strike 1 cuts the response off at the detecting call: that call and the rest of its response
// never run, and a hidden feedback turn follows. The key list is kept (only the flag is cleared),
// so the very next identical call is strike 2, which stops the prompt.
// Pinned against the real LoopDetectionService of @google/gemini-cli-core by reports/peers.
import { orderedKey } from "./callKeys.js";
import { ALLOW, peerTarget } from "./peerGuard.js";
import { GEMINI_NORMALIZATION } from "./normalization/geminiCli.js";

export const GEMINI_KEYS_KEPT = 25;
export const GEMINI_REPEATS = 5;
export const GEMINI_MAX_PERIOD = 5;
const DETECTOR = "gemini-cli:tool-call-cycle";
const CUT = "gemini-cli:response-cut";

interface GeminiState {
  readonly keys: readonly string[];
  readonly strikes: number;
  /** The response strike 1 cut off: its remaining calls never reach the detector nor run. */
  readonly cutStep: string | undefined;
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

export function geminiFeedback(detail: string): string {
  return `System: Potential loop detected. Details: ${detail}. Please take a step back and confirm you're making forward progress.`;
}

export const GEMINI_CLI_TARGET = peerTarget<GeminiState>({
  name: "gemini-cli",
  summary: "Gemini CLI: a cycle of period 1-5 repeated 5 times (5 identical calls, 10 for A/B) is cut off before it runs with hidden feedback; the next detection in the prompt (the very next identical call) stops it; results are not compared",
  notes: [
    "args as given: the same args in another key order are another key",
    "checked as each call is requested; strike 1 cuts the response: the detecting call and the rest of its response (same step) do not run",
    "the key list is kept after strike 1 (only the detection flag is cleared), so one more identical call is strike 2 and stops the prompt",
    "a run stands for one user prompt: a fresh key list per run (the real client holds one service per session and resets it when a new prompt id starts; interleaved runs would share it there, never here)",
    "the LLM-based check (after 30 turns in a prompt, every 5-15 turns) needs a model: n/a here, never emulated",
  ],
  detectors: [DETECTOR, CUT],
  normalization: GEMINI_NORMALIZATION,
  warns: false,
  reducer: {
    initial: () => ({ keys: [], strikes: 0, cutStep: undefined }),
    onCall(state, call) {
      if (state.cutStep !== undefined && call.step === state.cutStep) {
        return { state, action: { kind: "block", detector: CUT, count: 0, message: "Gemini CLI: the response was cut off at a detected loop; this call never ran." } };
      }
      const keys = [...state.keys, orderedKey(call.tool, call.params)].slice(-GEMINI_KEYS_KEPT);
      const period = cyclePeriod(keys);
      if (period === undefined) return { state: { ...state, keys, cutStep: undefined }, action: ALLOW };
      const count = period * GEMINI_REPEATS;
      const detail = `Repeated tool call: ${call.tool} with arguments ${JSON.stringify(call.params) ?? "undefined"}`;
      if (state.strikes === 0) {
        return { state: { keys, strikes: 1, cutStep: call.step }, action: { kind: "block", detector: DETECTOR, count, message: geminiFeedback(detail) } };
      }
      return { state: { keys, strikes: state.strikes + 1, cutStep: undefined }, action: { kind: "stop", detector: DETECTOR, count, message: "Gemini CLI: Loop detected, stopping execution." } };
    },
    onOutcome: (state) => ({ state, action: ALLOW }),
  },
});
