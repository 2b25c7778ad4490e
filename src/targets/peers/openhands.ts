// OpenHands SDK's StuckDetector, over the events since the last user message (the last 20: ten
// action + observation pairs). Stuck when: 4 identical action + observation pairs in a row; 3
// identical actions each answered by an error; or an A,B,A,B,A,B alternation of 6 with matching
// observations. At exactly the 3rd identical failing call it nudges the model once; any further
// hit, or any other pattern, ends the run as STUCK. Observations are compared exactly.
import { observationKey, unorderedKey } from "./callKeys.js";
import { ALLOW, peerTarget, type PeerAction } from "./peerGuard.js";
import { OPENHANDS_NORMALIZATION } from "./normalization/unverified.js";

export const OPENHANDS_PAIRS_KEPT = 10;
export const OPENHANDS_REPEATS = 4;
export const OPENHANDS_ERRORS = 3;
export const OPENHANDS_ALTERNATION = 6;
const REPEAT = "openhands:repeated-action-observation";
const ERRORS = "openhands:repeated-error";
const ALTERNATION = "openhands:alternation";

interface Pair {
  readonly action: string;
  readonly observation: string;
  readonly failed: boolean;
}

interface OpenHandsState {
  readonly pairs: readonly Pair[];
  readonly nudged: boolean;
}

const tail = (pairs: readonly Pair[], n: number): readonly Pair[] | undefined => (pairs.length < n ? undefined : pairs.slice(-n));
const same = (pairs: readonly Pair[]): boolean => pairs.every((p) => p.action === pairs[0]?.action && p.observation === pairs[0]?.observation);

function repeatedPairs(pairs: readonly Pair[]): boolean {
  const last = tail(pairs, OPENHANDS_REPEATS);
  return last !== undefined && same(last);
}

function repeatedErrors(pairs: readonly Pair[]): boolean {
  const last = tail(pairs, OPENHANDS_ERRORS);
  return last !== undefined && last.every((p) => p.failed && p.action === last[0]?.action);
}

function alternation(pairs: readonly Pair[]): boolean {
  const last = tail(pairs, OPENHANDS_ALTERNATION);
  if (last === undefined) return false;
  const [a, b] = last as [Pair, Pair];
  if (a.action === b.action) return false;
  return last.every((p, i) => {
    const model = i % 2 === 0 ? a : b;
    return p.action === model.action && p.observation === model.observation;
  });
}

export const OPENHANDS_TARGET = peerTarget<OpenHandsState>({
  name: "openhands",
  summary: "OpenHands: stuck at 4 identical action+observation pairs, 6 alternating, or 3 identical failures (nudged once at exactly the 3rd, stopped at the next hit); results are compared exactly",
  notes: [
    "judged after each observation: the nudge and the stop come with the result of the call that ran",
    "identical failures: the same action answered by an error each time, whatever the error text",
    "observations compared exactly, volatile ids included (nothing is stripped); actions compared as values, call ids ignored",
    "a run stands for the events since the last user message (its detector reads the conversation from the last user message on, so each run starts clean)",
  ],
  detectors: [REPEAT, ERRORS, ALTERNATION],
  normalization: OPENHANDS_NORMALIZATION,
  warns: true,
  reducer: {
    initial: () => ({ pairs: [], nudged: false }),
    onCall: (state) => ({ state, action: ALLOW }),
    onOutcome(state, outcome) {
      const pair: Pair = { action: unorderedKey(outcome.tool, outcome.params), observation: observationKey(outcome.result, outcome.error), failed: outcome.error !== undefined };
      const pairs = [...state.pairs, pair].slice(-OPENHANDS_PAIRS_KEPT);
      let action: PeerAction = ALLOW;
      let nudged = state.nudged;
      if (repeatedPairs(pairs)) action = stuck(REPEAT, OPENHANDS_REPEATS, "the same action got the same observation");
      else if (alternation(pairs)) action = stuck(ALTERNATION, OPENHANDS_ALTERNATION, "two actions alternate with the same observations");
      else if (repeatedErrors(pairs)) {
        if (!nudged) {
          nudged = true;
          action = { kind: "warn", detector: ERRORS, count: OPENHANDS_ERRORS, message: `OpenHands: ${outcome.tool} failed ${OPENHANDS_ERRORS} times with the same action. Try something different.` };
        } else action = stuck(ERRORS, OPENHANDS_ERRORS, "the same action keeps failing after the nudge");
      }
      return { state: { pairs, nudged }, action };
    },
  },
});

function stuck(detector: string, count: number, why: string): PeerAction {
  return { kind: "stop", detector, count, message: `OpenHands: STUCK: ${why}; the run ends.` };
}
