// Each peer's documented numbers (../shared/targets/peers.md), pinned on small hand-made traces:
// the call at which it warns, blocks or stops, and what it ignores or compares.
import { describe, expect, it } from "vitest";
import { configFrom } from "../models/configResolution.js";
import type { ToolEvent } from "../models/events.js";
import { findBuiltInTarget } from "../src/targets/registry.js";
import { runTarget, type TargetOutput } from "../src/targets/target.js";

interface Step {
  readonly tool?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: unknown;
  readonly error?: string;
}

/** Call and outcome per step, one run; what the target said at each step (1-based call number). */
function judge(name: string, steps: readonly Step[]): { acts: string[]; outputs: TargetOutput[] } {
  const target = findBuiltInTarget(name);
  if (target === undefined) throw new Error(`no target ${name}`);
  const events: ToolEvent[] = [];
  steps.forEach((s, i) => {
    const tool = s.tool ?? "read";
    const params = s.params ?? { path: "a.ts" };
    events.push({ type: "call", runId: "r", callId: `c${i}`, tool, params });
    events.push(s.error !== undefined ? { type: "outcome", runId: "r", callId: `c${i}`, tool, params, error: s.error } : { type: "outcome", runId: "r", callId: `c${i}`, tool, params, result: s.result ?? "same" });
  });
  const outputs = runTarget(target, configFrom({}), events);
  const acts = steps.map((_, i) => {
    const mine = outputs.filter((o) => o.index === 2 * i || o.index === 2 * i + 1);
    const abort = mine.find((o) => o.kind === "abort");
    if (abort !== undefined) return abort.index === 2 * i ? "stop-before" : "stop-after";
    if (mine.some((o) => o.kind === "ignored")) return "ignored";
    const flagged = mine.find((o) => o.kind === "call" && o.verdict !== "allow");
    if (flagged?.kind === "call" && flagged.verdict === "warning") return "warn";
    if (flagged?.kind === "call" && flagged.verdict === "critical") return "block";
    return "allow";
  });
  return { acts, outputs };
}

const same = (n: number, step: Step = {}): Step[] => Array.from({ length: n }, () => step);
const firstNot = (acts: string[], act = "allow"): string => {
  const i = acts.findIndex((a) => a !== act);
  return i < 0 ? "never" : `${acts[i]} at call ${i + 1}`;
};

describe("roo-code", () => {
  it("refuses the 4th identical call in a row, not the 3rd, and the run ends (no user answers)", () => {
    expect(firstNot(judge("roo-code", same(6)).acts)).toBe("stop-before at call 4");
  });
  it("ignores key order, and a different call in between restarts the count", () => {
    expect(firstNot(judge("roo-code", [{ params: { a: 1, b: 2 } }, { params: { b: 2, a: 1 } }, { params: { a: 1, b: 2 } }, { params: { b: 2, a: 1 } }]).acts)).toBe("stop-before at call 4");
    expect(firstNot(judge("roo-code", [...same(3), { tool: "grep" }, ...same(3)]).acts)).toBe("never");
  });
});

describe("gemini-cli", () => {
  it("flags a single repeat at the 5th call and an A/B alternation at the 10th", () => {
    expect(firstNot(judge("gemini-cli", same(8)).acts)).toBe("warn at call 5");
    const ab = Array.from({ length: 12 }, (_, i): Step => (i % 2 === 0 ? {} : { tool: "grep" }));
    expect(firstNot(judge("gemini-cli", ab).acts)).toBe("warn at call 10");
  });
  it("a period-5 cycle needs 25 calls", () => {
    const cycle = Array.from({ length: 30 }, (_, i): Step => ({ params: { path: `f${i % 5}` } }));
    expect(firstNot(judge("gemini-cli", cycle).acts)).toBe("warn at call 25");
  });
  it("strike 2 in the same prompt stops, a whole new cycle after the feedback", () => {
    const { acts } = judge("gemini-cli", same(12));
    expect(acts.slice(0, 10)).toEqual(["allow", "allow", "allow", "allow", "warn", "allow", "allow", "allow", "allow", "stop-before"]);
  });
  it("args as given: the same args in another key order are another key", () => {
    const flipping = Array.from({ length: 8 }, (_, i): Step => ({ params: i % 2 === 0 ? { a: 1, b: 2 } : { b: 2, a: 1 } }));
    // Two keys alternating: an A/B cycle, flagged at the 10th call and not at the 5th.
    expect(firstNot(judge("gemini-cli", [...flipping, ...flipping]).acts)).toBe("warn at call 10");
  });
});

describe("qwen-code", () => {
  it("stops the turn at the 5th identical call in a row", () => {
    expect(firstNot(judge("qwen-code", same(7)).acts)).toBe("stop-before at call 5");
    expect(firstNot(judge("qwen-code", [...same(4), { tool: "grep" }, ...same(4)]).acts)).toBe("never");
  });
});

describe("openhands", () => {
  it("nudges once at the 3rd identical failing call and stops at the next hit", () => {
    const failing = Array.from({ length: 6 }, (_, i): Step => ({ error: `boom ${i}` }));
    expect(judge("openhands", failing).acts.slice(0, 4)).toEqual(["allow", "allow", "warn", "stop-after"]);
  });
  it("stops at 4 identical action and observation pairs, after the 4th ran", () => {
    expect(firstNot(judge("openhands", same(6)).acts)).toBe("stop-after at call 4");
  });
  it("compares results exactly: identical calls with changing results never stop it", () => {
    expect(firstNot(judge("openhands", Array.from({ length: 12 }, (_, i): Step => ({ result: `page ${i}` }))).acts)).toBe("never");
  });
  it("stops an A,B,A,B,A,B alternation with matching observations at the 6th call", () => {
    const ab = Array.from({ length: 8 }, (_, i): Step => (i % 2 === 0 ? {} : { tool: "grep" }));
    expect(firstNot(judge("openhands", ab).acts)).toBe("stop-after at call 6");
  });
});

describe("cline", () => {
  it("warns after the 3rd identical call and stops the task after the 5th, which ran", () => {
    expect(judge("cline", same(6)).acts.slice(0, 6)).toEqual(["allow", "allow", "warn", "warn", "stop-after", "ignored"]);
  });
  it("drops task_progress before comparing", () => {
    const steps = Array.from({ length: 3 }, (_, i): Step => ({ params: { path: "a.ts", task_progress: `- [x] step ${i}` } }));
    expect(firstNot(judge("cline", steps).acts)).toBe("warn at call 3");
  });
});

describe("kilo", () => {
  it("counts identical calls that are not in a row: the 3rd asks (and the run ends)", () => {
    expect(firstNot(judge("kilo", [{}, { tool: "grep" }, {}, { tool: "ls" }, {}]).acts)).toBe("stop-before at call 5");
  });
  it("restarts the count after a write tool, or the same tool with other args", () => {
    expect(firstNot(judge("kilo", [{}, {}, { tool: "apply_patch", params: { patch: "x" } }, {}, {}]).acts)).toBe("never");
    expect(firstNot(judge("kilo", [{}, {}, { params: { path: "b.ts" } }, {}, {}]).acts)).toBe("never");
    expect(firstNot(judge("kilo", [{}, {}, {}]).acts)).toBe("stop-before at call 3");
  });
});

describe("opencode", () => {
  it("asks at 3 identical calls in a row, order-sensitive", () => {
    expect(firstNot(judge("opencode", same(4)).acts)).toBe("stop-before at call 3");
    expect(firstNot(judge("opencode", [{}, {}, { tool: "grep" }, {}, {}]).acts)).toBe("never");
    expect(firstNot(judge("opencode", [{ params: { a: 1, b: 2 } }, { params: { b: 2, a: 1 } }, { params: { a: 1, b: 2 } }]).acts)).toBe("never");
  });
});

describe("goose", () => {
  it("as shipped (no limit) never acts; goose:N denies the (N+1)th identical call and every repeat after it", () => {
    expect(firstNot(judge("goose", same(30)).acts)).toBe("never");
    expect(judge("goose:3", same(6)).acts).toEqual(["allow", "allow", "allow", "block", "block", "block"]);
    expect(judge("goose:3", [...same(3), { tool: "grep" }, ...same(3)]).acts).toEqual(Array.from({ length: 7 }, () => "allow"));
  });
});

describe("crewai", () => {
  it("skips a call identical to the one just before, and only that one", () => {
    expect(judge("crewai", same(3)).acts).toEqual(["allow", "block", "block"]);
    expect(judge("crewai", [{}, { tool: "grep" }, {}]).acts).toEqual(["allow", "allow", "allow"]);
  });
});

describe("none", () => {
  it("never acts", () => {
    expect(firstNot(judge("none", same(100)).acts)).toBe("never");
  });
});

describe("every peer", () => {
  const names = ["gemini-cli", "qwen-code", "openhands", "roo-code", "cline", "kilo", "opencode", "goose", "crewai", "none"];
  it("declares what it lacks: no guard, no SPEC counts, no config field honoured; a warning level only where it warns", () => {
    for (const name of names) {
      const c = findBuiltInTarget(name)?.capabilities;
      expect(c, name).toBeDefined();
      expect(c?.guard).toBe(false);
      expect(c?.counts).toBe(false);
      expect(c?.honours).toEqual([]);
      expect(c?.warningLevel, name).toBe(["gemini-cli", "openhands", "cline"].includes(name));
    }
  });
  it("is deterministic, and ignores the events of a run it stopped", () => {
    for (const name of names) expect(judge(name, same(10)).outputs).toEqual(judge(name, same(10)).outputs);
    expect(judge("qwen-code", same(7)).acts.slice(4)).toEqual(["stop-before", "ignored", "ignored"]);
  });
});
