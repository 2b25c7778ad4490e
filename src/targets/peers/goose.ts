// Goose's RepetitionInspector, installed in every agent (with no limit unless one is set). Two
// findings, each denying the call with the reason returned to the model:
// - REP-001: more than max_tool_repetitions identical calls in a row (name and args as JSON
//   values). Off unless the limit is set: `goose` is the shipped default, `goose:N` sets it.
// - REP-002: a tool whose last 3 results in a row were the same error (the tool's name and the
//   error's first 100 characters) is denied at the next model response, whatever the args, on
//   whatever the limit; the count then restarts, so the model may try again after adapting.
// Read from aaif-goose/goose crates/goose/src/tool_monitor.rs (no Goose release is run here).
import { unorderedKey } from "./callKeys.js";
import { extend, NO_STREAK, type Streak } from "./consecutive.js";
import { ALLOW, peerTarget, type PeerAction, type PeerCall } from "./peerGuard.js";
import { GOOSE_NORMALIZATION } from "./normalization/goose.js";
import type { Target } from "../target.js";

const REPETITION = "goose:repetition";
const REPEATED_ERROR = "goose:repeated-error";
/** MAX_CONSECUTIVE_ERROR_FINGERPRINTS. */
export const GOOSE_SAME_ERRORS = 3;
/** The error text is compared on its first 100 characters. */
export const GOOSE_ERROR_CHARS = 100;

interface ErrorRun {
  readonly tool: string;
  readonly text: string;
  readonly count: number;
}

interface GooseState {
  readonly streak: Streak;
  /** The tool's last results while they are the same error (record_error / record_success). */
  readonly errors: ErrorRun | undefined;
  /** The response the last inspection was for: its calls share that inspection. */
  readonly inspectedStep: string | undefined;
  /** The tool REP-002 denies in the current response, if any. */
  readonly deniedTool: string | undefined;
}

/** inspect(), once per model response: REP-002 fires when the error run reached 3, and resets it. */
function inspect(state: GooseState, call: PeerCall): GooseState {
  const sameResponse = call.step !== undefined && call.step === state.inspectedStep;
  if (sameResponse) return state;
  const errors = state.errors;
  if (errors === undefined || errors.count < GOOSE_SAME_ERRORS) return { ...state, inspectedStep: call.step, deniedTool: undefined };
  return { ...state, inspectedStep: call.step, deniedTool: errors.tool, errors: { ...errors, count: 0 } };
}

function firstChars(text: string): string {
  return Array.from(text).slice(0, GOOSE_ERROR_CHARS).join("");
}

export function gooseTarget(limit: number | undefined): Target {
  const deny = (detector: string, count: number, message: string): PeerAction => ({ kind: "block", detector, count, message });
  return peerTarget<GooseState>({
    name: limit === undefined ? "goose" : `goose:${limit}`,
    summary:
      limit === undefined
        ? `Goose as shipped: max_tool_repetitions unset, so identical calls run; a tool that returned the same error ${GOOSE_SAME_ERRORS} times in a row is denied at the next response, whatever its args (REP-002)`
        : `Goose with max_tool_repetitions = ${limit}: the ${limit + 1}th identical call in a row is denied; a tool that returned the same error ${GOOSE_SAME_ERRORS} times in a row is denied at the next response (REP-002)`,
    notes: [
      "args compared as JSON values (key order ignored)",
      "REP-001 denied calls still count: while the agent repeats the same call, every further repeat is denied (Goose's inspect() checks a copy of its state, so whether shipped releases advance the count at all is unverified)",
      `REP-002: the same error means the same tool and the same first ${GOOSE_ERROR_CHARS} characters of error text; any successful result clears it; a denied call records nothing`,
      "REP-002 is judged once per model response, before its calls run: all calls of that tool in the response are denied, and the error count restarts from 0 (the tool and text are kept)",
      "a run stands for one session (its inspector lives in the agent; reset() clears it)",
    ],
    detectors: limit === undefined ? [REPEATED_ERROR] : [REPETITION, REPEATED_ERROR],
    normalization: GOOSE_NORMALIZATION,
    warns: false,
    reducer: {
      initial: () => ({ streak: NO_STREAK, errors: undefined, inspectedStep: undefined, deniedTool: undefined }),
      onCall(state, call) {
        const inspected = inspect(state, call);
        const streak = extend(inspected.streak, unorderedKey(call.tool, call.params));
        const next = { ...inspected, streak };
        if (limit !== undefined && streak.length > limit) {
          return { state: next, action: deny(REPETITION, streak.length, `Goose: Tool '${call.tool}' has exceeded maximum repetitions (${streak.length} in a row, limit ${limit}); the call was denied.`) };
        }
        if (next.deniedTool === call.tool) {
          return { state: next, action: deny(REPEATED_ERROR, GOOSE_SAME_ERRORS, `Goose: Tool '${call.tool}' has returned the same error ${GOOSE_SAME_ERRORS} consecutive times: '${state.errors?.text ?? ""}'; the call was denied.`) };
        }
        return { state: next, action: ALLOW };
      },
      onOutcome(state, outcome) {
        if (outcome.error === undefined) return { state: { ...state, errors: undefined }, action: ALLOW };
        const text = firstChars(outcome.error);
        const same = state.errors !== undefined && state.errors.tool === outcome.tool && state.errors.text === text;
        return { state: { ...state, errors: { tool: outcome.tool, text, count: same ? (state.errors?.count ?? 0) + 1 : 1 } }, action: ALLOW };
      },
    },
  });
}
