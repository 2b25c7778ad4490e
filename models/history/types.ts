// SPEC R1-R4 and S1-S4: the rolling window and the counts a call's verdict is made from.
// Two implementations agree on every trace: an incremental index (models/history/incremental.ts)
// and a plain rescanning oracle (models/history/scanning.ts).

export interface OutcomeFacts {
  readonly resultHash: string;
  readonly unknownTool?: string;
}

/** Every count a verdict needs, for one call, before the call is recorded (SPEC D2). */
export interface CallCounts {
  /** S1: identical-outcome streak of this tool+args, and its result. */
  readonly noProgress: number;
  readonly noProgressResult: string | undefined;
  /** S2: records of this tool+args, pending included. */
  readonly repeat: number;
  /** S3: consecutive misses of one unavailable tool, ending at the newest record. */
  readonly unknownStreak: number;
  readonly unknownName: string | undefined;
  /** S4: alternating tail + 1 when this call continues it, else 0; pingPongPartner is the newest record's argsHash. */
  readonly pingPong: number;
  readonly pingPongEvidence: boolean;
  readonly pingPongPartner: string | undefined;
}

export interface HistoryIndex {
  /** R2: a call recorded as pending. */
  appendCall(run: string, tool: string, argsHash: string, callId: string | undefined): void;
  /** R3: fill the newest matching pending record of the run, or append a completed one. */
  recordOutcome(run: string, tool: string, argsHash: string, callId: string | undefined, facts: OutcomeFacts): void;
  countsFor(run: string, tool: string, argsHash: string): CallCounts;
  /** R4 says compaction never touches the history; only a variant under test calls this. */
  clear(): void;
  /** Records in the window. */
  size(): number;
  /** Entries held in every structure, for the bounded-state property. */
  stateSize(): number;
}

export const NO_COUNTS: CallCounts = {
  noProgress: 0,
  noProgressResult: undefined,
  repeat: 0,
  unknownStreak: 0,
  unknownName: undefined,
  pingPong: 0,
  pingPongEvidence: false,
  pingPongPartner: undefined,
};
