// The doom-loop rule opencode ships and Kilo inherited: when a tool call arrives, the last 3 parts
// of the current assistant message (one model step) are that same tool with the same args. Parts
// are per step, so repeats across steps never trigger; in practice only 3 identical parallel calls
// in one response do. The trigger asks permission (`doom_loop`); headless `run` auto-rejects it
// and the run ends with an error, before the call runs.
import { orderedKey } from "./callKeys.js";
import { ALLOW, peerTarget, type PeerDefinition } from "./peerGuard.js";
import type { Target } from "../target.js";

export const DOOM_LOOP_PARTS = 3;

interface StepParts {
  readonly step: string | undefined;
  /** The tool parts of the current step so far, as keys. */
  readonly parts: readonly string[];
}

export function stepRepeatTarget(name: string, runtime: string, extraNotes: readonly string[]): Target {
  const detector = `${name}:doom-loop`;
  const definition: PeerDefinition<StepParts> = {
    name,
    summary: `${runtime}: ${DOOM_LOOP_PARTS} identical calls within one model response (parallel calls) ask permission, which headless runs reject: the run ends; repeats across responses never trigger; results are not compared`,
    notes: [
      "a call without a step (a trace that does not say which response it came in) is a response of its own, so it never triggers",
      "args serialized in order (JSON.stringify): the same args with keys in another order are another call",
      "doom_loop is 'ask' by default; `run` auto-rejects the ask: the run ends there, the triggering call does not run",
      ...extraNotes,
    ],
    detectors: [detector],
    warns: false,
    reducer: {
      initial: () => ({ step: undefined, parts: [] }),
      onCall(state, call) {
        const key = orderedKey(call.tool, call.params);
        const sameStep = call.step !== undefined && call.step === state.step;
        const parts = [...(sameStep ? state.parts : []), key].slice(-DOOM_LOOP_PARTS);
        const next = { step: call.step, parts };
        if (parts.length < DOOM_LOOP_PARTS || parts.some((k) => k !== key)) return { state: next, action: ALLOW };
        return { state: next, action: { kind: "stop", detector, count: DOOM_LOOP_PARTS, message: `${runtime}: ${call.tool} called ${DOOM_LOOP_PARTS} times in one response with the same input; permission asked (doom_loop) and rejected.` } };
      },
      onOutcome: (state) => ({ state, action: ALLOW }),
    },
  };
  return peerTarget(definition);
}
