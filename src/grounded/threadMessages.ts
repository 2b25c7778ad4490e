// What the main thread and a grounded evaluation's worker threads send each other: the worker's
// start-up data, the tasks (one agent of one session each) and the results.
import type { GroundedPopulation } from "./groundedPopulation.js";
import type { ElementSpan } from "../import/jsonDocument.js";

export interface GroundedWorkerInput {
  readonly population: GroundedPopulation;
  /** Targets by name: a target is code, not data, so the thread resolves it again. */
  readonly guards: readonly { readonly target: string; readonly block: Record<string, unknown> }[];
  readonly seed: number;
}

export interface GroundedTask {
  readonly index: number;
  readonly ref: string;
  readonly id: string;
  /** Which of the session's agents: 0 the session itself, then one per injected shape. */
  readonly agent: number;
  /** Where the session lies in a multi-session file. */
  readonly span?: ElementSpan;
}

export type GroundedResult =
  /** flags and numbers per guard, or per reaction-grid point and guard (point-major); runs: per guard, made and reused over the grid. */
  | { readonly type: "row"; readonly index: number; readonly agent: number; readonly family: string; readonly flags: Uint8Array; readonly numbers: Int32Array; readonly runs: Int32Array; /** On agent 0: the session's mined stretches (--loops real), those past the cap included. */ readonly mined?: number }
  | { readonly type: "empty"; readonly index: number; readonly agent: number }
  | { readonly type: "bad"; readonly index: number; readonly agent: number; readonly reason: string };

export type GroundedWorkerMessage = GroundedResult | { readonly type: "more" } | { readonly type: "done" };
