// How many of a session's recorded calls a runtime's own CLI rejected before running them (a tool
// it does not have, args its schema does not accept) while the run went on. Such a call did not
// run and was no guard decision: a driven target allows it and notes its outcome neither recorded
// nor vetoed (src/targets/runtimes/traceScript.ts), which no other answer of a driven target gives.

import type { TargetOutput } from "../targets/target.js";

export interface RejectedCalls {
  /** Recorded calls whose outcome the CLI answered (ran, or rejected): the n of the shares below. */
  readonly answered: number;
  /** Of them, those it rejected before running them. */
  readonly rejected: number;
  /** Of the rejected, those it rejected as a tool it does not have. */
  readonly unknownTool: number;
}

export const NO_REJECTED_CALLS: RejectedCalls = { answered: 0, rejected: 0, unknownTool: 0 };

/** The calls of one whole-trace run, counted by their outcome notes (a call the run ended before, or the guard vetoed, is not answered). */
export function rejectedCallsOf(outputs: readonly TargetOutput[]): RejectedCalls {
  let answered = 0;
  let rejected = 0;
  let unknownTool = 0;
  for (const o of outputs) {
    if (o.kind !== "outcome" || o.vetoed) continue;
    answered++;
    if (o.recorded) continue;
    rejected++;
    if (o.unknownTool !== undefined) unknownTool++;
  }
  return { answered, rejected, unknownTool };
}

export function addRejectedCalls(a: RejectedCalls, b: RejectedCalls): RejectedCalls {
  return { answered: a.answered + b.answered, rejected: a.rejected + b.rejected, unknownTool: a.unknownTool + b.unknownTool };
}
