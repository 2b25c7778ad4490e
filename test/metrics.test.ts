// The tuning metrics' definitions of a catch and of good work stopped (src/evaluation/metrics.ts).
import { describe, expect, it } from "vitest";
import { computeMetrics } from "../src/evaluation/metrics.js";
import type { SimulationSummary } from "../src/sim/simulate.js";

const summary = (over: Partial<SimulationSummary>): SimulationSummary => ({
  family: "session", label: "progressing", model: "recorded", seed: 1,
  attempts: 10, executed: 10, loopCalls: 0, wastedCalls: 0, wastedTokens: 0, totalTokens: 100,
  emittedWarnings: 0, warnings: 0, blocks: 0, falseBlocks: 0, aborts: 0, falseAborts: 0, compactions: 0,
  firstWarning: -1, firstBlock: -1, firstAbort: -1, caught: false, escapedAfterWarning: false,
  ...over,
});

describe("good work stopped", () => {
  it("a stop inside a labelled stuck stretch of a recorded session is a catch only, not work stopped", () => {
    // `--loops real`: the session runs whole with its mined stretch labelled stuck; the guard stops it inside the stretch.
    const session = summary({ loopCalls: 3, wastedCalls: 3, aborts: 1, falseAborts: 0, firstAbort: 6, caught: true });
    const stretch = summary({ family: "real", label: "stuck", loopCalls: 3, wastedCalls: 3, aborts: 1, firstAbort: 6, caught: true });
    const m = computeMetrics([session, stretch], "t", false);
    expect(m.stuck.caughtShare).toBe(1);
    expect(m.progressing.stoppedWronglyShare).toBe(0);
    expect(m.overall.falsePositiveRate).toBe(0);
    expect(m.byFamily["session"]?.wronglyBlockedShare).toBe(0);
    expect(m.intervals.stoppedWronglyShare.low).toBe(0);
  });
  it("a stop outside every stuck stretch, and any stop of a recovering agent, still are", () => {
    const outside = summary({ aborts: 1, falseAborts: 1, firstAbort: 2 });
    const recovering = summary({ family: "overflow-recover", label: "recovering", model: "small", loopCalls: 5, aborts: 1, falseAborts: 0, caught: true });
    const m = computeMetrics([outside, recovering], "t", false);
    expect(m.progressing.stoppedWronglyShare).toBe(1);
    expect(m.recovering.falseAbortShare).toBe(1);
    expect(m.overall.falsePositiveRate).toBe(1);
    expect(m.byFamily["overflow-recover"]?.wronglyBlockedShare).toBe(1);
  });
});
