// The reference engine (models/) and its rescanning oracle as targets.
import type { ResolvedConfig } from "../../models/config.js";
import { createEngine, engineStateSize, engineStep, type EngineOptions, type EngineState } from "../../models/engine.js";
import type { ToolEvent } from "../../models/events.js";
import { chosenDigest } from "./digestChoice.js";
import { FULL_CAPABILITIES, type StateSize, type Target, type TargetOutput, type TargetSession } from "./target.js";

/** A session over the reference engine, optionally composed with other parts. */
export class EngineSession implements TargetSession {
  readonly state: EngineState;

  constructor(config: ResolvedConfig, options: EngineOptions = {}) {
    this.state = createEngine(config, options);
  }

  step(event: ToolEvent): TargetOutput[] {
    return engineStep(this.state, event).outputs;
  }

  stateSize(): StateSize {
    const size = engineStateSize(this.state);
    let armedRuns = 0;
    for (const g of this.state.guards.values()) if (g.phase === "armed") armedRuns++;
    return {
      ...size,
      armedRuns,
      idleGuards: this.state.guards.size - armedRuns,
      windowFull: this.state.history.size() === this.state.config.historySize,
    };
  }
}

/** The reference: loopsim's engine, the behaviour contract (SPEC) as written; what every check compares with. */
export const REFERENCE_TARGET: Target = {
  name: "reference",
  summary: "loopsim's reference engine (models/): SPEC.md as written, incremental counts",
  capabilities: FULL_CAPABILITIES,
  notes: [],
  breaks: [],
  start: (config) => new EngineSession(config, { digest: chosenDigest() }),
};

export const ORACLE_TARGET: Target = {
  name: "oracle",
  summary: "the reference with its plain rescanning history (every count recomputed from the window)",
  capabilities: FULL_CAPABILITIES,
  notes: [],
  breaks: [],
  start: (config) => new EngineSession(config, { history: "scanning", digest: chosenDigest() }),
};
