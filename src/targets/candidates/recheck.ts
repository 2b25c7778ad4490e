// Candidate rule `candidate:recheck:N`: stop the run when the same question (the tool, and the
// files its args name, or its masked args when they name none) has been answered the same way
// (masked) N times among the run's last 2N answers with no write since the first of them. Why:
// the recall reading of issue 35 found agents re-reading one region, re-running one test, or
// re-running a fix script that changed nothing, with nothing written between: nothing could have
// changed, so nothing new could be heard. A write (src/import/writes.ts: an editing tool, sed -i,
// a redirection into a known file, an install ...) clears the count: the same test again after an
// edit is work. Creating a new file (cat > new_test.py <<EOF) clears nothing and counts nothing.
// A CANDIDATE, not a runtime's guard: no runtime is known to ship it; loopsim measures it as
// evidence for people who design guards.
import { maskText, pathsIn } from "../../import/mask.js";
import { changesWhatWasRead, filesNamedIn, writeOf } from "../../import/writes.js";
import { asGiven } from "../peers/normalization/callView.js";
import { ALLOW, peerTarget, type PeerOutcome, type PeerReducer } from "../peers/peerGuard.js";
import type { Target } from "../target.js";
import { answerFailed, answerMessage, SIGNATURE_CHARS } from "./answerText.js";
import { acrossRuns, windowOf } from "./windowedRepeat.js";

export const RECHECK = "recheck";

interface RecheckState {
  /** Keys of the answers since the last write, at most the window's size, oldest first. */
  readonly recent: readonly (string | undefined)[];
  /** Files named so far (a write to a file never named before creates it: no change to what was read). */
  readonly named: readonly string[];
}

/** The question and its answer, masked, or undefined when the call asked nothing (it created a file). */
export function recheckKey(outcome: PeerOutcome): string | undefined {
  const args = JSON.stringify(outcome.params ?? null) ?? "null";
  const answer = maskText(answerMessage(outcome).slice(-SIGNATURE_CHARS)).trim();
  const files = pathsIn(args);
  // An empty answer is only the same answer to the same args: empty greps for different things are a search.
  const question = files !== "" && answer !== "" ? files : maskText(args);
  return `${outcome.tool}\u0000${question}\u0000${answerFailed(outcome) ? "failed" : "ok"}\u0000${answer}`;
}

function recheckReducer(times: number): PeerReducer<RecheckState> {
  const size = windowOf(times);
  return {
    initial: () => ({ recent: [], named: [] }),
    onCall: (state) => ({ state, action: ALLOW }),
    onOutcome(state, outcome) {
      const args = JSON.stringify(outcome.params ?? null) ?? "null";
      const named = [...new Set([...state.named, ...filesNamedIn(args)])];
      // A write the tool reports failed is taken as not done.
      const changed = !answerFailed(outcome) && changesWhatWasRead(outcome.tool, args, (f) => state.named.includes(f));
      if (changed) return { state: { recent: [], named }, action: ALLOW };
      if (writeOf(outcome.tool, args).kind === "creates") return { state: { recent: state.recent, named }, action: ALLOW };
      const key = recheckKey(outcome);
      const recent = [...state.recent, key].slice(-size);
      const count = recent.filter((k) => k === key).length;
      if (count < times) return { state: { recent, named }, action: ALLOW };
      return { state: { recent, named }, action: { kind: "stop", detector: `candidate:${RECHECK}`, count, message: `Stopped: ${outcome.tool} asked the same thing ${count} times and heard the same answer, with nothing written between; re-checking cannot tell it anything new.` } };
    },
  };
}

export function recheckTarget(times: number): Target {
  return acrossRuns(peerTarget({
    name: `candidate:${RECHECK}:${times}`,
    summary: `candidate rule, shipped by no runtime: stops the run when the same question (tool and files, or masked args) gets the same masked answer ${times} times among the last ${windowOf(times)} answers with nothing written between`,
    notes: [
      "a candidate for guard designers, not a model of any runtime: no runtime is known to ship this rule",
      "a write (an editing tool, sed -i, a redirection into a file already named, an install ...) clears the count: the same test after an edit is work",
      "the answer is masked as `loopsim loops` masks it (digits, hex ids, times, temporary paths)",
    ],
    detectors: [`candidate:${RECHECK}`],
    normalization: asGiven("candidate", "name and args as given (the rule reads the files the args name)", "loopsim src/targets/candidates"),
    warns: false,
    reducer: recheckReducer(times),
  }));
}
