// The input vocabulary (SPEC E1): an ordered stream of call, outcome and compaction events.
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

export type ToolEvent = CallEvent | OutcomeEvent | CompactionEvent;
