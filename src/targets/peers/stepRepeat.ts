// The doom-loop rule opencode ships and Kilo inherited: when a tool call arrives, the last 3 parts
// of the current assistant message (one model step) are that same tool with the same args. Parts
// are per step, so repeats across steps never trigger; in practice only 3 identical parallel calls
// in one response do. The trigger asks permission (`doom_loop`); headless `run` auto-rejects it
// and the run ends with an error. In opencode the triggering call does not run; Kilo's CLI runs
// it (and reports it completed) before the rejection ends the run, as its driven CLI showed.
import { orderedKey } from "./callKeys.js";
import { ALLOW, peerTarget, type PeerDefinition } from "./peerGuard.js";
import { OPENCODE_NORMALIZATION } from "./normalization/opencode.js";
import type { CallNormalization } from "./normalization/callView.js";
import type { Target } from "../target.js";

export const DOOM_LOOP_PARTS = 3;

export interface StepParts {
  readonly step: string | undefined;
  /** The tool parts of the current step so far, as keys. */
  readonly parts: readonly string[];
  /** The triggering call ran and the run ends at the next event (Kilo). */
  readonly tripped: boolean;
}

export interface DoomLoopTiming {
  /** Whether the triggering call still runs before the run ends. */
  readonly triggerRuns: boolean;
}

export function stepRepeatTarget(name: string, runtime: string, extraNotes: readonly string[], timing: DoomLoopTiming = { triggerRuns: false }, normalization: CallNormalization = OPENCODE_NORMALIZATION): Target {
  return peerTarget(stepRepeatDefinition(name, runtime, extraNotes, timing, normalization));
}

/** The doom-loop rule as a definition, for a runtime that adds a guard of its own to it (Kilo). */
export function stepRepeatDefinition(name: string, runtime: string, extraNotes: readonly string[], timing: DoomLoopTiming = { triggerRuns: false }, normalization: CallNormalization = OPENCODE_NORMALIZATION): PeerDefinition<StepParts> {
  const detector = `${name}:doom-loop`;
  const definition: PeerDefinition<StepParts> = {
    name,
    summary: `${runtime}: ${DOOM_LOOP_PARTS} identical calls within one model response (parallel calls) ask permission, which headless runs reject: the run ends; repeats across responses never trigger; results are not compared`,
    notes: [
      "a call without a step (a trace that does not say which response it came in) is a response of its own, so it never triggers",
      "args serialized in order (JSON.stringify): the same args with keys in another order are another call",
      timing.triggerRuns
        ? "doom_loop is 'ask' by default; `run` auto-rejects the ask: the triggering call still runs, then the run ends (no later call runs)"
        : "doom_loop is 'ask' by default; `run` auto-rejects the ask: the run ends there, the triggering call does not run",
      "a run stands for one user prompt; the rule itself only ever looks within one response (assistant message), so the boundary never matters",
      ...extraNotes,
    ],
    detectors: [detector],
    normalization,
    warns: false,
    reducer: {
      initial: () => ({ step: undefined, parts: [], tripped: false }),
      onCall(state, call) {
        const message = `${runtime}: ${call.tool} called ${DOOM_LOOP_PARTS} times in one response with the same input; permission asked (doom_loop) and rejected.`;
        if (state.tripped) return { state, action: { kind: "stop", detector, count: DOOM_LOOP_PARTS, message } };
        const key = orderedKey(call.tool, call.params);
        const sameStep = call.step !== undefined && call.step === state.step;
        const parts = [...(sameStep ? state.parts : []), key].slice(-DOOM_LOOP_PARTS);
        const next = { step: call.step, parts, tripped: false };
        if (parts.length < DOOM_LOOP_PARTS || parts.some((k) => k !== key)) return { state: next, action: ALLOW };
        if (timing.triggerRuns) return { state: { ...next, tripped: true }, action: ALLOW };
        return { state: next, action: { kind: "stop", detector, count: DOOM_LOOP_PARTS, message } };
      },
      onOutcome(state) {
        if (!state.tripped) return { state, action: ALLOW };
        return { state, action: { kind: "stop", detector, count: DOOM_LOOP_PARTS, message: `${runtime}: the same call ${DOOM_LOOP_PARTS} times in one response; permission asked (doom_loop) and rejected after the call ran.` } };
      },
    },
  };
  return definition;
}
