// Kilo Code's CLI (@kilocode/cli 7.x) ships opencode's doom-loop rule (stepRepeat.ts), with two
// differences its driven CLI showed: the triggering call still runs before the run ends, and its
// tool-call repair trims a padded name before lowercasing it (KILO_NORMALIZATION).
// It adds a second guard of its own, read from the 7.7.9 binary (package/bin/kilo: the session
// processor's `malformedToolGuard`, REPEATED_TOOL_FAILURE_LIMIT = 3): per user turn (keyed by the
// assistant message's parent, the user message), a failed call whose error is
// ToolInvalidArgumentsError (its args failed the tool's schema) adds one; any other failure, and
// any completed call, clears the count; the 3rd in a row aborts the turn after that call failed
// ("Stopped after 3 consecutive invalid-argument failures for the "read" tool...").
// A trace says a call's args failed the schema with an error object `{"kind": "invalid-arguments",
// ...}` (docs/guide/formats.md), or with Kilo's own message for that error ("The read tool was
// called with invalid arguments: ..."), as a recorded Kilo session carries it.
// Pinned against the real CLI driven through a scripted model: reports/peers.
import { KILO_NORMALIZATION } from "./normalization/opencode.js";
import { ALLOW, peerTarget, type PeerAction, type PeerOutcome } from "./peerGuard.js";
import { stepRepeatDefinition, type StepParts } from "./stepRepeat.js";

export const KILO_INVALID_ARGUMENTS_LIMIT = 3;
const DETECTOR = "kilo:invalid-arguments";
/** The message of Kilo's ToolInvalidArgumentsError, as its session records it. */
const KILO_INVALID_ARGUMENTS_TEXT = /^The \S+ tool was called with invalid arguments: /;

/** Whether a failed call's error is Kilo's ToolInvalidArgumentsError. */
export function isInvalidArguments(outcome: PeerOutcome): boolean {
  return outcome.error !== undefined && (outcome.errorKind === "invalid-arguments" || KILO_INVALID_ARGUMENTS_TEXT.test(outcome.error));
}

interface KiloState {
  readonly doom: StepParts;
  /** Invalid-argument failures in a row in this turn. */
  readonly malformed: number;
}

const doom = stepRepeatDefinition("kilo", "Kilo Code", ["the shipped binary carries opencode's rule; the older extension's 30-call window is gone"], { triggerRuns: true }, KILO_NORMALIZATION);

function malformedStop(tool: string): PeerAction {
  return {
    kind: "stop",
    detector: DETECTOR,
    count: KILO_INVALID_ARGUMENTS_LIMIT,
    message: `Kilo Code: Stopped after ${KILO_INVALID_ARGUMENTS_LIMIT} consecutive invalid-argument failures for the "${tool}" tool. The model kept re-issuing malformed input, so the turn was aborted to avoid burning tokens.`,
  };
}

export const KILO_TARGET = peerTarget<KiloState>({
  ...doom,
  summary: `${doom.summary}; and ${KILO_INVALID_ARGUMENTS_LIMIT} failed calls in a row whose args failed the tool's schema abort the turn`,
  notes: [
    ...doom.notes,
    `second guard (7.7.9 binary, malformedToolGuard): per user turn, calls that failed with ToolInvalidArgumentsError in a row; any other failure or a completed call clears the count; the last of ${KILO_INVALID_ARGUMENTS_LIMIT} in a row aborts the turn after it failed`,
    'a failure is ToolInvalidArgumentsError when the trace says so: an error object {"kind": "invalid-arguments", ...}, or Kilo\'s own text "The <tool> tool was called with invalid arguments: ..."; an outcome without an error is a completed call',
  ],
  detectors: [...doom.detectors, DETECTOR],
  reducer: {
    initial: () => ({ doom: doom.reducer.initial(), malformed: 0 }),
    onCall(state, call) {
      const { state: next, action } = doom.reducer.onCall(state.doom, call);
      return { state: { ...state, doom: next }, action };
    },
    onOutcome(state, outcome) {
      const { state: next, action } = doom.reducer.onOutcome(state.doom, outcome);
      if (action.kind !== "allow") return { state: { ...state, doom: next }, action };
      if (!isInvalidArguments(outcome)) return { state: { doom: next, malformed: 0 }, action: ALLOW };
      const malformed = state.malformed + 1;
      if (malformed < KILO_INVALID_ARGUMENTS_LIMIT) return { state: { doom: next, malformed }, action: ALLOW };
      return { state: { doom: next, malformed: 0 }, action: malformedStop(outcome.tool) };
    },
  },
});
