// OpenHands SDK's monologue rule (StuckDetector._is_stuck_monologue, openhands-sdk
// openhands/sdk/conversation/stuck_detector.py; threshold StuckDetectionThresholds.monologue = 3
// in conversation/types.py), modelled, not driven: no OpenHands runtime runs here. Reading the
// events since the last user message backwards, agent messages are counted until any action or
// observation; 3 or more is STUCK. The check runs before each agent step, so the run ends as the
// response after the 3rd message begins (that response never runs). The messages are not compared:
// 3 different messages in a row are a monologue too (the source's comment speaks of "the same
// thing", its code counts messages). Text in a response that also calls a tool is that action's
// thought, not a message event, so a message counts only once its response ended without a call.
// Thoughts are not events there (reasoning travels inside the message or action): they neither
// count nor break it. One response is one trace step; without steps, consecutive streamed chunks
// are one response, and a whole message is one.

export const OPENHANDS_MONOLOGUE = 3;

export interface MonologueState {
  /** Agent messages (responses without a call) since the last action or observation. */
  readonly messages: number;
  /** The response whose text was seen last, not yet known to end without a call. */
  readonly open: { readonly step: string | undefined; readonly chunk: boolean } | undefined;
}

export const MONOLOGUE_IDLE: MonologueState = { messages: 0, open: undefined };

/** The open response ended without a call: it was a message. `stuck` when that makes 3 in a row. */
function closeOpen(state: MonologueState): { messages: number; stuck: boolean } {
  const messages = state.open === undefined ? state.messages : state.messages + 1;
  return { messages, stuck: state.open !== undefined && messages >= OPENHANDS_MONOLOGUE };
}

/** One piece of model text in; `stuck` when a new response begins after 3 messages in a row. */
export function monologueText(state: MonologueState, text: { readonly type: "message" | "thought"; readonly chunk: boolean; readonly step?: string }): { state: MonologueState; stuck: boolean } {
  if (text.type === "thought") return { state, stuck: false };
  const open = state.open;
  const sameResponse = open !== undefined && open.step === text.step && (text.step !== undefined || (text.chunk && open.chunk));
  if (sameResponse) return { state: { ...state, open: { step: text.step, chunk: text.chunk } }, stuck: false };
  const closed = closeOpen(state);
  return { state: { messages: closed.messages, open: { step: text.step, chunk: text.chunk } }, stuck: closed.stuck };
}

/** A call: text of its own response was the action's thought; an earlier response's was a message. */
export function monologueCall(state: MonologueState, step: string | undefined): { state: MonologueState; stuck: boolean } {
  const ownThought = state.open !== undefined && state.open.step === step;
  const closed = ownThought ? { messages: state.messages, stuck: false } : closeOpen(state);
  // The action ends the monologue, unless the check before it already found one.
  return { state: closed.stuck ? { messages: closed.messages, open: undefined } : MONOLOGUE_IDLE, stuck: closed.stuck };
}
