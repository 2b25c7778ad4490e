// OpenHands SDK's monologue rule (StuckDetector._is_stuck_monologue, openhands-sdk
// openhands/sdk/conversation/stuck_detector.py; threshold StuckDetectionThresholds.monologue = 3
// in conversation/types.py), modelled, not driven: no OpenHands runtime runs here. Reading the
// events since the last user message backwards, agent messages are counted until any action or
// observation; 3 or more is STUCK, and the run ends at the next check (before the agent's next
// step). The messages are not compared: 3 different messages in a row are a monologue too (the
// source's comment speaks of "the same thing", its code counts messages). Thoughts are not events
// there (reasoning travels inside the message or action), so they neither count nor break it.
// One message is one event, or the consecutive streamed chunks of one model response.

export const OPENHANDS_MONOLOGUE = 3;

export interface MonologueState {
  /** Agent messages since the last action or observation. */
  readonly messages: number;
  /** The response whose message is streaming, when the last text was a message chunk. */
  readonly streaming: { readonly step: string | undefined } | undefined;
}

export const MONOLOGUE_IDLE: MonologueState = { messages: 0, streaming: undefined };

/** One piece of model text in; `stuck` when it makes the 3rd message in a row. */
export function monologueText(state: MonologueState, text: { readonly type: "message" | "thought"; readonly chunk: boolean; readonly step?: string }): { state: MonologueState; stuck: boolean } {
  // A thought ends a streamed message (the trace's rule) but is no message itself.
  if (text.type === "thought") return { state: { ...state, streaming: undefined }, stuck: false };
  const continues = text.chunk && state.streaming !== undefined && state.streaming.step === text.step;
  const messages = continues ? state.messages : state.messages + 1;
  const streaming = text.chunk ? { step: text.step } : undefined;
  return { state: { messages, streaming }, stuck: !continues && messages >= OPENHANDS_MONOLOGUE };
}
