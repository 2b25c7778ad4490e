// SPEC C3 and C4, in full: which value each field takes, every repair with its from, to and reason,
// and where each effective value came from. `loopsim config` prints exactly these, so a repair
// reported at the wrong field, or a source credited to the wrong block, is a wrong answer.
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../models/config.js";
import { findAgentBlock, listAgentIds, mergeBlocks, resolveBlock, resolveEffectiveConfig } from "../../models/configResolution.js";

const DEFAULT_USED = "not a positive integer; default used";

describe("C3 every unusable value falls back, with a repair that says so", () => {
  it("C3 counts, the switch, the detector flags and the window, each repaired alone", () => {
    const { config, repairs } = resolveBlock({
      historySize: 0,
      warningThreshold: "5",
      criticalThreshold: 1.5,
      unknownToolThreshold: -3,
      globalCircuitBreakerThreshold: null,
      enabled: "yes",
      detectors: { genericRepeat: 1, pingPong: false },
      postCompactionGuard: { windowSize: 0 },
    });
    expect(config).toEqual({ ...DEFAULT_CONFIG, detectors: { genericRepeat: true, knownPollNoProgress: true, pingPong: false } });
    expect(config.enabled).toBeUndefined();
    expect(repairs).toEqual([
      { field: "historySize", from: "0", to: "30", reason: DEFAULT_USED },
      { field: "warningThreshold", from: '"5"', to: "10", reason: DEFAULT_USED },
      { field: "criticalThreshold", from: "1.5", to: "20", reason: DEFAULT_USED },
      { field: "unknownToolThreshold", from: "-3", to: "10", reason: DEFAULT_USED },
      { field: "globalCircuitBreakerThreshold", from: "null", to: "30", reason: DEFAULT_USED },
      { field: "enabled", from: '"yes"', to: "unset", reason: "not a boolean; treated as unset" },
      { field: "detectors.genericRepeat", from: "1", to: "true", reason: "not a boolean; default used" },
      { field: "postCompactionGuard.windowSize", from: "0", to: "3", reason: DEFAULT_USED },
    ]);
  });
  it("C3 equal thresholds are repaired upward in order, each repair quoting the value it had to exceed", () => {
    const { config, repairs } = resolveBlock({ warningThreshold: 20, criticalThreshold: 20, globalCircuitBreakerThreshold: 21 });
    expect([config.warningThreshold, config.criticalThreshold, config.globalCircuitBreakerThreshold]).toEqual([20, 21, 22]);
    expect(repairs).toEqual([
      { field: "criticalThreshold", from: "20", to: "21", reason: "must exceed warningThreshold (20); set to warningThreshold + 1" },
      { field: "globalCircuitBreakerThreshold", from: "21", to: "22", reason: "must exceed criticalThreshold (21); set to criticalThreshold + 1" },
    ]);
  });
  it("C3 a warning above the default critical pushes the defaults up too", () => {
    const { config, repairs } = resolveBlock({ warningThreshold: 40 });
    expect([config.warningThreshold, config.criticalThreshold, config.globalCircuitBreakerThreshold]).toEqual([40, 41, 42]);
    expect(repairs.map((r) => [r.field, r.from, r.to])).toEqual([
      ["criticalThreshold", "20", "41"],
      ["globalCircuitBreakerThreshold", "30", "42"],
    ]);
  });
  it("C3 a threshold one above the next is kept; valid values are taken as given, with no repair", () => {
    const { config, repairs } = resolveBlock({ enabled: false, historySize: 5, warningThreshold: 2, criticalThreshold: 3, globalCircuitBreakerThreshold: 4, unknownToolThreshold: 1, postCompactionGuard: { windowSize: 7 }, detectors: { knownPollNoProgress: false } });
    expect(config).toEqual({
      enabled: false,
      historySize: 5,
      warningThreshold: 2,
      criticalThreshold: 3,
      unknownToolThreshold: 1,
      globalCircuitBreakerThreshold: 4,
      detectors: { genericRepeat: true, knownPollNoProgress: false, pingPong: true },
      postCompactionGuard: { windowSize: 7 },
    });
    expect(repairs).toEqual([]);
    expect(resolveBlock({ enabled: true }).config.enabled).toBe(true);
  });
  it("C3 a block or nested block that is not an object counts as empty", () => {
    expect(resolveBlock("x")).toEqual({ config: DEFAULT_CONFIG, repairs: [] });
    expect(resolveBlock({ detectors: 5, postCompactionGuard: [] })).toEqual({ config: DEFAULT_CONFIG, repairs: [] });
  });
});

describe("C4 the agent's block over the global one, and where each value came from", () => {
  const root = {
    tools: { loopDetection: { warningThreshold: 5, detectors: { pingPong: false } } },
    agents: {
      list: [
        1,
        { id: 2 },
        { id: "a", tools: { loopDetection: { criticalThreshold: 8, enabled: true, detectors: { genericRepeat: false }, postCompactionGuard: { windowSize: 4 } } } },
        { id: "b" },
        { id: "a", tools: { loopDetection: { historySize: 99 } } },
      ],
    },
  };
  const globalOnly = {
    enabled: "default",
    historySize: "default",
    warningThreshold: "global",
    criticalThreshold: "default",
    unknownToolThreshold: "default",
    globalCircuitBreakerThreshold: "default",
    "detectors.genericRepeat": "default",
    "detectors.knownPollNoProgress": "default",
    "detectors.pingPong": "global",
    "postCompactionGuard.windowSize": "default",
  };
  it("C4 an agent's values win key by key; the first agent with the id is the one used", () => {
    const { config, repairs, sources } = resolveEffectiveConfig(root, "a");
    expect(config).toEqual({
      enabled: true,
      historySize: 30,
      warningThreshold: 5,
      criticalThreshold: 8,
      unknownToolThreshold: 10,
      globalCircuitBreakerThreshold: 30,
      detectors: { genericRepeat: false, knownPollNoProgress: true, pingPong: false },
      postCompactionGuard: { windowSize: 4 },
    });
    expect(repairs).toEqual([]);
    expect(sources).toEqual({ ...globalOnly, enabled: "agent", criticalThreshold: "agent", "detectors.genericRepeat": "agent", "postCompactionGuard.windowSize": "agent" });
  });
  it("C4 an agent with no block, and no agent named, both get the global block", () => {
    for (const resolution of [resolveEffectiveConfig(root, "b"), resolveEffectiveConfig(root), resolveEffectiveConfig(root, "nobody")]) {
      expect(resolution.config).toEqual({ ...DEFAULT_CONFIG, warningThreshold: 5, detectors: { ...DEFAULT_CONFIG.detectors, pingPong: false } });
      expect(resolution.sources).toEqual(globalOnly);
    }
    expect(resolveEffectiveConfig(null).sources.warningThreshold).toBe("default");
    expect(resolveEffectiveConfig({ tools: 1 }).config).toEqual(DEFAULT_CONFIG);
    // No agent named: an agent entry without an id is not taken for it.
    expect(resolveEffectiveConfig({ agents: { list: [{ tools: { loopDetection: { historySize: 5 } } }] } }).config.historySize).toBe(30);
  });
  it("C4 finding an agent's block and listing the ids skip what is not an agent", () => {
    expect(findAgentBlock(root, "a").found).toBe(true);
    expect(findAgentBlock(root, "a").block).toEqual({ criticalThreshold: 8, enabled: true, detectors: { genericRepeat: false }, postCompactionGuard: { windowSize: 4 } });
    expect(findAgentBlock(root, "b")).toEqual({ found: true, block: undefined });
    expect(findAgentBlock(root, "zz")).toEqual({ found: false, block: undefined });
    expect(findAgentBlock({ agents: { list: 3 } }, "a")).toEqual({ found: false, block: undefined });
    expect(findAgentBlock({ agents: 3 }, "a")).toEqual({ found: false, block: undefined });
    expect(findAgentBlock(7, "a")).toEqual({ found: false, block: undefined });
    expect(findAgentBlock(null, "a")).toEqual({ found: false, block: undefined });
    expect(listAgentIds(root)).toEqual(["a", "b", "a"]);
    expect(listAgentIds({ agents: {} })).toEqual([]);
    expect(listAgentIds({ agents: 1 })).toEqual([]);
    expect(listAgentIds(null)).toEqual([]);
  });
  it("C4 merging: nested blocks merge key by key; a nested value that is not an object gives way to one that is", () => {
    expect(mergeBlocks({ detectors: { a: 1, b: 1 }, x: 1 }, { detectors: { b: 2 }, y: 2 })).toEqual({ detectors: { a: 1, b: 2 }, x: 1, y: 2 });
    expect(mergeBlocks({ detectors: { a: 1 }, postCompactionGuard: 3 }, { detectors: 2 })).toEqual({ detectors: { a: 1 }, postCompactionGuard: 3 });
    expect(mergeBlocks(null, { postCompactionGuard: { windowSize: 2 } })).toEqual({ postCompactionGuard: { windowSize: 2 } });
    expect(mergeBlocks({ postCompactionGuard: { windowSize: 2 } }, "x")).toEqual({ postCompactionGuard: { windowSize: 2 } });
    expect(mergeBlocks({ a: 1 }, { a: 2, b: 2 })).toEqual({ a: 2, b: 2 });
    // An agent's empty nested block keeps the global values, for postCompactionGuard as for detectors.
    expect(mergeBlocks({ postCompactionGuard: { windowSize: 5 }, detectors: { pingPong: false } }, { postCompactionGuard: {}, detectors: {} })).toEqual({
      postCompactionGuard: { windowSize: 5 },
      detectors: { pingPong: false },
    });
  });
});
