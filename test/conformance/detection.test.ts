// SPEC D1-D3 at the boundary of every threshold: the exact finding (level, detector, count, key,
// message) each row of the D2 table gives, which row wins when several match, and what each
// detector switch takes away. The engine tests reach these rows through traces; here each row is
// pinned alone, so a threshold off by one or two rows swapped fail by name.
import { describe, expect, it } from "vitest";
import { configFrom } from "../../models/configResolution.js";
import { detect, isKnownPoll } from "../../models/detection.js";
import { NO_COUNTS, type CallCounts } from "../../models/history/types.js";

const config = configFrom({ warningThreshold: 3, criticalThreshold: 5, globalCircuitBreakerThreshold: 7, unknownToolThreshold: 4 });
const counts = (over: Partial<CallCounts>): CallCounts => ({ ...NO_COUNTS, ...over });
const BLOCKED = "This call is blocked.";
const CHANGE = "Change approach before it is blocked.";

describe("D1 known polls", () => {
  it.each([
    ["command_status", undefined, true],
    ["command_status", { action: "write" }, true],
    ["process", { action: "poll" }, true],
    ["process", { action: "log" }, true],
    ["process", { action: "write" }, false],
    ["process", { action: "kill" }, false],
    ["process", { action: "list" }, false],
    ["process", { action: "submit" }, false],
    ["process", {}, false],
    ["process", "poll", false],
    ["process", ["poll"], false],
    ["process", null, false],
    ["exec", { action: "poll" }, false],
    ["Process", { action: "poll" }, false],
  ])("D1 %s %j is a known poll: %s", (tool, params, poll) => {
    expect(isKnownPoll(tool, params)).toBe(poll);
  });
});

describe("D2 each row, exactly at its threshold and one below", () => {
  it("D2 unknown tool: critical at unknownToolThreshold, keyed by tool and the missing name", () => {
    expect(detect(config, "t", "t:h", false, counts({ unknownStreak: 4, unknownName: "zz" }))).toEqual({
      level: "critical",
      detector: "unknown_tool_repeat",
      count: 4,
      warningKey: "unknown-tool:t:zz",
      message: `CRITICAL: t was called 4 times in a row as an unavailable tool. Use a tool that exists. ${BLOCKED}`,
    });
    expect(detect(config, "t", "t:h", false, counts({ unknownStreak: 4 }))?.warningKey).toBe("unknown-tool:t:");
    expect(detect(config, "t", "t:h", false, counts({ unknownStreak: 3, unknownName: "zz" }))).toBeUndefined();
  });
  it("D2 global breaker: critical at globalCircuitBreakerThreshold, keyed by tool, args and result", () => {
    expect(detect(config, "t", "t:h", false, counts({ noProgress: 7, noProgressResult: "r" }))).toEqual({
      level: "critical",
      detector: "global_circuit_breaker",
      count: 7,
      warningKey: "global:t:t:h:r",
      message: `CRITICAL: t returned identical outcomes 7 times with no progress; the global circuit breaker tripped. ${BLOCKED}`,
    });
  });
  it("D2 known poll: warning from warningThreshold, critical from criticalThreshold", () => {
    expect(detect(config, "p", "p:h", true, counts({ noProgress: 5, noProgressResult: "r" }))).toEqual({
      level: "critical",
      detector: "known_poll_no_progress",
      count: 5,
      warningKey: "poll:p:p:h:r",
      message: `CRITICAL: polling loop: p was polled 5 times with no change in its result. ${BLOCKED}`,
    });
    expect(detect(config, "p", "p:h", true, counts({ noProgress: 4, noProgressResult: "r" }))?.level).toBe("warning");
    expect(detect(config, "p", "p:h", true, counts({ noProgress: 3 }))).toEqual({
      level: "warning",
      detector: "known_poll_no_progress",
      count: 3,
      warningKey: "poll:p:p:h:",
      message: `WARNING: polling loop: p was polled 3 times with no change in its result. ${CHANGE}`,
    });
    expect(detect(config, "p", "p:h", true, counts({ noProgress: 2, repeat: 9 }))).toBeUndefined(); // a poll is never a generic repeat
  });
  it("D2 ping-pong: warning from warningThreshold, critical only with evidence, keyed by the sorted pair", () => {
    expect(detect(config, "a", "a:h", false, counts({ pingPong: 5, pingPongEvidence: true, pingPongPartner: "b:h" }))).toEqual({
      level: "critical",
      detector: "ping_pong",
      count: 5,
      warningKey: "pingpong:a:h|b:h",
      message: `CRITICAL: ping-pong loop: a alternated with another call 5 times without progress. ${BLOCKED}`,
    });
    expect(detect(config, "b", "b:h", false, counts({ pingPong: 5, pingPongEvidence: false, pingPongPartner: "a:h" }))?.level).toBe("warning");
    expect(detect(config, "b", "b:h", false, counts({ pingPong: 4, pingPongEvidence: true, pingPongPartner: "a:h" }))?.level).toBe("warning");
    expect(detect(config, "b", "b:h", false, counts({ pingPong: 3, pingPongPartner: "a:h" }))).toEqual({
      level: "warning",
      detector: "ping_pong",
      count: 3,
      warningKey: "pingpong:a:h|b:h",
      message: `WARNING: ping-pong loop: b alternated with another call 3 times without progress. ${CHANGE}`,
    });
    expect(detect(config, "b", "b:h", false, counts({ pingPong: 3 }))?.warningKey).toBe("pingpong:|b:h");
    expect(detect(config, "b", "b:h", false, counts({ pingPong: 2, pingPongPartner: "a:h" }))).toBeUndefined();
  });
  it("D2 generic repeat: a warning counts records, the critical counts identical outcomes", () => {
    expect(detect(config, "g", "g:h", false, counts({ noProgress: 5, repeat: 5, noProgressResult: "r" }))).toEqual({
      level: "critical",
      detector: "generic_repeat",
      count: 5,
      warningKey: "generic:g:g:h:r",
      message: `CRITICAL: g was called 5 times with the same arguments and identical outcomes. ${BLOCKED}`,
    });
    expect(detect(config, "g", "g:h", false, counts({ noProgress: 4, repeat: 9 }))).toEqual({
      level: "warning",
      detector: "generic_repeat",
      count: 9,
      warningKey: "generic:g:g:h",
      message: `WARNING: g was called 9 times with the same arguments; repeating it risks identical outcomes. ${CHANGE}`,
    });
    expect(detect(config, "g", "g:h", false, counts({ repeat: 3 }))?.count).toBe(3);
    expect(detect(config, "g", "g:h", false, counts({ repeat: 2, noProgress: 2 }))).toBeUndefined();
  });
});

describe("D2 the first matching row wins", () => {
  const everything = counts({ unknownStreak: 4, unknownName: "u", noProgress: 7, noProgressResult: "r", repeat: 9, pingPong: 9, pingPongEvidence: true, pingPongPartner: "b:h" });
  it("D2 unknown tool, then the global breaker, then a poll, then ping-pong, then generic repeat", () => {
    expect(detect(config, "a", "a:h", true, everything)?.detector).toBe("unknown_tool_repeat");
    expect(detect(config, "a", "a:h", true, { ...everything, unknownStreak: 3 })?.detector).toBe("global_circuit_breaker");
    expect(detect(config, "a", "a:h", true, { ...everything, unknownStreak: 0, noProgress: 6 })?.detector).toBe("known_poll_no_progress");
    expect(detect(config, "a", "a:h", false, { ...everything, unknownStreak: 0, noProgress: 6 })?.detector).toBe("ping_pong");
    expect(detect(config, "a", "a:h", false, { ...everything, unknownStreak: 0, noProgress: 6, pingPong: 2 })?.detector).toBe("generic_repeat");
  });
  it("D3 a detector switched off gives way to the next row; unknown tool and the global breaker have no switch", () => {
    const off = (field: string) => configFrom({ warningThreshold: 3, criticalThreshold: 5, globalCircuitBreakerThreshold: 7, unknownToolThreshold: 4, detectors: { [field]: false } });
    const allOff = configFrom({ warningThreshold: 3, criticalThreshold: 5, globalCircuitBreakerThreshold: 7, unknownToolThreshold: 4, detectors: { genericRepeat: false, knownPollNoProgress: false, pingPong: false } });
    const busy = { ...everything, unknownStreak: 0, noProgress: 6 };
    expect(detect(off("knownPollNoProgress"), "a", "a:h", true, busy)?.detector).toBe("ping_pong");
    expect(detect(off("pingPong"), "a", "a:h", false, busy)?.detector).toBe("generic_repeat");
    expect(detect(off("pingPong"), "a", "a:h", true, busy)?.detector).toBe("known_poll_no_progress");
    expect(detect(off("genericRepeat"), "a", "a:h", false, { ...busy, pingPong: 0 })).toBeUndefined();
    expect(detect(allOff, "a", "a:h", false, busy)).toBeUndefined();
    expect(detect(allOff, "a", "a:h", true, everything)?.detector).toBe("unknown_tool_repeat");
    expect(detect(allOff, "a", "a:h", true, { ...everything, unknownStreak: 0 })?.detector).toBe("global_circuit_breaker");
  });
});
