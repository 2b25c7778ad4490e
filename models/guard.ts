// SPEC G1-G5: the post-compaction guard of one run, as a pure reducer. A compaction arms it for
// windowSize observations; it aborts when all of them are the same (tool, argsHash, result)
// triple, and disarms when the window is full whatever happened.
import { match } from "ts-pattern";

export type GuardState =
  | { readonly phase: "idle" }
  | { readonly phase: "armed"; readonly remaining: number; readonly counts: ReadonlyMap<string, number> };

export type GuardEvent =
  | { readonly type: "compaction"; readonly windowSize: number }
  | { readonly type: "observe"; readonly tool: string; readonly triple: string; readonly windowSize: number };

export interface GuardAbort {
  readonly tool: string;
  readonly count: number;
  readonly message: string;
}

export interface GuardStep {
  readonly state: GuardState;
  readonly abort?: GuardAbort;
}

/** The guard's transition function; the engine takes another one only to put a variant under test. */
export type GuardReducer = (state: GuardState, event: GuardEvent) => GuardStep;

export const GUARD_IDLE: GuardState = { phase: "idle" };

export function guardStep(state: GuardState, event: GuardEvent): GuardStep {
  return match([state, event] as const)
    .with([{ phase: "idle" }, { type: "compaction" }], [{ phase: "armed" }, { type: "compaction" }], ([, e]) => ({
      state: { phase: "armed", remaining: e.windowSize, counts: new Map<string, number>() } satisfies GuardState,
    }))
    .with([{ phase: "idle" }, { type: "observe" }], ([s]) => ({ state: s }))
    .with([{ phase: "armed" }, { type: "observe" }], ([s, e]) => {
      const counts = new Map(s.counts);
      const seen = (counts.get(e.triple) ?? 0) + 1;
      counts.set(e.triple, seen);
      const remaining = s.remaining - 1;
      const next: GuardState = remaining <= 0 ? GUARD_IDLE : { phase: "armed", remaining, counts };
      if (seen >= e.windowSize) {
        return { state: GUARD_IDLE, abort: { tool: e.tool, count: seen, message: abortMessage(e.tool, seen) } };
      }
      return { state: next };
    })
    .exhaustive();
}

export function abortMessage(tool: string, count: number): string {
  return `CRITICAL: compaction did not break the loop: ${tool} returned the same result ${count} times in a row after the compaction-retry. The run is stopped (compaction_loop_persisted).`;
}
