// CrewAI. With native function calling, the default for current models, there is no loop guard:
// `crewai` acts on nothing. Its text-parsing (ReAct) path skips a call whose tool and input equal
// the previous successful call's, and once a call was skipped every later identical call is
// skipped too: `crewai-react`.
import { unorderedKey } from "./callKeys.js";
import { ALLOW, peerTarget } from "./peerGuard.js";
import { NO_GUARD } from "./none.js";
import { CREWAI_NORMALIZATION } from "./normalization/unverified.js";

const DETECTOR = "crewai:same-as-previous";

export const CREWAI_TARGET = peerTarget<null>({
  name: "crewai",
  summary: "CrewAI with native function calling (the default): no loop guard, every call runs",
  notes: ["the repeated-input check exists only on the ReAct text path: see crewai-react"],
  detectors: [],
  normalization: CREWAI_NORMALIZATION,
  warns: false,
  reducer: NO_GUARD,
});

interface ReactState {
  /** The previous successful call. */
  readonly previous: string | undefined;
  /** Calls skipped once: every later identical call is skipped too. */
  readonly skipped: ReadonlySet<string>;
}

export const CREWAI_REACT_TARGET = peerTarget<ReactState>({
  name: "crewai-react",
  summary: "CrewAI on its ReAct text path: a call identical to the previous successful one is skipped with a fixed reminder, and so is every later identical call; results are not compared",
  notes: [
    "args compared as values (Python dict equality, key order ignored)",
    "only a successful call becomes 'the previous call'; a failed one does not",
    "a run stands for one task (its tool-usage state lives in the task's agent executor)",
  ],
  detectors: [DETECTOR],
  normalization: CREWAI_NORMALIZATION,
  warns: false,
  reducer: {
    initial: () => ({ previous: undefined, skipped: new Set<string>() }),
    onCall(state, call) {
      const key = unorderedKey(call.tool, call.params);
      if (key !== state.previous && !state.skipped.has(key)) return { state, action: ALLOW };
      return { state: { ...state, skipped: new Set([...state.skipped, key]) }, action: { kind: "block", detector: DETECTOR, count: 2, message: `CrewAI: ${call.tool} was already used with this same input; the call was skipped (loopsim's wording of its fixed reminder).` } };
    },
    onOutcome(state, outcome) {
      if (outcome.error !== undefined) return { state, action: ALLOW };
      return { state: { ...state, previous: unorderedKey(outcome.tool, outcome.params) }, action: ALLOW };
    },
  },
});
