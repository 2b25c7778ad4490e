// Model-only agreement: for the rules no real runtime here can show (Roo's reasoning repetition,
// OpenHands' monologue: neither runtime runs in loopsim; Qwen's repeated thoughts: its CLI runs,
// but the scripted model streams it no text), each probe's expected observation is
// pinned from the runtime's source instead, with the lines it was read from. A model that
// disagrees with its pin is wrong or the source moved; either way the pin names the source.
import type { PromptObservation } from "../targets/runtimes/drivenRuntime.js";
import type { Target } from "../targets/target.js";
import { runProbeOnTarget } from "./eventProbe.js";
import { PROBES } from "./probeSet.js";
import type { ToolNaming } from "../targets/runtimes/drivenRuntime.js";

export interface SourcePin {
  readonly model: string;
  readonly probe: string;
  /** The step (0-based) of the only prompt where the run must stop, or null: it runs to the end. */
  readonly stoppedAtStep: number | null;
  readonly source: string;
}

const ROO = "Roo Code ReasoningRepetitionDetector: repetitionThreshold = 5, minLineLength = 20, lineCounts reset per API request";
const QWEN = "qwen-code 0.24.4 chunks/chunk-DPEB6S2R.js: THOUGHT_REPEAT_THRESHOLD = 3 (line 38005), checkRepetitiveThoughts (38842-38872), history emptied at each tool call request (38325); the scripted model streams no text to the CLI";
const OPENHANDS = "OpenHands SDK stuck_detector.py _is_stuck_monologue; conversation/types.py StuckDetectionThresholds.monologue = 3";

export const SOURCE_PINS: readonly SourcePin[] = [
  { model: "roo-code", probe: "reasoning-lines-4", stoppedAtStep: null, source: ROO },
  { model: "roo-code", probe: "reasoning-lines-5", stoppedAtStep: 0, source: ROO },
  { model: "roo-code", probe: "reasoning-lines-3-read-3", stoppedAtStep: null, source: ROO },
  { model: "roo-code", probe: "monologue-3", stoppedAtStep: null, source: `${ROO}: messages are not read` },
  { model: "qwen-code:heuristics", probe: "thoughts-3", stoppedAtStep: 0, source: QWEN },
  { model: "qwen-code:heuristics", probe: "thoughts-12", stoppedAtStep: 0, source: QWEN },
  { model: "qwen-code:heuristics", probe: "thoughts-2-read-2", stoppedAtStep: null, source: QWEN },
  { model: "openhands", probe: "monologue-2", stoppedAtStep: null, source: OPENHANDS },
  { model: "openhands", probe: "monologue-3", stoppedAtStep: 3, source: `${OPENHANDS}: checked before the agent's next step` },
  { model: "openhands", probe: "monologue-2-read-1", stoppedAtStep: null, source: `${OPENHANDS}: an action or observation ends the count` },
  { model: "openhands", probe: "reasoning-lines-5", stoppedAtStep: null, source: `${OPENHANDS}: reasoning is no message event` },
];

export interface PinCheck {
  readonly pin: SourcePin;
  readonly observed: readonly PromptObservation[];
  readonly agrees: boolean;
}

/** Runs each of the model's pinned probes on it and says whether it stops where the source says. */
export function checkSourcePins(model: Target, naming: ToolNaming): PinCheck[] {
  return SOURCE_PINS.filter((pin) => pin.model === model.name).map((pin) => {
    const probe = PROBES.find((p) => p.id === pin.probe);
    if (probe === undefined) throw new Error(`pinned probe ${pin.probe} is not in the probe set`);
    const observed = runProbeOnTarget(model, naming, probe.script);
    return { pin, observed, agrees: observed.length === 1 && observed[0]?.stoppedAtStep === pin.stoppedAtStep };
  });
}
