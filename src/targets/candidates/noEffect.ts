// Candidate rule `candidate:no-effect:N`: stop the run when one answer that did not fail (the tool
// and its masked text) has come back N times among the run's last 2N answers, whatever the args.
// Why: stretches mined from public runs include calls that succeed and change nothing (clicks that
// leave a page as it was, views of the same empty listing, an edit refused with the same notice);
// the args vary, so identical-call guards miss them, and nothing failed, so a failure rule misses
// them too. An answer with no words (an empty output: most edits and writes answer so) is no
// evidence of no effect and never counts. A CANDIDATE, not a runtime's guard: no runtime is known
// to ship it; loopsim measures it as evidence for people who design guards.
import { asGiven } from "../peers/normalization/callView.js";
import { peerTarget } from "../peers/peerGuard.js";
import type { Target } from "../target.js";
import { sameAnswerKey } from "./answerText.js";
import { acrossRuns, windowedRepeat, windowOf } from "./windowedRepeat.js";

export const NO_EFFECT = "no-effect";

export function noEffectTarget(times: number): Target {
  return acrossRuns(peerTarget({
    name: `candidate:${NO_EFFECT}:${times}`,
    summary: `candidate rule, shipped by no runtime: stops the run when the same answer that did not fail (tool and masked text) comes back ${times} times among the last ${windowOf(times)} answers, whatever the args`,
    notes: [
      "a candidate for guard designers, not a model of any runtime: no runtime is known to ship this rule",
      "failed or refused answers are left to candidate:failure-signature; an answer with no words (an empty output) never counts",
      "the answer is masked as `loopsim loops` masks it (digits, hex ids, times, temporary paths)",
      "answers are counted, not calls: the stop comes after the Nth answer, and the run ends there",
    ],
    detectors: [`candidate:${NO_EFFECT}`],
    normalization: asGiven("candidate", "name and args as given (the rule ignores args)", "loopsim src/targets/candidates"),
    warns: false,
    reducer: windowedRepeat({
      detector: `candidate:${NO_EFFECT}`,
      times,
      keyOf: sameAnswerKey,
      message: (count, outcome) => `Stopped: ${outcome.tool} gave the same answer ${count} times in the last ${windowOf(times)} calls, with different arguments; it is having no effect.`,
    }),
  }));
}
