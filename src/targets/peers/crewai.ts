// CrewAI: a call identical (same tool, same args) to the call just before is skipped, and a
// fixed text tells the model to stop reusing that input. Only the previous call is remembered.
import { unorderedKey } from "./callKeys.js";
import { ALLOW, peerTarget } from "./peerGuard.js";

const DETECTOR = "crewai:same-as-previous";

export const CREWAI_TARGET = peerTarget<string | undefined>({
  name: "crewai",
  summary: "CrewAI: the 2nd identical call in a row is skipped with a fixed reminder; results are not compared",
  notes: [
    "args compared as values (Python dict equality, key order ignored)",
    "a skipped call is still the previous call: repeating it again is skipped again",
  ],
  detectors: [DETECTOR],
  warns: false,
  reducer: {
    initial: () => undefined,
    onCall(previous, call) {
      const key = unorderedKey(call.tool, call.params);
      if (key !== previous) return { state: key, action: ALLOW };
      return { state: key, action: { kind: "block", detector: DETECTOR, count: 2, message: `CrewAI: ${call.tool} was just called with this same input; the call was skipped (loopsim's wording of its fixed reminder).` } };
    },
    onOutcome: (state) => ({ state, action: ALLOW }),
  },
});
