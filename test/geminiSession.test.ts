// Gemini CLI's detector lives per session and is reset when the prompt id changes (ids compared
// exactly), an empty tool name is its turn's `generic_tool`, and its model speaks the real
// target's vocabulary (detector names, count = strike). Each is pinned on the model and, when
// gemini-cli@0.61.0 is in the cache, on its own LoopDetectionService in-process.
import { describe, expect, it } from "vitest";
import { configFrom } from "../models/configResolution.js";
import type { ToolEvent } from "../models/events.js";
import { cacheRoot } from "../src/targets/openclaw/cache.js";
import { findBuiltInTarget } from "../src/targets/registry.js";
import { loadGeminiTarget } from "../src/targets/runtimes/geminiCore.js";
import { readRuntimeManifest } from "../src/targets/runtimes/packageCache.js";
import { runTarget, type Target, type TargetOutput } from "../src/targets/target.js";

const GEMINI = "0.61.0";
const haveGemini = readRuntimeManifest("gemini-cli", GEMINI) !== undefined;
if (!haveGemini) console.log(`SKIPPED: the real side of the Gemini session tests: gemini-cli@${GEMINI} is not in the cache (${cacheRoot()}); fetch it with: loopsim targets fetch gemini-cli@${GEMINI}`);

const call = (runId: string, i: number, tool = "read_file", params: unknown = { file_path: "/w/a.txt" }): ToolEvent => ({ type: "call", runId, callId: `c${i}`, tool, params });

/** Identical calls whose run ids take turns: 'p1', ' p1', 'p1', ... */
const takingTurns = (n: number): ToolEvent[] => Array.from({ length: n }, (_, i) => call(i % 2 === 0 ? "p1" : " p1", i));

const flagged = (outputs: readonly TargetOutput[]): string[] =>
  outputs.flatMap((o) => (o.kind === "abort" ? [`${o.index} stop ${o.error} ${o.count}`] : o.kind === "call" && o.verdict !== "allow" ? [`${o.index} ${o.verdict} ${o.detector} ${o.count}`] : []));

const model = findBuiltInTarget("gemini-cli") as Target;
const run = (target: Target, events: readonly ToolEvent[]): string[] => flagged(runTarget(target, configFrom({}), events));

/** What both sides must say, on the traces of this file. */
function pins(judge: (events: readonly ToolEvent[]) => string[]): void {
  // The done-when trace of issue 37: two prompts that take turns reset the one detector.
  expect(judge(takingTurns(20))).toEqual([]);
  // In one prompt, the same 20 calls are cut at the 5th and stop at the 6th.
  expect(judge(Array.from({ length: 20 }, (_, i) => call("p1", i)))).toEqual(["4 critical gemini-cli:tool-call-loop 1", "5 stop gemini-cli:tool-call-loop 2"]);
  // 4 in 'p1', then 4 in ' p1': another prompt, a fresh count.
  expect(judge([...Array.from({ length: 4 }, (_, i) => call("p1", i)), ...Array.from({ length: 4 }, (_, i) => call(" p1", 4 + i))])).toEqual([]);
  // An empty name is its turn's generic_tool: "", "generic_tool" and "  " are one key.
  expect(judge(["", "generic_tool", "  ", "", "generic_tool", ""].map((tool, i) => call("p1", i, tool, {})))).toEqual(["4 critical gemini-cli:tool-call-loop 1", "5 stop gemini-cli:tool-call-loop 2"]);
}

describe("gemini-cli model", () => {
  it("one detector per session, reset when the prompt id changes ('p1' and ' p1' are two); an empty name is generic_tool; count is the strike", () => {
    pins((events) => run(model, events));
  });
  it("qwen-code's client resets its one detector at every user query too: two prompts taking turns never reach 5", () => {
    expect(run(findBuiltInTarget("qwen-code") as Target, takingTurns(20))).toEqual([]);
    expect(run(findBuiltInTarget("qwen-code") as Target, Array.from({ length: 6 }, (_, i) => call("p1", i)))).toEqual(["4 stop qwen-code:identical-calls 5"]);
  });
  it("keeps a guard per run for the runtimes that do (roo-code): 'p1' and ' p1' are two runs, each reaching its own 4th call", () => {
    expect(run(findBuiltInTarget("roo-code") as Target, takingTurns(8))).toEqual(["6 stop roo-code:tool-repetition 4", "7 stop roo-code:tool-repetition 4"]);
  });
});

describe.skipIf(!haveGemini)(`gemini-cli@${GEMINI} in-process`, () => {
  it("says what its model says on each trace (the same detector names and counts)", async () => {
    const real = await loadGeminiTarget(GEMINI, () => undefined);
    pins((events) => run(real, events));
  });
  it("is made once per process: every later resolution of the version is the same target", async () => {
    const first = await loadGeminiTarget(GEMINI, () => undefined);
    expect(await loadGeminiTarget(GEMINI, () => undefined)).toBe(first);
  });
});
