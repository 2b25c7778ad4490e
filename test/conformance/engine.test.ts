// SPEC E, R, S, D, W and G against both the incremental engine and the scanning oracle.
import { describe, expect, it } from "vitest";
import { configFrom } from "../../models/configResolution.js";
import type { ToolEvent } from "../../models/events.js";
import {
  BOTH,
  call,
  compaction,
  describeCall,
  enabled,
  failure,
  flagged,
  outcome,
  outputs,
  repeatCalls,
  textResult,
  verdicts,
} from "../helpers.js";

describe.each(BOTH)("events and verdicts (%s)", (history) => {
  it("E1 a stream of call, outcome and compaction events gets one output per event", () => {
    const events: ToolEvent[] = [call("read", { p: 1 }), outcome("read", { p: 1 }, textResult("x")), compaction()];
    expect(outputs(enabled(), events, history).map((o) => o.kind)).toEqual(["call", "outcome", "compaction"]);
  });
  it("E2 runIds are trimmed, empty is no run; tool names normalised with aliases", () => {
    const events = [...repeatCalls(5, " Bash ", { c: "ls" }, () => "x", { runId: " r1 " }), ...repeatCalls(5, "exec", { c: "ls" }, () => "x", { runId: "r1" })];
    const v = verdicts(enabled({ warningThreshold: 10 }), [...events, call("EXEC", { c: "ls" }, { runId: "r1" })], history);
    expect(describeCall(v[10])).toBe("warning generic_repeat 10");
    const noRun = [...repeatCalls(10, "read", {}, () => "x", { runId: "  " }), call("read", {})];
    expect(describeCall(verdicts(enabled(), noRun, history)[10])).toBe("warning generic_repeat 10");
    expect(outputs(enabled(), [call("apply-patch", {})], history)[0]).toMatchObject({ tool: "apply_patch" });
  });
  it("E3 a verdict carries detector, level, count, message and key; a blocked call is not recorded", () => {
    const events = [...repeatCalls(20, "read", { p: "a" }, () => "same"), call("read", { p: "a" }), call("read", { p: "a" })];
    const v = flagged(enabled(), events, history);
    const block = v.find((x) => x.verdict === "critical");
    expect(block).toMatchObject({ detector: "generic_repeat", count: 20, verdict: "critical" });
    expect(block?.message).toMatch(/^CRITICAL: .*read.*20 times.*identical outcomes/);
    // the 22nd is blocked with the same count: the 21st was not recorded
    expect(v.at(-1)).toMatchObject({ verdict: "critical", count: 20 });
  });
  it("E4 an input outcome of a blocked call is the veto and is not recorded", () => {
    const events = [...repeatCalls(20, "read", { p: "a" }, () => "same"), call("read", { p: "a" }, { callId: "x" }), outcome("read", { p: "a" }, textResult("different"), { callId: "x" }), call("read", { p: "a" })];
    const out = outputs(enabled(), events, history);
    expect(out[41]).toMatchObject({ kind: "outcome", recorded: false, vetoed: true });
    expect(out[42]).toMatchObject({ kind: "call", verdict: "critical", count: 20 });
  });
  it("E5 a guard abort ends its run; later events of that run are ignored, others go on", () => {
    const events: ToolEvent[] = [compaction("r1"), ...repeatCalls(3, "read", {}, () => "same", { runId: "r1" }), call("read", {}, { runId: "r1" }), call("read", {}, { runId: "r2" })];
    const out = outputs(configFrom({}), events, history);
    const kinds = out.map((o) => o.kind);
    expect(kinds).toEqual(["compaction", "call", "outcome", "call", "outcome", "call", "outcome", "abort", "ignored", "call"]);
  });
});

describe.each(BOTH)("history and recording (%s)", (history) => {
  it("R1 the window keeps the newest historySize records, shared by all runs", () => {
    const cfg = enabled({ historySize: 12, warningThreshold: 10, criticalThreshold: 11 });
    const mine = repeatCalls(10, "read", {}, () => "x", { runId: "a" });
    // 5 records of another run push 5 of run a out of the shared window
    const others = repeatCalls(5, "read", { other: 1 }, () => "x", { runId: "b" }).filter((e) => e.type === "outcome");
    const v = verdicts(cfg, [...mine, ...others, call("read", {}, { runId: "a" })], history);
    expect(describeCall(v.at(-1))).toBe("allow");
    expect(describeCall(verdicts(cfg, [...mine, call("read", {}, { runId: "a" })], history).at(-1))).toBe("warning generic_repeat 10");
  });
  it("R1 detection reads only the call's run", () => {
    const events = [...repeatCalls(15, "read", {}, () => "x", { runId: "a" }), call("read", {}, { runId: "b" })];
    expect(describeCall(verdicts(enabled({ historySize: 100 }), events, history).at(-1))).toBe("allow");
  });
  it("R2 a pending call counts toward repeats", () => {
    const events = [...Array.from({ length: 10 }, () => call("read", {})), call("read", {})];
    expect(describeCall(verdicts(enabled(), events, history).at(-1))).toBe("warning generic_repeat 10");
  });
  it("R2 calls are not recorded when enabled is false", () => {
    const events = [...repeatCalls(3, "read", {}, () => "x"), compaction(), ...repeatCalls(3, "read", {}, () => "x")];
    expect(outputs(configFrom({ enabled: false }), events, history).filter((o) => o.kind === "abort")).toEqual([]);
  });
  it("R3 an outcome fills the newest pending record of the same run, callId, tool and args", () => {
    const p = { q: 1 };
    const events: ToolEvent[] = [call("read", p, { callId: "1" }), call("read", p, { callId: "2" }), outcome("read", p, textResult("a"), { callId: "1" }), outcome("read", p, textResult("a"), { callId: "2" })];
    for (let i = 0; i < 19; i++) events.push(call("read", p), outcome("read", p, textResult("a")));
    // 21 records, all completed with "a" (none appended twice): the next call is blocked with count 21
    const cfg = enabled({ historySize: 50, criticalThreshold: 21, globalCircuitBreakerThreshold: 40 });
    expect(describeCall(verdicts(cfg, [...events, call("read", p)], history).at(-1))).toBe("critical generic_repeat 21");
  });
  it("R3 an outcome with no pending match is appended as completed; outcomes record whatever enabled is", () => {
    const orphan = Array.from({ length: 20 }, () => outcome("read", {}, textResult("same")));
    expect(describeCall(verdicts(enabled(), [...orphan, call("read", {})], history).at(-1))).toBe("critical generic_repeat 20");
    const out = outputs(configFrom({ enabled: false }), orphan, history);
    expect(out.every((o) => o.kind === "outcome" && o.recorded)).toBe(true);
  });
  it("R4 compaction does not touch the history", () => {
    const events = [...repeatCalls(20, "read", {}, () => "same"), compaction(), call("read", {})];
    expect(describeCall(verdicts(enabled(), events, history).at(-1))).toBe("critical generic_repeat 20");
  });
});

describe.each(BOTH)("counts (%s)", (history) => {
  it("S1 the no-progress streak skips other calls and pending ones; a different result stops it", () => {
    const a = (r: string) => [call("read", { f: "a" }), outcome("read", { f: "a" }, textResult(r))];
    const other = (i: number) => [call("ls", { i }), outcome("ls", { i }, textResult(String(i)))];
    const events: ToolEvent[] = [...a("old"), ...a("old")];
    for (let i = 0; i < 20; i++) events.push(...a("r"), ...other(i));
    events.push(call("read", { f: "a" })); // pending
    const cfg = enabled({ historySize: 200, warningThreshold: 19, criticalThreshold: 21, globalCircuitBreakerThreshold: 300 });
    const v = verdicts(cfg, [...events, call("read", { f: "a" })], history);
    // A(r) B A(r) C ... = 20 identical outcomes, interleaving does not reset; the pending one is skipped
    expect(describeCall(v.at(-1))).toBe("warning generic_repeat 23");
    const cfg20 = enabled({ historySize: 200, warningThreshold: 19, criticalThreshold: 20, globalCircuitBreakerThreshold: 300 });
    expect(describeCall(verdicts(cfg20, [...events, call("read", { f: "a" })], history).at(-1))).toBe("critical generic_repeat 20");
  });
  it("S2 the repeat count includes pending records, whatever the result", () => {
    const events = [...repeatCalls(9, "read", {}, (i) => String(i)), call("read", {}), call("read", {})];
    expect(describeCall(verdicts(enabled(), events, history).at(-1))).toBe("warning generic_repeat 10");
  });
  it("S3 the unknown-tool streak: consecutive misses of one name, args ignored; other records break it", () => {
    const miss = (i: number) => [call("browserx", { i }), failure("browserx", { i }, "Unknown tool: browserx")];
    const events: ToolEvent[] = [];
    for (let i = 0; i < 10; i++) events.push(...miss(i));
    expect(describeCall(verdicts(enabled(), [...events, call("browserx", { i: 99 })], history).at(-1))).toBe("critical unknown_tool_repeat 10");
    const broken = [...events.slice(0, 10), call("read", {}), outcome("read", {}, textResult("x")), ...events.slice(10)];
    expect(describeCall(verdicts(enabled(), [...broken, call("browserx", { i: 99 })], history).at(-1))).not.toMatch(/unknown/);
    const pending = [...events.slice(0, 10), call("browserx", { i: 50 }), ...events.slice(10), call("browserx", { i: 51 })];
    expect(describeCall(verdicts(enabled(), pending, history).at(-1))).not.toMatch(/unknown/);
  });
  it("S4 ping-pong counts the alternating tail plus the current call", () => {
    const events: ToolEvent[] = [];
    for (let i = 0; i < 9; i++) {
      const p = { side: i % 2 };
      events.push(call("read", p), outcome("read", p, textResult(`same ${i % 2}`)));
    }
    const v = verdicts(enabled(), [...events, call("read", { side: 1 })], history);
    expect(describeCall(v.at(-1))).toBe("warning ping_pong 10");
    expect(describeCall(verdicts(enabled(), [...events, call("read", { side: 0 })], history).at(-1))).toBe("allow");
  });
  it("S4 ping-pong evidence needs every tail record completed and each side uniform", () => {
    const build = (n: number, result: (i: number) => string): ToolEvent[] => {
      const events: ToolEvent[] = [];
      for (let i = 0; i < n; i++) {
        const p = { side: i % 2 };
        events.push(call("edit", p), outcome("edit", p, textResult(result(i))));
      }
      return events;
    };
    const cfg = enabled({ historySize: 50 });
    const stuck = [...build(19, (i) => `s${i % 2}`), call("edit", { side: 1 })];
    expect(describeCall(verdicts(cfg, stuck, history).at(-1))).toBe("critical ping_pong 20");
    const progress = [...build(19, (i) => `r${i}`), call("edit", { side: 1 })];
    expect(describeCall(verdicts(cfg, progress, history).at(-1))).toBe("warning ping_pong 20");
  });
});

describe.each(BOTH)("detection (%s)", (history) => {
  it("D1 known polls: command_status, process poll and log; a changing poll is never blocked", () => {
    const events: ToolEvent[] = [];
    for (let i = 0; i < 60; i++) {
      events.push(call("process", { action: "poll", sessionId: "s" }), outcome("process", { action: "poll", sessionId: "s" }, { details: { status: "running", aggregated: `line ${i}` } }));
    }
    expect(flagged(enabled(), events, history).filter((v) => v.verdict === "critical")).toEqual([]);
    const stuck = repeatCalls(20, "command_status", { id: 1 }, () => "running");
    const v = flagged(enabled(), [...stuck, call("command_status", { id: 1 })], history);
    expect(v[0]).toMatchObject({ detector: "known_poll_no_progress", verdict: "warning", count: 10 });
    expect(v.at(-1)).toMatchObject({ detector: "known_poll_no_progress", verdict: "critical", count: 20 });
  });
  it("D2 defaults: 10 prior identical calls warn with count 10; the 21st identical no-progress call is blocked with 20 and stays blocked", () => {
    const events = [...repeatCalls(20, "read", { p: 1 }, () => "same")];
    const v = verdicts(enabled(), [...events, call("read", { p: 1 }), call("read", { p: 1 }), call("read", { p: 1 })], history);
    expect(describeCall(v[9])).toBe("allow");
    expect(describeCall(v[10])).toBe("warning generic_repeat 10");
    expect(describeCall(v[19])).toBe("warning generic_repeat 19");
    expect(describeCall(v[20])).toBe("critical generic_repeat 20");
    expect(describeCall(v[21])).toBe("critical generic_repeat 20");
    expect(describeCall(v[22])).toBe("critical generic_repeat 20");
  });
  it("D2 the global breaker fires first whatever flag is off", () => {
    const cfg = enabled({ historySize: 60, detectors: { genericRepeat: false, knownPollNoProgress: false, pingPong: false } });
    const v = verdicts(cfg, [...repeatCalls(30, "read", {}, () => "same"), call("read", {})], history);
    expect(describeCall(v.at(-1))).toBe("critical global_circuit_breaker 30");
    expect(v.slice(0, 30).every((x) => x.verdict === "allow")).toBe(true);
  });
  it("D2 disabled detectors stay silent; polls never reach generic rows", () => {
    const cfg = enabled({ detectors: { knownPollNoProgress: false } });
    const v = flagged(cfg, [...repeatCalls(25, "command_status", {}, () => "same")], history);
    expect(v).toEqual([]);
  });
  it("D3 warning keys and message phrases", () => {
    const v = flagged(enabled(), [...repeatCalls(21, "read", { p: 1 }, () => "same")], history);
    expect(v[0]?.warningKey).toMatch(/^generic:read:read:[0-9a-f]{32}$/);
    expect(v.at(-1)?.warningKey).toMatch(/^generic:read:read:[0-9a-f]{32}:[0-9a-f]{32}$/);
    expect(v[0]?.message).toMatch(/^WARNING: read .*10 times/);
    const pp: ToolEvent[] = [];
    for (let i = 0; i < 10; i++) pp.push(call("t", { s: i % 2 }), outcome("t", { s: i % 2 }, textResult("x")));
    const ping = flagged(enabled(), pp, history).find((x) => x.detector === "ping_pong");
    expect(ping?.warningKey).toMatch(/^pingpong:t:[0-9a-f]{32}\|t:[0-9a-f]{32}$/);
    expect(ping?.message).toMatch(/ping-pong loop/);
  });
});

describe.each(BOTH)("warning policy (%s)", (history) => {
  it("W1 a warning is emitted when its bucket passes the last emitted; repeats are suppressed", () => {
    const cfg = enabled({ historySize: 100, warningThreshold: 5, criticalThreshold: 50, globalCircuitBreakerThreshold: 60 });
    const v = flagged(cfg, repeatCalls(21, "read", {}, (i) => String(i)), history);
    expect(v.filter((x) => x.emitted).map((x) => x.count)).toEqual([5, 10, 15, 20]);
  });
  it("W1 the seed's safe-runner override (warning 8) emits at 8, not at 10 (K5)", () => {
    const cfg = enabled({ warningThreshold: 8, criticalThreshold: 16 });
    const v = flagged(cfg, repeatCalls(9, "read", {}, (i) => String(i)), history);
    expect(v[0]).toMatchObject({ count: 8, emitted: true });
  });
  it("W1 keys are per run; at most 256 keys are remembered", () => {
    const cfg = enabled({ historySize: 5000, warningThreshold: 1, criticalThreshold: 2000, globalCircuitBreakerThreshold: 3000 });
    const events: ToolEvent[] = [];
    for (let k = 0; k < 257; k++) events.push(call("read", { k }), call("read", { k }));
    events.push(call("read", { k: 0 })); // key 0 was dropped (oldest inserted): emitted again at bucket 2
    const v = flagged(cfg, events, history);
    expect(v.at(-1)).toMatchObject({ count: 2, emitted: true });
    const fresh = flagged(cfg, [call("read", { k: 0 }, { runId: "a" }), call("read", { k: 0 }, { runId: "a" }), call("read", { k: 0 }, { runId: "b" }), call("read", { k: 0 }, { runId: "b" })], history);
    expect(fresh.map((x) => x.emitted)).toEqual([true, true]);
  });
  it("W2 criticals are never suppressed", () => {
    const v = flagged(enabled(), [...repeatCalls(20, "read", {}, () => "s"), call("read", {}), call("read", {}), call("read", {})], history);
    expect(v.filter((x) => x.verdict === "critical").map((x) => x.emitted)).toEqual([true, true, true]);
  });
});

describe.each(BOTH)("post-compaction guard (%s)", (history) => {
  const same = (n: number, runId?: string) => repeatCalls(n, "read", { f: 1 }, () => "same", runId === undefined ? {} : { runId });
  it("G1 a compaction arms the guard unless enabled is false; re-arming starts over", () => {
    const rearm = [compaction(), ...same(2), compaction(), ...same(2)];
    expect(outputs(configFrom({}), rearm, history).filter((o) => o.kind === "abort")).toEqual([]);
    expect(outputs(configFrom({}), [...rearm, ...same(1)], history).filter((o) => o.kind === "abort")).toHaveLength(1);
    expect(outputs(configFrom({ enabled: false }), [compaction()], history)[0]).toMatchObject({ armed: false });
  });
  it("G2 errors count as observations; loop vetoes do not", () => {
    const errs = [compaction(), ...Array.from({ length: 3 }, () => [call("read", {}), failure("read", {}, "EACCES")]).flat()];
    expect(outputs(configFrom({}), errs, history).filter((o) => o.kind === "abort")).toHaveLength(1);
  });
  it("G3 with defaults and enabled unset the guard aborts on the 3rd identical triple after a compaction", () => {
    const out = outputs(configFrom({}), [compaction(), ...same(3)], history);
    const abort = out.find((o) => o.kind === "abort");
    expect(abort).toMatchObject({ index: 6, error: "compaction_loop_persisted", tool: "read", count: 3 });
  });
  it("G3 any change of result inside the window means no abort", () => {
    const events = [compaction(), ...repeatCalls(3, "read", { f: 1 }, (i) => (i === 1 ? "other" : "same"))];
    expect(outputs(configFrom({}), events, history).filter((o) => o.kind === "abort")).toEqual([]);
  });
  it("G4 the abort names the tool, the count and says compaction did not break the loop", () => {
    const abort = outputs(configFrom({ postCompactionGuard: { windowSize: 5 } }), [compaction(), ...same(5)], history).find((o) => o.kind === "abort");
    expect(abort).toMatchObject({ tool: "read", count: 5 });
    expect(abort?.kind === "abort" && abort.message).toMatch(/^CRITICAL: compaction did not break the loop/);
  });
  it("G5 after windowSize observations the guard disarms; with no compaction it never aborts", () => {
    const events = [compaction(), ...repeatCalls(3, "read", { f: 1 }, (i) => String(i)), ...same(10)];
    expect(outputs(configFrom({}), events, history).filter((o) => o.kind === "abort")).toEqual([]);
    expect(outputs(configFrom({}), same(50), history).filter((o) => o.kind === "abort")).toEqual([]);
  });
  it("G one guard per run", () => {
    const events = [compaction("a"), ...same(3, "b"), ...same(2, "a")];
    expect(outputs(configFrom({}), events, history).filter((o) => o.kind === "abort")).toEqual([]);
  });
});
