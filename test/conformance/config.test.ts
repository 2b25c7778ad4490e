// SPEC C1-C5: defaults, strict validation, runtime repair, per-agent merge, three-valued enabled.
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, enabledMode } from "../../models/config.js";
import { resolveBlock, resolveEffectiveConfig } from "../../models/configResolution.js";
import { validateLoopDetectionBlock, validateOpenClawConfig } from "../../models/configValidation.js";
import { runEngine } from "../../models/engine.js";
import { configFrom } from "../../models/configResolution.js";
import { BOTH, compaction, repeatCalls, flagged } from "../helpers.js";

describe("C1 defaults", () => {
  it("C1 every field has the documented default", () => {
    expect(DEFAULT_CONFIG).toEqual({
      enabled: undefined,
      historySize: 30,
      warningThreshold: 10,
      criticalThreshold: 20,
      unknownToolThreshold: 10,
      globalCircuitBreakerThreshold: 30,
      detectors: { genericRepeat: true, knownPollNoProgress: true, pingPong: true },
      postCompactionGuard: { windowSize: 3 },
    });
    expect(resolveBlock({}).config).toEqual(DEFAULT_CONFIG);
  });
});

describe("C2 validation", () => {
  const at = "tools.loopDetection";
  it.each([0, -1, 2.5, Number.NaN, Number.POSITIVE_INFINITY, "10", null])("C2 rejects %s as a threshold", (bad) => {
    const issues = validateLoopDetectionBlock({ warningThreshold: bad }, at);
    expect(issues).toHaveLength(1);
    expect(issues[0]?.path).toBe(`${at}.warningThreshold`);
    expect(issues[0]?.rule).toMatch(/positive integer/);
  });
  it("C2 unknown keys are errors in every block", () => {
    const issues = validateLoopDetectionBlock({ foo: 1, detectors: { bar: true }, postCompactionGuard: { baz: 2 } }, at);
    expect(issues.map((i) => i.path).sort()).toEqual([`${at}.detectors.bar`, `${at}.foo`, `${at}.postCompactionGuard.baz`]);
  });
  it("C2 flags must be booleans", () => {
    const issues = validateLoopDetectionBlock({ enabled: "yes", detectors: { pingPong: 1 } }, at);
    expect(issues.map((i) => i.path)).toEqual([`${at}.enabled`, `${at}.detectors.pingPong`]);
  });
  it("C2 ordering is checked where both values are set, at the larger value's path", () => {
    expect(validateLoopDetectionBlock({ warningThreshold: 20, criticalThreshold: 20 }, at).map((i) => i.path)).toEqual([`${at}.criticalThreshold`]);
    expect(validateLoopDetectionBlock({ criticalThreshold: 30, globalCircuitBreakerThreshold: 30 }, at).map((i) => i.path)).toEqual([
      `${at}.globalCircuitBreakerThreshold`,
    ]);
    expect(validateLoopDetectionBlock({ warningThreshold: 25 }, at)).toEqual([]); // only one side set
  });
  it("C2 reports every error at once with full paths and the bad value", () => {
    const root = {
      tools: { loopDetection: { historySize: 0, unknownToolThreshold: 2.5 } },
      agents: { list: [{ id: "a" }, { id: "b" }, { id: "c", tools: { loopDetection: { warningThreshold: "10", extra: true } } }] },
    };
    const issues = validateOpenClawConfig(root);
    expect(issues.map((i) => i.path)).toEqual([
      "tools.loopDetection.historySize",
      "tools.loopDetection.unknownToolThreshold",
      "agents.list[2].tools.loopDetection.extra",
      "agents.list[2].tools.loopDetection.warningThreshold",
    ]);
    expect(issues[3]?.value).toBe('"10"');
  });
});

describe("C3 runtime resolution", () => {
  it("C3 a value that is not a positive integer falls back to its default, with a note", () => {
    const { config, repairs } = resolveBlock({ historySize: -5, warningThreshold: "7" });
    expect(config.historySize).toBe(30);
    expect(config.warningThreshold).toBe(10);
    expect(repairs.map((r) => r.field)).toEqual(["historySize", "warningThreshold"]);
  });
  it("C3 critical <= warning becomes warning + 1, then global <= critical becomes critical + 1", () => {
    const { config, repairs } = resolveBlock({ warningThreshold: 40 });
    expect(config.criticalThreshold).toBe(41);
    expect(config.globalCircuitBreakerThreshold).toBe(42);
    expect(repairs.map((r) => r.field)).toEqual(["criticalThreshold", "globalCircuitBreakerThreshold"]);
  });
  it("C3 unknownToolThreshold is not ordered", () => {
    const { config, repairs } = resolveBlock({ unknownToolThreshold: 500 });
    expect(config.unknownToolThreshold).toBe(500);
    expect(repairs).toEqual([]);
  });
});

describe("C4 per-agent override", () => {
  const root = {
    tools: { loopDetection: { enabled: true, criticalThreshold: 24, detectors: { pingPong: false }, postCompactionGuard: { windowSize: 4 } } },
    agents: { list: [{ id: "safe-runner", tools: { loopDetection: { warningThreshold: 8, detectors: { genericRepeat: false } } } }, { id: "big", tools: { loopDetection: { warningThreshold: 30 } } }] },
  };
  it("C4 the agent block is laid over the global one key by key, nested blocks too", () => {
    const { config, sources } = resolveEffectiveConfig(root, "safe-runner");
    expect(config.warningThreshold).toBe(8);
    expect(config.criticalThreshold).toBe(24);
    expect(config.detectors).toEqual({ genericRepeat: false, knownPollNoProgress: true, pingPong: false });
    expect(config.postCompactionGuard.windowSize).toBe(4);
    expect(sources.warningThreshold).toBe("agent");
    expect(sources.criticalThreshold).toBe("global");
  });
  it("C4 each block validates alone; the merge can break the ordering and C3 repairs it", () => {
    expect(validateOpenClawConfig(root)).toEqual([]);
    const { config, repairs } = resolveEffectiveConfig(root, "big");
    expect(config.criticalThreshold).toBe(31);
    expect(config.globalCircuitBreakerThreshold).toBe(32);
    expect(repairs.map((r) => r.field)).toEqual(["criticalThreshold", "globalCircuitBreakerThreshold"]);
  });
});

describe.each(BOTH)("C5 three-valued enabled (%s)", (history) => {
  const loop = [...repeatCalls(25, "read", { path: "a" }, () => "same"), compaction(), ...repeatCalls(3, "read", { path: "a" }, () => "same")];
  it("C5 the table of modes", () => {
    expect(enabledMode(undefined)).toEqual({ rollingDetectors: false, guard: true, recordCalls: true });
    expect(enabledMode(true)).toEqual({ rollingDetectors: true, guard: true, recordCalls: true });
    expect(enabledMode(false)).toEqual({ rollingDetectors: false, guard: false, recordCalls: false });
  });
  it("C5 unset: detectors silent, guard still aborts", () => {
    const out = runEngine(configFrom({}), loop, { history });
    expect(flagged(configFrom({}), loop, history)).toEqual([]);
    expect(out.filter((o) => o.kind === "abort")).toHaveLength(1);
  });
  it("C5 false: no verdicts, no abort", () => {
    const out = runEngine(configFrom({ enabled: false }), loop, { history });
    expect(out.filter((o) => (o.kind === "call" && o.verdict !== "allow") || o.kind === "abort")).toEqual([]);
  });
  it("C5 true: detectors and guard both on", () => {
    const cfg = configFrom({ enabled: true });
    expect(flagged(cfg, loop, history).length).toBeGreaterThan(0);
  });
});
