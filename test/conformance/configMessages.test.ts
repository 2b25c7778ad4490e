// SPEC C2 and C4: the exact words of every validation problem. A user fixes a config from these
// lines alone, so the path, the rule and the bad value as shown are the contract, not a detail;
// the looser checks in config.test.ts would let a wrong path or a lost value through.
import { describe, expect, it } from "vitest";
import { describeValue, formatIssue, validateLoopDetectionBlock, validateOpenClawConfig } from "../../models/configValidation.js";

const ALLOWED_TOP = "enabled, historySize, warningThreshold, criticalThreshold, unknownToolThreshold, globalCircuitBreakerThreshold, detectors, postCompactionGuard";
const block = (value: unknown): string[] => validateLoopDetectionBlock(value, "t.l").map(formatIssue);
const root = (value: unknown): string[] => validateOpenClawConfig(value).map(formatIssue);

describe("C2 how a bad value is shown", () => {
  it("C2 values that JSON cannot show keep a readable form", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(describeValue(undefined)).toBe("undefined");
    expect(describeValue(Number.NaN)).toBe("NaN");
    expect(describeValue(12n)).toBe("12n");
    expect(describeValue(3)).toBe("3");
    expect(describeValue(null)).toBe("null");
    expect(describeValue([1])).toBe("[1]");
    expect(describeValue(() => 1)).toBe("() => 1");
    expect(describeValue(Symbol("s"))).toBe("Symbol(s)");
    expect(describeValue(cyclic)).toBe("[object Object]");
  });
  it("C2 a value is shown whole up to 80 characters, then cut to 77 and an ellipsis", () => {
    const eighty = `"${"x".repeat(78)}"`;
    expect(describeValue("x".repeat(78))).toBe(eighty);
    expect(describeValue("x".repeat(79))).toBe(`"${"x".repeat(76)}...`);
  });
});

describe("C2 every problem of a block, in order, in full", () => {
  it("C2 a block that is not an object is one problem", () => {
    expect(block([1])).toEqual(["t.l: must be an object (got [1])"]);
    expect(block(null)).toEqual(["t.l: must be an object (got null)"]);
  });
  it("C2 unknown keys, flags and every count rule", () => {
    expect(
      block({ enabled: 1, historySize: 0, warningThreshold: 2 ** 53, criticalThreshold: 1.5, unknownToolThreshold: "3", globalCircuitBreakerThreshold: -1, zz: 1 }),
    ).toEqual([
      `t.l.zz: unknown key (allowed: ${ALLOWED_TOP}) (got 1)`,
      "t.l.enabled: must be a boolean (got 1)",
      "t.l.historySize: must be a positive integer (got 0)",
      "t.l.warningThreshold: must be at most 9007199254740991 (2^53 - 1): larger integers lose precision (got 9007199254740992)",
      "t.l.criticalThreshold: must be a positive integer (got 1.5)",
      't.l.unknownToolThreshold: must be a positive integer (got "3")',
      "t.l.globalCircuitBreakerThreshold: must be a positive integer (got -1)",
    ]);
    expect(block({ enabled: true, enabled2: false })).toEqual([`t.l.enabled2: unknown key (allowed: ${ALLOWED_TOP}) (got false)`]);
    expect(block({ enabled: false, historySize: 2 ** 53 - 1 })).toEqual([]);
  });
  it("C2 ordering: equal values break it, both rules at once, each at the larger value's path", () => {
    expect(block({ warningThreshold: 5, criticalThreshold: 5, globalCircuitBreakerThreshold: 5 })).toEqual([
      "t.l.criticalThreshold: must be greater than warningThreshold (5) (got 5)",
      "t.l.globalCircuitBreakerThreshold: must be greater than criticalThreshold (5) (got 5)",
    ]);
    expect(block({ warningThreshold: 6, criticalThreshold: 5 })).toEqual(["t.l.criticalThreshold: must be greater than warningThreshold (6) (got 5)"]);
    expect(block({ warningThreshold: 4, criticalThreshold: 5, globalCircuitBreakerThreshold: 6 })).toEqual([]);
    // An ordering is judged only between valid counts: the broken count is reported once, alone.
    expect(block({ warningThreshold: 0, criticalThreshold: 5 })).toEqual(["t.l.warningThreshold: must be a positive integer (got 0)"]);
    expect(block({ criticalThreshold: 9, globalCircuitBreakerThreshold: "x" })).toEqual(['t.l.globalCircuitBreakerThreshold: must be a positive integer (got "x")']);
  });
  it("C2 detectors: an object of booleans with known names", () => {
    expect(block({ detectors: 3 })).toEqual(["t.l.detectors: must be an object (got 3)"]);
    expect(block({ detectors: { genericRepeat: 1, knownPollNoProgress: "no", pingPong: null, other: true } })).toEqual([
      "t.l.detectors.other: unknown key (allowed: genericRepeat, knownPollNoProgress, pingPong) (got true)",
      "t.l.detectors.genericRepeat: must be a boolean (got 1)",
      't.l.detectors.knownPollNoProgress: must be a boolean (got "no")',
      "t.l.detectors.pingPong: must be a boolean (got null)",
    ]);
    expect(block({ detectors: { genericRepeat: false, knownPollNoProgress: true, pingPong: false } })).toEqual([]);
  });
  it("C2 postCompactionGuard: an object whose only key is a valid windowSize", () => {
    expect(block({ postCompactionGuard: [] })).toEqual(["t.l.postCompactionGuard: must be an object (got [])"]);
    expect(block({ postCompactionGuard: { windowSize: 0, x: 1 } })).toEqual([
      "t.l.postCompactionGuard.x: unknown key (allowed: windowSize) (got 1)",
      "t.l.postCompactionGuard.windowSize: must be a positive integer (got 0)",
    ]);
    expect(block({ postCompactionGuard: { windowSize: 2 ** 53 } })).toEqual([
      "t.l.postCompactionGuard.windowSize: must be at most 9007199254740991 (2^53 - 1): larger integers lose precision (got 9007199254740992)",
    ]);
    expect(block({ postCompactionGuard: {} })).toEqual([]);
    expect(block({ postCompactionGuard: { windowSize: 4 } })).toEqual([]);
  });
});

describe("C4 every block of an OpenClaw config file", () => {
  it("C4 the root and tools must be objects; absent parts are fine", () => {
    expect(root("x")).toEqual(['(root): must be an object (got "x")']);
    expect(root({ tools: 1 })).toEqual(["tools: must be an object (got 1)"]);
    expect(root({ tools: {} })).toEqual([]);
    expect(root({ tools: { loopDetection: { enabled: 2 } } })).toEqual(["tools.loopDetection.enabled: must be a boolean (got 2)"]);
    expect(root({ other: { loopDetection: { enabled: 2 } } })).toEqual([]);
  });
  it("C4 agents: an object whose list is an array", () => {
    expect(root({ agents: 1 })).toEqual(["agents: must be an object (got 1)"]);
    expect(root({ agents: {} })).toEqual([]);
    expect(root({ agents: { list: {} } })).toEqual(["agents.list: must be an array (got {})"]);
  });
  it("C4 each agent: an object with a unique, non-blank id, and its own block validated at its path", () => {
    const list = [
      1,
      { id: "" },
      { id: " " },
      { id: 3 },
      {},
      { id: "a" },
      { id: "a" },
      { id: "b", tools: 2 },
      { id: "c", tools: {} },
      { id: "d", tools: { loopDetection: { historySize: 0 } } },
      { id: "e", tools: { other: 1 } },
    ];
    expect(root({ agents: { list } })).toEqual([
      "agents.list[0]: must be an object (got 1)",
      'agents.list[1].id: must be a non-empty string (got "")',
      'agents.list[2].id: must be a non-empty string (got " ")',
      "agents.list[3].id: must be a non-empty string (got 3)",
      "agents.list[4].id: must be a non-empty string (got undefined)",
      'agents.list[6].id: duplicate agent id (got "a")',
      "agents.list[7].tools: must be an object (got 2)",
      "agents.list[9].tools.loopDetection.historySize: must be a positive integer (got 0)",
    ]);
  });
  it("C4 the global block and an agent's block are both reported, global first", () => {
    expect(root({ agents: { list: [{ id: "x", tools: { loopDetection: { pingPong: true } } }] }, tools: { loopDetection: { historySize: -2 } } })).toEqual([
      "tools.loopDetection.historySize: must be a positive integer (got -2)",
      `agents.list[0].tools.loopDetection.pingPong: unknown key (allowed: ${ALLOWED_TOP}) (got true)`,
    ]);
  });
});
