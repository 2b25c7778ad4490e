// Bounded state (issue: O(historySize + live runs)): however long the trace and however many
// runs pass through, what the engine holds stays within a bound set by historySize, the
// 256 warning keys and the runs whose guard is armed. Aborted runs are remembered (E5 needs
// them), so they are counted apart.
import fc from "fast-check";
import { configFrom } from "../../models/configResolution.js";
import type { ToolEvent } from "../../models/events.js";
import { configBlockArbitrary, type LoopDetectionBlock } from "../../src/arbitraries/configArbitrary.js";
import { traceArbitrary } from "../../src/arbitraries/traceArbitrary.js";
import { WARNING_KEY_CAPACITY } from "../../models/warningPolicy.js";
import { broken, type Law } from "./law.js";

interface LongTrace {
  readonly block: LoopDetectionBlock;
  readonly unit: ToolEvent[];
  readonly repeats: number;
}

/** The unit trace again and again, each time under fresh runIds: many runs, long trace. */
function expand(value: LongTrace): ToolEvent[] {
  const out: ToolEvent[] = [];
  for (let r = 0; r < value.repeats; r++) for (const e of value.unit) out.push({ ...e, runId: `${e.runId ?? ""}#${r}` });
  return out;
}

export const boundedState: Law<LongTrace> = {
  name: "engine-state-is-bounded",
  spec: ["R1", "W1", "G1"],
  needs: ["stateSize"],
  arbitrary: fc.record({ block: configBlockArbitrary({ enabled: [true, undefined] }), unit: traceArbitrary({ maxSegments: 6 }), repeats: fc.integer({ min: 5, max: 40 }) }),
  runs: 40,
  required: ["long", "full-window"],
  check(value, target, coverage) {
    const config = configFrom(value.block);
    const session = target.start(config);
    const events = expand(value);
    if (events.length > 2000) coverage.hit("long");
    const limit = 12 * config.historySize + 12;
    let step = 0;
    for (const event of events) {
      session.step(event);
      if (++step % 25 !== 0 || session.stateSize === undefined) continue;
      const size = session.stateSize();
      if (size.windowFull) coverage.hit("full-window");
      const armedRuns = size.armedRuns;
      if (size.history > limit) broken(`after ${step} events the history holds ${size.history} entries (bound ${limit} for historySize ${config.historySize})`);
      if (size.blocked > 2 * config.historySize + 16) broken(`after ${step} events ${size.blocked} blocked calls are remembered`);
      if (size.warnings > WARNING_KEY_CAPACITY) broken(`${size.warnings} warning keys remembered`);
      if (size.guards > armedRuns * (config.postCompactionGuard.windowSize + 1)) broken(`guards hold ${size.guards} entries for ${armedRuns} armed runs`);
      if (size.idleGuards > 0) broken(`${size.idleGuards} idle guards kept after ${step} events`);
    }
  },
  scenario: (value) => ({ description: "Counterexample: engine state grew without bound.", covers: ["R1"], config: { tools: { loopDetection: value.block } }, events: expand(value) }),
};
