// Gemini CLI's heuristic loop check (LoopDetectionService, as shipped from 0.44 with the cycle
// rule of 0.5x-0.6x): a key per call (tool name + args as given, no key sorting), the last 25 keys
// of the current prompt, and a loop when the tail is a cycle of period 1 to 5 repeated 5 times:
// 5 identical calls, 10 for an A/B alternation, 25 for a period-5 cycle.
// Strike 1 cuts the response off at the detecting call: that call and the rest of its response
// never run, and a hidden feedback turn follows. The key list is kept (only the flag is cleared),
// so the very next identical call is strike 2, which stops the prompt.
// Model text: the content-loop rule (geminiContent.ts) reads messages, strikes counted with the
// tool-call rule's (one detection count per prompt); a tool call starts the text tracking afresh.
// Thoughts are not read.
// One guard per session, as the client holds one LoopDetectionService and resets it when a prompt
// with another id starts (client.js sendMessageStream: `lastPromptId !== prompt_id`, ids compared
// exactly): two runs that take turns reset it at every change, so neither reaches 5.
// Vocabulary shared with the real target (gemini-cli@V): the detector is `tool-call-loop` or
// `content-loop`, and count is the service's own detection count, the strike (1 cuts, 2 stops).
// Pinned against the real LoopDetectionService of @google/gemini-cli-core by reports/peers.
import { orderedKey } from "./callKeys.js";
import { CONTENT_IDLE, contentDetail, contentStep, type ContentState } from "./geminiContent.js";
import { ALLOW, peerTarget, type PeerAction } from "./peerGuard.js";
import { GEMINI_NORMALIZATION } from "./normalization/geminiCli.js";

export const GEMINI_KEYS_KEPT = 25;
export const GEMINI_REPEATS = 5;
export const GEMINI_MAX_PERIOD = 5;
const DETECTOR = "gemini-cli:tool-call-loop";
const CUT = "gemini-cli:response-cut";
const CONTENT = "gemini-cli:content-loop";

interface GeminiState {
  readonly keys: readonly string[];
  readonly strikes: number;
  /** The response strike 1 cut off: its remaining calls never reach the detector nor run. */
  readonly cutStep: string | undefined;
  readonly content: ContentState;
}

/** Strike 1 cuts the response off with hidden feedback; strike 2 stops the prompt. The count is
 * the strike, as the service reports it (its detectedCount). */
function strike(strikes: number, detector: string, detail: string): PeerAction {
  const count = strikes + 1;
  return strikes === 0 ? { kind: "block", detector, count, message: geminiFeedback(detail) } : { kind: "stop", detector, count, message: "Gemini CLI: Loop detected, stopping execution." };
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
    "a run stands for one user prompt; one detector per session, reset whenever an event of another run arrives (the client resets its one service when the prompt id changes), so two runs taking turns never reach 5; run ids are compared exactly ('p1' and ' p1' are two prompts)",
    "count is the strike (the service's detection count): 1 cuts the response, 2 stops the prompt",
    "the LLM-based check (after 30 turns in a prompt, every 5-15 turns) needs a model: n/a here, never emulated",
    "model text: a 50-character window of a message seen 10 times close together is a content loop (strike 1 cuts the response, the next detection stops); thoughts are not read; a tool call restarts the text tracking",
  ],
  detectors: [DETECTOR, CUT, CONTENT],
  normalization: GEMINI_NORMALIZATION,
  warns: false,
  runIds: "exact",
  scope: "session",
  reducer: {
    initial: () => ({ keys: [], strikes: 0, cutStep: undefined, content: CONTENT_IDLE }),
    onCall(state, call) {
      if (state.cutStep !== undefined && call.step === state.cutStep) {
        return { state, action: { kind: "block", detector: CUT, count: 0, message: "Gemini CLI: the response was cut off at a detected loop; this call never ran." } };
      }
      const keys = [...state.keys, orderedKey(call.tool, call.params)].slice(-GEMINI_KEYS_KEPT);
      const content = { ...CONTENT_IDLE, inCodeBlock: state.content.inCodeBlock };
      const period = cyclePeriod(keys);
      if (period === undefined) return { state: { ...state, keys, cutStep: undefined, content }, action: ALLOW };
      const detail = `Repeated tool call: ${call.tool} with arguments ${JSON.stringify(call.params) ?? "undefined"}`;
      return { state: { keys, strikes: state.strikes + 1, cutStep: state.strikes === 0 ? call.step : undefined, content }, action: strike(state.strikes, DETECTOR, detail) };
    },
    onOutcome: (state) => ({ state, action: ALLOW }),
    onText(state, text) {
      // Text of a response already cut off never arrives; a thought is not read.
      if (state.cutStep !== undefined && text.step === state.cutStep) return { state, action: ALLOW };
      if (text.type === "thought") return { state: { ...state, cutStep: undefined }, action: ALLOW };
      const { state: content, loop } = contentStep(state.content, text.text);
      if (!loop) return { state: { ...state, content, cutStep: undefined }, action: ALLOW };
      return { state: { ...state, content, strikes: state.strikes + 1, cutStep: state.strikes === 0 ? text.step : undefined }, action: strike(state.strikes, CONTENT, contentDetail(content)) };
    },
  },
});
