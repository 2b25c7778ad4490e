// Candidate rule `candidate:no-new-fact:N`: stop the run when ONE fact has been heard N times
// since the last change that took effect, among the run's last 2N answers: the same failure (as
// `loopsim loops` signs it, or the same kind of refusal), whatever the args, or the same masked
// answer to the same question (the tool and the files its args name, or its masked args). It
// follows the miner's no-new-fact rule (src/realLoops/mine.ts), online: it reads each answer as
// it comes and only the answers before it. A change is a write (src/import/writes.ts) that did
// not fail; a write sent again exactly as before (the same tool and args) and answered as before
// makes the state it already made, so it clears nothing and is itself the same fact again (the
// same patch file written four times). Why: the round-3 reading of issue 35 found agents re-sending
// one write, re-reading one region and meeting one failure, each heard three times with nothing
// changed between. A CANDIDATE, not a runtime's guard: no runtime is known to ship it; loopsim
// measures it as evidence for people who design guards.
import { maskText } from "../../import/mask.js";
import { changesWhatWasRead, filesNamedIn, writeOf } from "../../import/writes.js";
import { asGiven } from "../peers/normalization/callView.js";
import { ALLOW, peerTarget, type PeerOutcome, type PeerReducer } from "../peers/peerGuard.js";
import type { Target } from "../target.js";
import { answerFailed, answerMessage, failureKey, SIGNATURE_CHARS } from "./answerText.js";
import { recheckKey } from "./recheck.js";
import { acrossRuns, windowOf } from "./windowedRepeat.js";

export const NO_NEW_FACT = "no-new-fact";

interface NoNewFactState {
  /** The facts of the answers since the last change, at most the window's size, oldest first. */
  readonly recent: readonly (string | undefined)[];
  /** Files named so far (a write to a file never named before creates it: no change to what was read). */
  readonly named: readonly string[];
  /** The writes since the last change (the change included), each as tool, args and masked answer. */
  readonly writes: readonly string[];
}

/** The fact an answer gives: its failure, or the answer to its question. */
function factOf(outcome: PeerOutcome): string | undefined {
  const failure = failureKey(outcome);
  return failure !== undefined ? `failure\u0000${failure}` : recheckKey(outcome);
}

function noNewFactReducer(times: number): PeerReducer<NoNewFactState> {
  const size = windowOf(times);
  return {
    initial: () => ({ recent: [], named: [], writes: [] }),
    onCall: (state) => ({ state, action: ALLOW }),
    onOutcome(state, outcome) {
      const args = JSON.stringify(outcome.params ?? null) ?? "null";
      const named = [...new Set([...state.named, ...filesNamedIn(args)])];
      const write = `${outcome.tool}\u0000${args}\u0000${maskText(answerMessage(outcome).slice(-SIGNATURE_CHARS))}`;
      // A write the tool reports failed is taken as not done; a command known only by a variable is another each time.
      const changed = !answerFailed(outcome) && changesWhatWasRead(outcome.tool, args, (f) => state.named.includes(f));
      const redone = (changed || writeOf(outcome.tool, args).kind === "creates") && !args.includes(">>") && !args.includes('{"expr":') && state.writes.includes(write);
      if (changed && !redone) return { state: { recent: [], named, writes: [write] }, action: ALLOW };
      // Creating a new file asks nothing: it counts nothing, unless it is the same file written again.
      if (!redone && writeOf(outcome.tool, args).kind === "creates") return { state: { recent: state.recent, named, writes: [...state.writes, write] }, action: ALLOW };
      const fact = redone ? `redone\u0000${write}` : factOf(outcome);
      const recent = [...state.recent, fact].slice(-size);
      const writes = redone || writeOf(outcome.tool, args).kind === "none" ? state.writes : [...state.writes, write];
      const count = fact === undefined ? 0 : recent.filter((k) => k === fact).length + (redone ? 1 : 0);
      if (count < times) return { state: { recent, named, writes }, action: ALLOW };
      return { state: { recent, named, writes }, action: { kind: "stop", detector: `candidate:${NO_NEW_FACT}`, count, message: `Stopped: the same thing was heard ${count} times with nothing changed between (the same failure, the same answer, or the same write again); another try like it cannot tell anything new.` } };
    },
  };
}

export function noNewFactTarget(times: number): Target {
  return acrossRuns(peerTarget({
    name: `candidate:${NO_NEW_FACT}:${times}`,
    summary: `candidate rule, shipped by no runtime: stops the run when one fact (the same failure whatever the args, the same answer to the same question, or the same write re-sent) is heard ${times} times among the last ${windowOf(times)} answers with no change between`,
    notes: [
      "a candidate for guard designers, not a model of any runtime: no runtime is known to ship this rule",
      "follows the miner's no-new-fact rule online: each answer is judged on the answers before it only",
      "a write that did not fail clears the count, except a write re-sent exactly as before and answered as before (it makes the state already made)",
    ],
    detectors: [`candidate:${NO_NEW_FACT}`],
    normalization: asGiven("candidate", "name and args as given (the rule reads the files the args name)", "loopsim src/targets/candidates"),
    warns: false,
    reducer: noNewFactReducer(times),
  }));
}
