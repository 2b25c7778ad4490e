// Minimising a recording removes a call together with its outcome, never one half: whatever the
// fact kept, no outcome is left without its call, the result is an in-order sub-list, and the
// fact still holds on it.
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import type { ToolEvent } from "../models/events.js";
import { TraceOrphans } from "../src/import/orphans.js";
import { callUnits, minimizeKeepingPairs } from "../src/scenario/eventPairs.js";

const orphansIn = (events: readonly ToolEvent[]): number => {
  const o = new TraceOrphans();
  for (const e of events) o.see(e);
  return o.count;
};

/** A recording: calls on a few tools and runs, each answered later (or never), some compactions. */
const recording = fc
  .array(fc.record({ tool: fc.constantFrom("read", "exec", "poll"), run: fc.constantFrom("r1", "r2"), withId: fc.boolean(), answered: fc.boolean(), delay: fc.nat(3), compaction: fc.boolean() }), { minLength: 1, maxLength: 40 })
  .map((specs) => {
    const slots: { at: number; event: ToolEvent }[] = [];
    specs.forEach((s, i) => {
      const id = s.withId ? { callId: `c${i}` } : {};
      slots.push({ at: i, event: { type: "call", runId: s.run, ...id, tool: s.tool, params: { i: i % 3 } } });
      if (s.answered) slots.push({ at: i + s.delay + 0.5, event: { type: "outcome", runId: s.run, ...id, tool: s.tool, params: { i: i % 3 }, result: "same" } });
      if (s.compaction) slots.push({ at: i + 0.25, event: { type: "compaction", runId: s.run } });
    });
    return slots.sort((a, b) => a.at - b.at).map((s) => s.event);
  })
  .filter((events) => orphansIn(events) === 0);

describe("minimising keeps calls with their outcomes", () => {
  test.prop([recording, fc.constantFrom("read", "exec", "poll"), fc.integer({ min: 1, max: 4 })], { numRuns: 300 })("no outcome loses its call; the kept list is an ordered sub-list on which the fact holds", (events, tool, k) => {
    // The fact: at least k answered calls of one tool (it needs outcomes, so pairs must survive).
    const answered = (list: readonly ToolEvent[]) => list.filter((e) => e.type === "outcome" && e.tool === tool).length;
    const holds = (list: readonly ToolEvent[]) => answered(list) >= k;
    fc.pre(holds(events)); // a skipped case is regenerated, so every run checks a real cut
    const { kept } = minimizeKeepingPairs(events, holds);
    expect(holds(kept)).toBe(true);
    expect(orphansIn(kept)).toBe(0);
    let from = 0;
    for (const e of kept) {
      const at = events.indexOf(e, from);
      expect(at).toBeGreaterThanOrEqual(from);
      from = at + 1;
    }
    // Minimal in pairs: k answered calls of that tool, each a call and its outcome, nothing else.
    expect(kept.length).toBe(2 * k);
  });

  it("units: a call with the outcome that answers it (by callId, else by tool, oldest first); anything else alone", () => {
    const events: ToolEvent[] = [
      { type: "call", runId: "r", callId: "a", tool: "read", params: {} },
      { type: "call", runId: "r", tool: "exec", params: {} },
      { type: "call", runId: "r", tool: "exec", params: {} },
      { type: "compaction", runId: "r" },
      { type: "outcome", runId: "r", tool: "exec", params: {}, result: 1 },
      { type: "outcome", runId: "r", callId: "a", tool: "read", params: {}, result: 1 },
      { type: "outcome", runId: "other", callId: "a", tool: "read", params: {}, result: 1 },
    ];
    expect(callUnits(events)).toEqual([[0, 5], [1, 4], [2], [3], [6]]);
  });
});
