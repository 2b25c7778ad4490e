// Candidate rule `candidate:failure-signature:N`: stop the run when one failure signature (the
// error's masked last line, as `loopsim loops` signs a failure, or the reason a call was refused)
// has come back N times among the run's last 2N answers, whatever the args of the calls that met it. Why: the real loops mined from public agent runs include
// stretches where the agent changes its command every time and meets the same error every time
// (a missing module, a syntax error at a varying line); a guard keyed on identical args never
// sees them, and Goose's REP-002 only counts errors in a row of one tool. A CANDIDATE, not a
// runtime's guard: no runtime is known to ship it; loopsim measures it as evidence for people who
// design guards, beside the guards that ship.
import { asGiven } from "../peers/normalization/callView.js";
import { peerTarget } from "../peers/peerGuard.js";
import type { Target } from "../target.js";
import { failureKey } from "./answerText.js";
import { acrossRuns, windowedRepeat, windowOf } from "./windowedRepeat.js";

export const FAILURE_SIGNATURE = "failure-signature";

export function failureSignatureTarget(times: number): Target {
  return acrossRuns(peerTarget({
    name: `candidate:${FAILURE_SIGNATURE}:${times}`,
    summary: `candidate rule, shipped by no runtime: stops the run when the same failure (its masked error line, or the same refusal) comes back ${times} times among the last ${windowOf(times)} answers, whatever the args`,
    notes: [
      "a candidate for guard designers, not a model of any runtime: no runtime is known to ship this rule",
      "a failure is what every loopsim command calls one (src/import/failure.ts): an error, a non-zero exit code, a failed status or a timeout",
      "the failure is signed as `loopsim loops` signs it (src/import/mask.ts failureSignature): the last of the answer's last few lines that names a failure, with digits, ids, times, paths and what the call itself put into it masked, so a changing line number or a different command failing for one reason is the same failure; a refusal without running (a linter's, a patch that did not apply) is signed by its kind",
      "answers are counted, not calls: the stop comes after the Nth failure's answer, and the run ends there",
    ],
    detectors: [`candidate:${FAILURE_SIGNATURE}`],
    normalization: asGiven("candidate", "name and args as given (the rule ignores args)", "loopsim src/targets/candidates"),
    warns: false,
    reducer: windowedRepeat({
      detector: `candidate:${FAILURE_SIGNATURE}`,
      times,
      keyOf: failureKey,
      message: (count, outcome) => `Stopped: ${outcome.tool} failed the same way ${count} times in the last ${windowOf(times)} calls, with different arguments; change approach.`,
    }),
  }));
}
