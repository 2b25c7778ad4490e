// SPEC E1-E5 at the joints of the engine: which window it builds, what it records when, the
// memory of blocked calls awaiting their outcome (E4), how an outcome's fields are read, the
// parts a variant under test may replace (src/targets/zoo uses them), and the state it reports
// for the bounded-state property. Verdicts alone cannot see most of these.
import { describe, expect, it } from "vitest";
import { configFrom } from "../../models/configResolution.js";
import { createEngine, engineStateSize, engineStep, runEngine, type EngineState } from "../../models/engine.js";
import type { EngineOutput } from "../../models/engineOutput.js";
import type { ToolEvent } from "../../models/events.js";
import { GUARD_IDLE, guardStep, type GuardEvent, type GuardState } from "../../models/guard.js";
import { IncrementalHistory } from "../../models/history/incremental.js";
import { ScanningHistory } from "../../models/history/scanning.js";
import { hashOutcome } from "../../models/outcomeHash.js";
import { call, compaction, enabled, outcome, textResult } from "../helpers.js";

const feed = (state: EngineState, events: ToolEvent[]): EngineOutput[] => events.flatMap((e) => engineStep(state, e).outputs);

describe("E1 the engine's parts", () => {
  it("E1 the incremental window by default, the scanning oracle on request, or one supplied", () => {
    expect(createEngine(configFrom({})).history).toBeInstanceOf(IncrementalHistory);
    expect(createEngine(configFrom({}), { history: "incremental" }).history).toBeInstanceOf(IncrementalHistory);
    expect(createEngine(configFrom({}), { history: "scanning" }).history).toBeInstanceOf(ScanningHistory);
    const own = new ScanningHistory(4);
    let askedFor = 0;
    expect(createEngine(configFrom({ historySize: 7 }), { history: (size) => ((askedFor = size), own) }).history).toBe(own);
    expect(askedFor).toBe(7);
  });
  it("R2 calls are recorded unless enabled is false", () => {
    const calls = [call("read", { a: 1 }), call("read", { a: 2 }), call("read", { a: 3 })];
    for (const [value, size] of [[false, 0], [undefined, 3], [true, 3]] as const) {
      const state = createEngine(configFrom(value === undefined ? {} : { enabled: value }));
      feed(state, calls);
      expect(state.history.size()).toBe(size);
    }
  });
});

describe("E4 blocked calls awaiting their outcome", () => {
  // Two identical outcomes, then every identical call is blocked (critical at 2).
  const config = enabled({ historySize: 3, warningThreshold: 1, criticalThreshold: 2, globalCircuitBreakerThreshold: 50 });
  const p = { q: 1 };
  const primed = (): EngineState => {
    const state = createEngine(config);
    feed(state, [call("read", p, { callId: "a" }), outcome("read", p, textResult("x"), { callId: "a" }), call("read", p, { callId: "b" }), outcome("read", p, textResult("x"), { callId: "b" })]);
    return state;
  };
  const vetoed = (state: EngineState, callId: string | undefined): boolean => {
    const note = feed(state, [outcome("read", p, textResult("x"), callId === undefined ? {} : { callId })])[0];
    if (note?.kind !== "outcome") throw new Error("no outcome note");
    return note.vetoed;
  };
  it("E4 as many are remembered as the window holds; older ones are forgotten, oldest first", () => {
    const state = primed();
    const blocked = feed(state, ["c1", "c2", "c3", "c4", "c5"].map((id) => call("read", p, { callId: id })));
    expect(blocked.map((o) => (o.kind === "call" ? o.verdict : o.kind))).toEqual(["critical", "critical", "critical", "critical", "critical"]);
    expect(["c5", "c4", "c3"].map((id) => vetoed(state, id))).toEqual([true, true, true]);
    expect(["c2", "c1"].map((id) => vetoed(state, id))).toEqual([false, false]);
  });
  it("E4 each blocked call is vetoed once; a callId and no callId are different calls", () => {
    const state = primed();
    feed(state, [call("read", p, { callId: "c1" }), call("read", p)]);
    expect(vetoed(state, "")).toBe(false);
    expect(vetoed(state, undefined)).toBe(true);
    expect(vetoed(state, undefined)).toBe(false);
    expect(vetoed(state, "c1")).toBe(true);
    expect(vetoed(state, "c1")).toBe(false);
  });
  it("E4 forgetting the oldest of several identical blocked calls keeps the others", () => {
    const state = primed();
    feed(state, [call("read", p), call("read", p), call("read", p), call("read", p)]); // no callId: one key
    expect([vetoed(state, undefined), vetoed(state, undefined), vetoed(state, undefined), vetoed(state, undefined)]).toEqual([true, true, true, false]);
  });
  it("E4 calls forgotten before the memory is compacted stay forgotten after it", () => {
    const state = primed();
    feed(state, ["u1", "u2", "u3", "u4", "u5"].map((id) => call("read", p, { callId: id }))); // u1 and u2 forgotten
    for (let i = 0; i < 30; i++) {
      feed(state, [call("read", p, { callId: `v${i}` })]);
      expect(vetoed(state, `v${i}`)).toBe(true);
    }
    // v0 made u3 the oldest to forget; the memory was compacted while u4 and u5 waited. Two more
    // blocks: the second forgets the oldest, u4, found through the compacted order.
    feed(state, [call("read", p, { callId: "z1" }), call("read", p, { callId: "z2" })]);
    expect(["u1", "u2", "u3", "u4", "u5", "z1", "z2"].map((id) => vetoed(state, id))).toEqual([false, false, false, false, true, true, true]);
  });
  it("E4 the memory stays right after many blocked calls were vetoed and more were forgotten", () => {
    const state = primed();
    // 40 blocked calls each vetoed at once leave dead entries behind; then 5 more await outcomes.
    for (let i = 0; i < 40; i++) {
      feed(state, [call("read", p, { callId: `v${i}` })]);
      expect(vetoed(state, `v${i}`)).toBe(true);
    }
    feed(state, ["w1", "w2", "w3", "w4", "w5"].map((id) => call("read", p, { callId: id })));
    expect(engineStateSize(state).blocked).toBeLessThanOrEqual(2 * 3 + 16 + 5);
    expect(["w5", "w4", "w3", "w2", "w1"].map((id) => vetoed(state, id))).toEqual([true, true, true, false, false]);
    // And again, interleaved: the oldest forgotten first, whatever was taken between.
    feed(state, ["y1", "y2"].map((id) => call("read", p, { callId: id })));
    expect(vetoed(state, "y1")).toBe(true);
    feed(state, ["y3", "y4", "y5"].map((id) => call("read", p, { callId: id })));
    expect(["y2", "y3", "y4", "y5"].map((id) => vetoed(state, id))).toEqual([false, true, true, true]);
  });
});

describe("E3 how an outcome is read", () => {
  it("H2.1 an error field that is undefined is no error: the result is what counts", () => {
    const withUndefinedError: ToolEvent = { type: "outcome", tool: "read", params: {}, result: textResult("x"), error: undefined };
    const [a] = runEngine(configFrom({}), [withUndefinedError]);
    const [b] = runEngine(configFrom({}), [outcome("read", {}, textResult("x"))]);
    expect(a).toEqual(b);
    expect(a?.kind === "outcome" && a.resultHash?.startsWith("error:")).toBe(false);
  });
  it("E3 an outcome with nothing to record says so exactly", () => {
    const [note] = runEngine(configFrom({}), [{ type: "outcome", tool: "Read", params: {}, runId: " r " }]);
    expect(note).toStrictEqual({ kind: "outcome", index: 0, run: "r", tool: "read", recorded: false, vetoed: false, argsHash: expect.stringMatching(/^read:/) as unknown, resultHash: undefined, unknownTool: undefined });
  });
});

describe("E1 parts a variant may replace", () => {
  it("G3 an outcome hasher that records the veto lets a blocked call abort a run in its guard window", () => {
    // OpenClaw releases record the blocked call's result; zoo targets model that with this part.
    const given: unknown[] = [];
    const recordsVeto = (input: Parameters<typeof hashOutcome>[0], digest: Parameters<typeof hashOutcome>[1]) => {
      given.push(input.result);
      return hashOutcome({ ...input, result: { content: [{ type: "text", text: "blocked" }] } }, digest);
    };
    const config = enabled({ warningThreshold: 1, criticalThreshold: 2, globalCircuitBreakerThreshold: 50, postCompactionGuard: { windowSize: 2 } });
    const p = { q: 1 };
    const events: ToolEvent[] = [call("read", p), outcome("read", p, textResult("x")), call("read", p), outcome("read", p, textResult("x")), compaction(), call("read", p), call("read", p)];
    const out = runEngine(config, events, { hashOutcome: recordsVeto });
    expect(out.slice(-3).map((o) => (o.kind === "call" ? o.verdict : o.kind))).toEqual(["critical", "critical", "abort"]);
    // The part is handed the veto itself (E4) as the blocked call's result.
    const message = (out.at(-2) as { message: string }).message;
    expect(given.at(-1)).toEqual({ content: [{ type: "text", text: message }], details: { status: "blocked", deniedReason: "tool-loop", reason: message } });
    expect(runEngine(config, events).some((o) => o.kind === "abort")).toBe(false);
  });
  it("G1 the guard part is given the run's current state at each compaction, idle for a fresh run", () => {
    const seen: string[] = [];
    const spy = (state: GuardState, event: GuardEvent) => {
      if (event.type === "compaction") seen.push(state.phase === "armed" ? `armed:${state.remaining}` : state.phase);
      return guardStep(state, event);
    };
    const p = { q: 1 };
    runEngine(configFrom({}), [compaction(), call("read", p), outcome("read", p, textResult("x")), compaction(), compaction("other")], { guardStep: spy });
    expect(seen).toEqual(["idle", "armed:2", "idle"]);
    expect(GUARD_IDLE.phase).toBe("idle");
  });
});

describe("E5 the state the engine reports holding", () => {
  it("E5 each part counted exactly: guards and their counts, warnings, blocked calls, aborted runs; the window never less than its records", () => {
    const config = enabled({ historySize: 20, warningThreshold: 3, criticalThreshold: 4, globalCircuitBreakerThreshold: 50, postCompactionGuard: { windowSize: 3 } });
    const state = createEngine(config);
    const p = { q: 1 };
    const repeat = (n: number, runId?: string): ToolEvent[] => Array.from({ length: n }, () => [call("read", p, runId === undefined ? {} : { runId }), outcome("read", p, textResult("x"), runId === undefined ? {} : { runId })]).flat();
    expect(engineStateSize(state)).toEqual({ history: 0, guards: 0, warnings: 0, blocked: 0, aborted: 0 });
    feed(state, [compaction("g"), call("read", p, { runId: "g" }), outcome("read", p, textResult("x"), { runId: "g" })]);
    expect(engineStateSize(state).guards).toBe(2); // one armed guard holding one triple
    feed(state, [call("read", { other: 1 }, { runId: "g" }), outcome("read", { other: 1 }, textResult("y"), { runId: "g" })]);
    expect(engineStateSize(state).guards).toBe(3);
    feed(state, [...repeat(4), call("read", p)]);
    let size = engineStateSize(state);
    expect(size).toMatchObject({ guards: 3, warnings: 1, blocked: 1, aborted: 0 });
    expect(size.history).toBeGreaterThanOrEqual(2 * state.history.size());
    feed(state, [compaction("h"), ...repeat(3, "h")]);
    size = engineStateSize(state);
    expect(size).toMatchObject({ guards: 3, aborted: 1 }); // h aborted and let go; g still armed
    feed(state, [call("read", { third: 1 }, { runId: "g" }), outcome("read", { third: 1 }, textResult("z"), { runId: "g" })]);
    expect(engineStateSize(state).guards).toBe(0); // g's window is full: disarmed and let go
  });
});
