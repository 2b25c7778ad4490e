// The one mechanism both candidate rules share: a key drawn from each answered call (a failure's
// signature, an answer that changed nothing), and a stop when one key has come back N times among
// the run's last 2N answers, whatever the calls' args were. Why a window of 2N and not N in a
// row: an agent that reads a file or edits between two attempts of the same failing move is no
// less stuck, and a window of twice N lets one other call sit between each pair of repeats; a
// window over the whole run would stop a long session that meets the same error now and then
// with progress in between. A reducer: state in, state out, nothing shared, nothing random.
import type { ToolEvent } from "../../../models/events.js";
import { normalizeRunId } from "../../../models/normalize.js";
import { ALLOW, type PeerAction, type PeerOutcome, type PeerReducer } from "../peers/peerGuard.js";
import type { Target, TargetOutput } from "../target.js";

export interface WindowState {
  /** The keys of the run's last answers, oldest first (undefined: an answer that gives no key). */
  readonly recent: readonly (string | undefined)[];
}

export interface WindowedRule {
  /** The detector name the stop carries. */
  readonly detector: string;
  /** Repeats of one key, inside the window, that stop the run. */
  readonly times: number;
  /** The key of an answer, or undefined when the answer does not count (a success, an empty answer). */
  keyOf(outcome: PeerOutcome): string | undefined;
  /** What the stop tells the model. */
  message(count: number, outcome: PeerOutcome): string;
}

/** Answers the window holds: twice the repeats that stop (see above). */
export const windowOf = (times: number): number => 2 * times;

export function windowedRepeat(rule: WindowedRule): PeerReducer<WindowState> {
  const size = windowOf(rule.times);
  return {
    initial: () => ({ recent: [] }),
    // The rule judges answers, not proposals: a call always runs, and the stop comes after its answer.
    onCall: (state) => ({ state, action: ALLOW }),
    onOutcome(state, outcome) {
      const key = rule.keyOf(outcome);
      const recent = [...state.recent, key].slice(-size);
      const next = { recent };
      if (key === undefined) return { state: next, action: ALLOW };
      const count = recent.filter((k) => k === key).length;
      if (count < rule.times) return { state: next, action: ALLOW };
      const stop: PeerAction = { kind: "stop", detector: rule.detector, count, message: rule.message(count, outcome) };
      return { state: next, action: stop };
    },
  };
}

/**
 * A candidate counts over the whole session, across runs: a run is one user prompt, and a loop
 * can go on across the user's replies (a simulated customer answering between two failed
 * bookings, as in tau-bench). Every event is judged as one run's, and the outputs carry their own
 * run back; a stop ends the session, not only the prompt it came in.
 */
export function acrossRuns(target: Target): Target {
  return {
    ...target,
    notes: [...target.notes, "counts over the whole session, across user prompts (runs), and a stop ends the session"],
    start(config) {
      const inner = target.start(config);
      return {
        step(event: ToolEvent): TargetOutput[] {
          const run = normalizeRunId(event.runId);
          return inner.step({ ...event, runId: SESSION_RUN }).map((o) => ({ ...o, run }));
        },
      };
    },
  };
}

const SESSION_RUN = "candidate-session";
