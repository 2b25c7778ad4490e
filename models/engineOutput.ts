// What the engine says about each input event (SPEC E3-E5), in input order. The detector type is
// a parameter so that other guards put under test (src/targets) can name detectors of their own
// in the same vocabulary; the reference names only SPEC's five.
import type { ToolEvent } from "./events.js";
import type { Detector, Level } from "./verdict.js";

interface Located {
  /** 0-based position of the input event. */
  readonly index: number;
  /** Normalised runId; "" is "no run". */
  readonly run: string;
}

export interface AllowedCall extends Located {
  readonly kind: "call";
  readonly tool: string;
  readonly argsHash: string;
  readonly verdict: "allow";
}

export interface FlaggedCall<D extends string = Detector> extends Located {
  readonly kind: "call";
  readonly tool: string;
  readonly argsHash: string;
  readonly verdict: Level;
  readonly detector: D;
  readonly count: number;
  readonly warningKey: string;
  readonly message: string;
  /** W1: whether the caller lets this warning out; always true for criticals (W2). */
  readonly emitted: boolean;
}

export interface OutcomeNote extends Located {
  readonly kind: "outcome";
  readonly tool: string;
  readonly recorded: boolean;
  /** E4: the outcome of a blocked call, replaced by the loop veto. */
  readonly vetoed: boolean;
  readonly argsHash: string;
  /** H2; undefined when nothing was recorded. */
  readonly resultHash: string | undefined;
  readonly unknownTool: string | undefined;
  /**
   * Set only by a driven runtime's CLI (src/targets/runtimes), on the outcome of a call it rejected
   * before running it while the run went on: nothing ran (not recorded) and no guard blocked it
   * (no veto). Absent everywhere else: the reference has no tool registry to reject a call with.
   */
  readonly rejected?: RuntimeRejection;
}

/** Why a runtime rejected a call before running it: it has no tool of that name, or the tool does not accept its input. */
export type RuntimeRejection = "unknown-tool" | "invalid-input";

export interface CompactionNote extends Located {
  readonly kind: "compaction";
  /** G1: whether the compaction armed the guard. */
  readonly armed: boolean;
}

/** The reference aborts only for G3; other guards under test name their own stops. */
export type AbortReason = "compaction_loop_persisted";

export interface AbortNote<E extends string = AbortReason> extends Located {
  readonly kind: "abort";
  readonly error: E;
  readonly tool: string;
  readonly count: number;
  readonly message: string;
}

export interface IgnoredNote extends Located {
  readonly kind: "ignored";
  readonly eventType: ToolEvent["type"];
}

/**
 * A guard that judges model text acted on a message or thought (the reference never does: it
 * has no rule on text). `warning` fed the model a feedback turn, `critical` cut its response off
 * (the rest of that response never runs); a stop is an abort note.
 */
export interface TextNote<D extends string = Detector> extends Located {
  readonly kind: "text";
  readonly textType: "message" | "thought";
  readonly verdict: Level;
  readonly detector: D;
  readonly count: number;
  readonly message: string;
}

export type CallVerdict<D extends string = Detector> = AllowedCall | FlaggedCall<D>;
export type EngineOutput<D extends string = Detector, E extends string = AbortReason> = CallVerdict<D> | OutcomeNote | CompactionNote | AbortNote<E> | IgnoredNote | TextNote<D>;
