// Roo Code's ToolRepetitionDetector: with its limit of 3, the 4th identical call in a row (key
// order ignored) is not executed, the model gets a tool error and the user is asked.
// Model text: its reasoning-repetition rule (rooReasoning.ts), modelled from source, not driven:
// one reasoning line seen 5 times in one model request aborts it. What follows the abort was not
// read; it is modelled as the tool rule's end (the user is asked, no user answers: the run ends).
import { unorderedKey } from "./callKeys.js";
import { extend, NO_STREAK, type Streak } from "./consecutive.js";
import { ALLOW, peerTarget, type PeerAction } from "./peerGuard.js";
import { REASONING_IDLE, reasoningChunk, reasoningEnd, ROO_REASONING_REPEATS, type ReasoningState } from "./rooReasoning.js";
import { ROO_NORMALIZATION } from "./normalization/rooCode.js";

export const ROO_LIMIT = 3;
const DETECTOR = "roo-code:tool-repetition";
const REASONING = "roo-code:reasoning-repetition";

interface RooState {
  readonly streak: Streak;
  readonly reasoning: ReasoningState;
  /** The model request the reasoning belongs to: a new one starts the counts afresh. */
  readonly request: string | undefined;
}

function reasoningLoop(found: { line: string; count: number }): PeerAction {
  return { kind: "stop", detector: REASONING, count: found.count, message: `Roo Code: the reasoning repeated one line ${found.count} times ("${found.line.slice(0, 60)}"); the request was aborted.` };
}

export const ROO_CODE_TARGET = peerTarget<RooState>({
  name: "roo-code",
  summary: `Roo Code: the ${ROO_LIMIT + 1}th identical call in a row is refused and the user asked (here: the run ends); results are not compared`,
  notes: [
    "checked before execution: the refused call does not run",
    "the user is asked and no user answers in a simulation, so the run ends there; Roo's counter reset after the question never matters",
    "a run stands for one task (its detector lives in the task, across the user's messages there)",
    `model text, modelled from source, not driven: a reasoning line (20+ characters, trimmed, whitespace collapsed, lower-cased) seen ${ROO_REASONING_REPEATS} times in one model request ends the run (the abort's aftermath assumed to be the tool rule's); messages are not read`,
    "a model request is a trace step; without steps, the reasoning counts start afresh after each tool result",
  ],
  detectors: [DETECTOR, REASONING],
  normalization: ROO_NORMALIZATION,
  warns: false,
  reducer: {
    initial: () => ({ streak: NO_STREAK, reasoning: REASONING_IDLE, request: undefined }),
    onCall(state, call) {
      // The reasoning stream is over: its unfinished last line counts before the calls run.
      const ended = reasoningEnd(state.reasoning);
      if (ended.loop !== undefined) return { state: { ...state, reasoning: ended.state }, action: reasoningLoop(ended.loop) };
      const streak = extend(state.streak, unorderedKey(call.tool, call.params));
      const next = { ...state, streak, reasoning: ended.state };
      if (streak.length <= ROO_LIMIT) return { state: next, action: ALLOW };
      return { state: next, action: { kind: "stop", detector: DETECTOR, count: streak.length, message: `Roo Code: ${call.tool} repeated ${streak.length} times in a row; the call was refused and the user asked for guidance.` } };
    },
    // A tool result goes back in the next model request, whose reasoning is counted afresh.
    onOutcome: (state) => ({ state: { ...state, reasoning: REASONING_IDLE, request: undefined }, action: ALLOW }),
    onText(state, text) {
      if (text.type === "message") return { state, action: ALLOW };
      const fresh = text.step !== undefined && text.step !== state.request;
      const base = fresh ? REASONING_IDLE : state.reasoning;
      const request = text.step ?? state.request;
      // A whole thought is complete: what streamed before it ends, and all its lines count.
      const before = text.chunk ? { state: base, loop: undefined } : reasoningEnd(base);
      const fed = reasoningChunk(before.state, text.chunk ? text.text : `${text.text}\n`);
      const found = before.loop ?? fed.loop;
      return { state: { ...state, reasoning: fed.state, request }, action: found === undefined ? ALLOW : reasoningLoop(found) };
    },
  },
});
