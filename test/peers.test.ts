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

/** Calls grouped by model response (parallel calls share a step); one act per call, in order. */
function judgeSteps(name: string, groups: readonly (readonly Step[])[]): string[] {
  const target = findBuiltInTarget(name);
  if (target === undefined) throw new Error(`no target ${name}`);
  const events: ToolEvent[] = [];
  const callIndex: number[] = [];
  groups.forEach((group, g) => {
    group.forEach((s, i) => {
      callIndex.push(events.length);
      events.push({ type: "call", runId: "r", callId: `g${g}c${i}`, tool: s.tool ?? "read", params: s.params ?? { path: "a.ts" }, step: `s${g}` });
    });
    group.forEach((s, i) => events.push({ type: "outcome", runId: "r", callId: `g${g}c${i}`, tool: s.tool ?? "read", params: s.params ?? { path: "a.ts" }, result: s.result ?? "same" }));
  });
  const outputs = runTarget(target, configFrom({}), events);
  return callIndex.map((index) => {
    const mine = outputs.filter((o) => o.index === index);
    if (mine.some((o) => o.kind === "abort")) return "stop-before";
    if (mine.some((o) => o.kind === "ignored")) return "ignored";
    const flagged = mine.find((o) => o.kind === "call" && o.verdict !== "allow");
    if (flagged?.kind === "call") return flagged.verdict === "warning" ? "warn" : "block";
    return "allow";
  });
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
  it("cuts off a single repeat at the 5th call (before it runs) and an A/B alternation at the 10th", () => {
    expect(firstNot(judge("gemini-cli", same(8)).acts)).toBe("block at call 5");
    const ab = Array.from({ length: 12 }, (_, i): Step => (i % 2 === 0 ? {} : { tool: "grep" }));
    expect(firstNot(judge("gemini-cli", ab).acts)).toBe("block at call 10");
  });
  it("a period-5 cycle needs 25 calls", () => {
    const cycle = Array.from({ length: 30 }, (_, i): Step => ({ params: { path: `f${i % 5}` } }));
    expect(firstNot(judge("gemini-cli", cycle).acts)).toBe("block at call 25");
  });
  it("keeps its key list after strike 1: the very next identical call is strike 2 and stops the prompt", () => {
    const { acts } = judge("gemini-cli", same(8));
    expect(acts).toEqual(["allow", "allow", "allow", "allow", "block", "stop-before", "ignored", "ignored"]);
    // A different call after strike 1 breaks the cycle; strike 2 then needs the cycle again.
    const broken = judge("gemini-cli", [...same(5), { tool: "grep" }, ...same(5)]).acts;
    expect(broken.slice(4, 11)).toEqual(["block", "allow", "allow", "allow", "allow", "allow", "stop-before"]);
  });
  it("strike 1 drops the rest of the response it cut off", () => {
    const acts = judgeSteps("gemini-cli", [[{}], [{}], [{}], [{}], [{}, { tool: "grep" }], [{ tool: "ls" }]]);
    expect(acts).toEqual(["allow", "allow", "allow", "allow", "block", "block", "allow"]);
  });
  it("args as given: the same args in another key order are another key", () => {
    const flipping = Array.from({ length: 8 }, (_, i): Step => ({ params: i % 2 === 0 ? { a: 1, b: 2 } : { b: 2, a: 1 } }));
    // Two keys alternating: an A/B cycle, flagged at the 10th call and not at the 5th.
    expect(firstNot(judge("gemini-cli", [...flipping, ...flipping]).acts)).toBe("block at call 10");
  });
});

describe("qwen-code", () => {
  it("stops the prompt at the 5th identical call in a row, key order ignored", () => {
    expect(firstNot(judge("qwen-code", same(7)).acts)).toBe("stop-before at call 5");
    expect(firstNot(judge("qwen-code", [...same(4), { tool: "grep" }, ...same(4)]).acts)).toBe("never");
    const flipping = Array.from({ length: 6 }, (_, i): Step => ({ params: i % 2 === 0 ? { a: 1, b: { c: 1, d: 2 } } : { b: { d: 2, c: 1 }, a: 1 } }));
    expect(firstNot(judge("qwen-code", flipping).acts)).toBe("stop-before at call 5");
  });
  it("stops at the 8th git overview command in a row", () => {
    const git = (command: string): Step => ({ tool: "run_shell_command", params: { command } });
    const spin = Array.from({ length: 9 }, (_, i) => git(["git status", "git diff", "git ls-files"][i % 3] as string));
    expect(firstNot(judge("qwen-code", spin).acts)).toBe("stop-before at call 8");
    expect(firstNot(judge("qwen-code", [...spin.slice(0, 7), git("git log"), ...spin.slice(0, 7)]).acts)).toBe("never");
  });
  // 0.24.4's shouldHaltOnTurnToolCallCap halts when the count exceeds 10 x 100: the 1001st call.
  it("past 100 calls, stops once some call has been made 6 times; past the 1000th call in any case", () => {
    const varied = (n: number, offset = 0): Step[] => Array.from({ length: n }, (_, i) => ({ params: { path: `f${i + offset}` } }));
    const six = Array.from({ length: 6 }, (): Step => ({ params: { path: "again" } })).flatMap((s) => [s, { tool: "grep" }]);
    expect(firstNot(judge("qwen-code", [...six, ...varied(100)]).acts)).toBe("stop-before at call 101");
    expect(firstNot(judge("qwen-code", varied(1001)).acts)).toBe("stop-before at call 1001");
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
  it("stops the task after the 5th identical call, which ran; no warning before (its driven CLI sent none to the model)", () => {
    expect(judge("cline", same(6)).acts.slice(0, 6)).toEqual(["allow", "allow", "allow", "allow", "stop-after", "ignored"]);
  });
  it("compares every parameter: a changing task_progress makes the calls differ", () => {
    const steps = Array.from({ length: 5 }, (_, i): Step => ({ params: { path: "a.ts", task_progress: `- [x] step ${i}` } }));
    expect(firstNot(judge("cline", steps).acts)).toBe("never");
  });
});

describe("opencode and kilo", () => {
  for (const name of ["opencode", "kilo"]) {
    it(`${name}: 3 identical parallel calls in one response stop the run (opencode before the 3rd runs, Kilo after); repeats across responses never do`, () => {
      expect(judgeSteps(name, [[{}, {}, {}]])).toEqual(name === "opencode" ? ["allow", "allow", "stop-before"] : ["allow", "allow", "allow"]);
      if (name === "kilo") expect(judgeSteps(name, [[{}, {}, {}, { tool: "grep" }]])).toEqual(["allow", "allow", "allow", "stop-before"]);
      expect(judgeSteps(name, [[{}], [{}], [{}], [{}], [{}]])).toEqual(["allow", "allow", "allow", "allow", "allow"]);
      expect(firstNot(judge(name, same(10)).acts)).toBe("never");
    });
    it(`${name}: another call among the last 3 of the response defeats it; key order counts`, () => {
      expect(judgeSteps(name, [[{}, {}, { tool: "grep" }, {}, {}]])).toEqual(["allow", "allow", "allow", "allow", "allow"]);
      expect(judgeSteps(name, [[{ params: { a: 1, b: 2 } }, { params: { b: 2, a: 1 } }, { params: { a: 1, b: 2 } }]])).toEqual(["allow", "allow", "allow"]);
      expect(judgeSteps(name, [[{}, {}], [{}, {}]])).toEqual(["allow", "allow", "allow", "allow"]);
    });
  }
});

describe("crush", () => {
  it("stops before the 11th step once one step recurred more than 5 times in the last 10; never with fewer than 10 steps", () => {
    expect(firstNot(judge("crush", same(10)).acts)).toBe("never");
    expect(judge("crush", same(12)).acts.slice(9)).toEqual(["allow", "stop-before", "ignored"]);
    // 6 identical steps after 4 others: the 10th step makes the window; the next response never comes.
    const others = Array.from({ length: 4 }, (_, i): Step => ({ params: { path: `o${i}.ts` } }));
    expect(firstNot(judge("crush", [...others, ...same(6), {}]).acts)).toBe("stop-before at call 11");
    expect(firstNot(judge("crush", [...others, ...same(5), { tool: "grep" }, {}]).acts)).toBe("never");
  });
  it("compares outputs and the raw input: a changing result, or alternating key order, never repeats", () => {
    expect(firstNot(judge("crush", Array.from({ length: 12 }, (_, i): Step => ({ result: `r${i}` }))).acts)).toBe("never");
    expect(firstNot(judge("crush", Array.from({ length: 12 }, (_, i): Step => ({ params: i % 2 === 0 ? { a: 1, b: 2 } : { b: 2, a: 1 } }))).acts)).toBe("never");
  });
  it("takes a response's parallel calls as one step", () => {
    const acts = judgeSteps("crush", Array.from({ length: 11 }, () => [{}, {}]));
    expect(acts.slice(18)).toEqual(["allow", "allow", "stop-before", "ignored"]);
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
  it("has no guard under native function calling, the default", () => {
    expect(firstNot(judge("crewai", same(30)).acts)).toBe("never");
  });
  it("crewai-react skips a repeat of the previous successful call, and every later identical call once one was skipped", () => {
    expect(judge("crewai-react", same(3)).acts).toEqual(["allow", "block", "block"]);
    expect(judge("crewai-react", [{}, { tool: "grep" }, {}]).acts).toEqual(["allow", "allow", "allow"]);
    expect(judge("crewai-react", [{}, {}, { tool: "grep" }, {}]).acts).toEqual(["allow", "block", "allow", "block"]);
    expect(judge("crewai-react", [{ error: "boom" }, { error: "boom" }]).acts).toEqual(["allow", "allow"]);
  });
});

describe("none", () => {
  it("never acts", () => {
    expect(firstNot(judge("none", same(100)).acts)).toBe("never");
  });
});

describe("every peer", () => {
  const names = ["gemini-cli", "qwen-code", "openhands", "roo-code", "cline", "kilo", "opencode", "crush", "goose", "crewai", "crewai-react", "none"];
  it("declares what it lacks: no guard, no SPEC counts, no config field honoured; a warning level only where it warns", () => {
    for (const name of names) {
      const c = findBuiltInTarget(name)?.capabilities;
      expect(c, name).toBeDefined();
      expect(c?.guard).toBe(false);
      expect(c?.counts).toBe(false);
      expect(c?.honours).toEqual([]);
      expect(c?.warningLevel, name).toBe(["openhands"].includes(name));
    }
  });
  it("is deterministic, and ignores the events of a run it stopped", () => {
    for (const name of names) expect(judge(name, same(10)).outputs).toEqual(judge(name, same(10)).outputs);
    expect(judge("qwen-code", same(7)).acts.slice(4)).toEqual(["stop-before", "ignored", "ignored"]);
  });
});
