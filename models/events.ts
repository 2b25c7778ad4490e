// The input vocabulary (SPEC E1): an ordered stream of call, outcome and compaction events, and,
// beyond SPEC, the model's own text: `message` (what it says) and `thought` (its reasoning).
// OpenClaw's rules judge tools only, so the reference passes text events over without a word
// (a trace with them gives the same verdicts as without them); some other runtimes' guards judge
// text too (content loops, repeated thoughts), which is why a trace may carry it.
// Fields are `unknown` where a trace may carry anything: hashing must cope with whatever arrives.

export interface CallEvent {
  readonly type: "call";
  readonly runId?: string;
  readonly callId?: string;
  readonly tool: string;
  readonly params?: unknown;
  /**
   * The model response (step) the call came in, when the trace knows it. Calls of one step were
   * proposed together (parallel calls). OpenClaw's rules ignore it; some peers' guards look only
   * within one step.
   */
  readonly step?: string;
}

export interface OutcomeEvent {
  readonly type: "outcome";
  readonly runId?: string;
  readonly callId?: string;
  readonly tool: string;
  readonly params?: unknown;
  readonly result?: unknown;
  readonly error?: unknown;
}

export interface CompactionEvent {
  readonly type: "compaction";
  readonly runId?: string;
}

/**
 * Model text. A whole message is one event; a streamed one is several events with `chunk: true`,
 * in order, whose texts joined make the message: consecutive chunks of one kind in one run are
 * one message, ended by any other event of that run.
 */
interface TextEventFields {
  readonly runId?: string;
  readonly text: string;
  readonly chunk?: boolean;
  /** The model response the text came in, when the trace knows it (as on calls). */
  readonly step?: string;
}

/** Assistant text the user sees. */
export interface MessageEvent extends TextEventFields {
  readonly type: "message";
}

/** The model's reasoning (thinking blocks, reasoning summaries, a harness's THOUGHT). */
export interface ThoughtEvent extends TextEventFields {
  readonly type: "thought";
}

export type TextEvent = MessageEvent | ThoughtEvent;

/** Every event a trace may carry. */
export type ToolEvent = CallEvent | OutcomeEvent | CompactionEvent | TextEvent;

export const TEXT_EVENT_TYPES: readonly TextEvent["type"][] = ["message", "thought"];

export function isTextEvent(event: ToolEvent): event is TextEvent {
  return event.type === "message" || event.type === "thought";
}
