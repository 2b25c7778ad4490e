// Crush's loop detection (charmbracelet/crush, internal/agent/loop_detection.go, as published in
// @charmland/crush 0.96): after every step (one model response and the tools it called ran), a
// stop condition of the agent's stream looks at the prompt's last 10 steps; each step with tool
// calls has one signature, every call's name, raw input and output in order; when one signature
// appears more than 5 times in those 10, the stream stops: no further model request, the prompt
// ends. Fewer than 10 steps never stop; a step without tool calls has no signature but takes a
// place in the window. Nothing is blocked or warned, and the calls of the last step ran.
import { CRUSH_NORMALIZATION } from "./normalization/crush.js";
import { ALLOW, peerTarget, type PeerAction } from "./peerGuard.js";

export const CRUSH_WINDOW = 10;
export const CRUSH_MAX_REPEATS = 5;
const DETECTOR = "crush:repeated-step";

interface Entry {
  readonly tool: string;
  readonly input: string;
  readonly output: string | undefined;
}

interface CrushState {
  /** Signatures of the prompt's finished steps, oldest first (only the last window matters). */
  readonly finished: readonly string[];
  /** The step under way: its id (undefined: each call is its own step) and its calls. */
  readonly step: string | undefined;
  readonly current: readonly Entry[];
}

const EMPTY: CrushState = { finished: [], step: undefined, current: [] };

/** Its tool input is the JSON text the model sent: key order counts, as in Crush. */
function inputOf(params: unknown): string {
  return params === undefined ? "" : JSON.stringify(params);
}

function outputOf(result: unknown, error: string | undefined): string {
  if (error !== undefined) return error;
  if (typeof result === "string") return result;
  return result === undefined || result === null ? "" : JSON.stringify(result);
}

function signature(entries: readonly Entry[]): string {
  return entries.map((e) => `${e.tool}\u0000${e.input}\u0000${e.output ?? ""}\u0000`).join("");
}

/** One signature more than CRUSH_MAX_REPEATS times in the last CRUSH_WINDOW steps (and at least that many steps). */
export function crushLoop(finished: readonly string[]): number | undefined {
  if (finished.length < CRUSH_WINDOW) return undefined;
  const counts = new Map<string, number>();
  for (const sig of finished.slice(-CRUSH_WINDOW)) {
    if (sig === "") continue;
    const count = (counts.get(sig) ?? 0) + 1;
    counts.set(sig, count);
    if (count > CRUSH_MAX_REPEATS) return count;
  }
  return undefined;
}

export const CRUSH_TARGET = peerTarget<CrushState>({
  name: "crush",
  summary: `Crush: the prompt stops once one step's calls and results recur more than ${CRUSH_MAX_REPEATS} times in its last ${CRUSH_WINDOW} steps; nothing is blocked or warned`,
  notes: [
    "a step is one model response with all its calls and their outputs (a trace's step field; without it each call is a step)",
    `the check runs after a step ran and needs ${CRUSH_WINDOW} steps in the prompt: the run ends before the next response, read here as a stop at the next call, which never runs`,
    "inputs compared as the JSON text the model sent (key order counts); outputs compared exactly, an error by its text",
    "modelled from its source only: its npm package downloads the binary from GitHub at install, which this machine cannot reach",
  ],
  detectors: [DETECTOR],
  warns: false,
  normalization: CRUSH_NORMALIZATION,
  reducer: {
    initial: () => EMPTY,
    onCall(state, call): { state: CrushState; action: PeerAction } {
      const sameStep = call.step !== undefined && call.step === state.step && state.current.length > 0;
      let next = state;
      if (!sameStep && state.current.length > 0) {
        const finished = [...state.finished, signature(state.current)].slice(-CRUSH_WINDOW);
        const count = crushLoop(finished);
        if (count !== undefined) return { state: { ...state, finished }, action: { kind: "stop", detector: DETECTOR, count, message: `Crush: the same tool calls and results ${count} times in the last ${CRUSH_WINDOW} steps; the agent stops.` } };
        next = { finished, step: call.step, current: [] };
      }
      return { state: { ...next, step: call.step, current: [...next.current, { tool: call.tool, input: inputOf(call.params), output: undefined }] }, action: ALLOW };
    },
    onOutcome(state, outcome) {
      const input = inputOf(outcome.params);
      const at = state.current.findIndex((e) => e.output === undefined && e.tool === outcome.tool && e.input === input);
      if (at < 0) return { state, action: ALLOW };
      const current = state.current.map((e, i) => (i === at ? { ...e, output: outputOf(outcome.result, outcome.error) } : e));
      return { state: { ...state, current }, action: ALLOW };
    },
  },
});
