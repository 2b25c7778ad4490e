// opencode's doom-loop check: the last 3 tool calls of the current assistant message all the same
// tool with the same args (serialized in order) ask for permission (`doom_loop`, ask by default).
import { orderedKey } from "./callKeys.js";
import { ALLOW, peerTarget } from "./peerGuard.js";

export const OPENCODE_WINDOW = 3;
const DETECTOR = "opencode:doom-loop";

export const OPENCODE_TARGET = peerTarget<readonly string[]>({
  name: "opencode",
  summary: `opencode: ${OPENCODE_WINDOW} identical calls in a row ask for permission (here: the run ends); results are not compared`,
  notes: [
    "a run stands for one assistant message; the 3 calls are the ones proposed, checked before the 3rd runs",
    "doom_loop is 'ask' by default and no user answers in a simulation: the run ends there",
    "args serialized in order: the same args with keys in another order are another call",
  ],
  detectors: [DETECTOR],
  warns: false,
  reducer: {
    initial: () => [],
    onCall(recent, call) {
      const key = orderedKey(call.tool, call.params);
      const last = [...recent, key].slice(-OPENCODE_WINDOW);
      if (last.length < OPENCODE_WINDOW || last.some((k) => k !== key)) return { state: last, action: ALLOW };
      return { state: last, action: { kind: "stop", detector: DETECTOR, count: OPENCODE_WINDOW, message: `opencode: ${call.tool} called ${OPENCODE_WINDOW} times in a row with the same input; permission asked (doom_loop).` } };
    },
    onOutcome: (state) => ({ state, action: ALLOW }),
  },
});
