// Each peer sees a call's name and args as its own runtime does (src/targets/peers/normalization),
// never through OpenClaw's rule E2; Goose's REP-002 and Qwen's heuristic tier; a trace as a script
// for a driven CLI, and what the CLI did as outputs. All in-memory: no runtime is run here (the
// real runtimes pin the same probes in test/realRuntimes.test.ts and reports/peers).
import { describe, expect, it } from "vitest";
import { configFrom } from "../models/configResolution.js";
import type { ToolEvent } from "../models/events.js";
import { runProbeOnTarget } from "../src/agreement/eventProbe.js";
import { PROBES } from "../src/agreement/probeSet.js";
import { GEMINI_NORMALIZATION } from "../src/targets/peers/normalization/geminiCli.js";
import { GOOSE_NORMALIZATION } from "../src/targets/peers/normalization/goose.js";
import { OPENCODE_NORMALIZATION } from "../src/targets/peers/normalization/opencode.js";
import { QWEN_NORMALIZATION, qwenRepeatKey } from "../src/targets/peers/normalization/qwenCode.js";
import { ROO_NORMALIZATION } from "../src/targets/peers/normalization/rooCode.js";
import { NORMALIZATIONS } from "../src/targets/peers/normalization/index.js";
import { findBuiltInTarget } from "../src/targets/registry.js";
import { geminiToolCall } from "../src/targets/runtimes/geminiCore.js";
import { opencodeToolCall } from "../src/targets/runtimes/opencodeCli.js";
import { qwenToolCall } from "../src/targets/runtimes/qwenCli.js";
import { argumentsText } from "../src/targets/runtimes/scriptedModel.js";
import { outputsFromObservations, planTrace } from "../src/targets/runtimes/traceScript.js";
import { runTarget, type Target } from "../src/targets/target.js";

const target = (name: string): Target => findBuiltInTarget(name) as Target;

describe("each runtime's own normalisation of names and args", () => {
  it("Gemini trims the name (empty: generic_tool) and maps missing or null args to {}; no lowercasing, no aliases", () => {
    expect(GEMINI_NORMALIZATION.view(" read_file ", undefined)).toEqual({ tool: "read_file", params: {} });
    expect(GEMINI_NORMALIZATION.view("  ", null)).toEqual({ tool: "generic_tool", params: {} });
    expect(GEMINI_NORMALIZATION.view("Bash", { a: 1 })).toEqual({ tool: "Bash", params: { a: 1 } });
  });
  it("Qwen trims, maps args || {}, unwraps its tool_call bridge, and keys legacy names as current ones with sorted keys", () => {
    expect(QWEN_NORMALIZATION.view(" Read_File", null)).toEqual({ tool: "Read_File", params: {} });
    expect(QWEN_NORMALIZATION.view("tool_call", { name: "Read_File", arguments: { p: 1 } })).toEqual({ tool: "read_file", params: { p: 1 } });
    expect(qwenRepeatKey("search_file_content", { b: 1, a: 2 })).toBe(qwenRepeatKey("grep_search", { a: 2, b: 1 }));
    expect(qwenRepeatKey("bash", {})).not.toBe(qwenRepeatKey("exec", {}));
  });
  it("opencode lowercases a name wrong only by case to its built-in tool, reads no args as {}, wraps a non-object input", () => {
    expect(OPENCODE_NORMALIZATION.view("Read", undefined)).toEqual({ tool: "read", params: {} });
    expect(OPENCODE_NORMALIZATION.view("Exec", null)).toEqual({ tool: "Exec", params: { value: null } });
    expect(OPENCODE_NORMALIZATION.view(" read ", { a: 1 }).tool).toBe(" read ");
  });
  it("Roo reads no args as {}; Goose makes missing and null one value and {} another", () => {
    expect(ROO_NORMALIZATION.view("read_file", undefined).params).toEqual({});
    expect(GOOSE_NORMALIZATION.view("x", undefined).params).toBeNull();
    expect(GOOSE_NORMALIZATION.view("x", {}).params).toEqual({});
  });
  it("every rule names where it was read, and OpenClaw's E2 is no peer's: `bash` and `exec` stay two tools", () => {
    for (const n of NORMALIZATIONS) expect(n.source.length, n.runtime).toBeGreaterThan(2);
    const call = (tool: string, i: number): ToolEvent[] => [{ type: "call", runId: "r", callId: `c${i}`, tool, params: { command: "ls" } }];
    const events = Array.from({ length: 6 }, (_, i) => call(i % 2 === 0 ? "bash" : "exec", i)).flat();
    for (const name of ["gemini-cli", "qwen-code", "roo-code", "cline"]) {
      expect(runTarget(target(name), configFrom({}), events).filter((o) => o.kind !== "call" || o.verdict !== "allow"), name).toEqual([]);
    }
  });
  it("the scripted model sends no args as an empty arguments string, null and {} as JSON", () => {
    expect([argumentsText(undefined), argumentsText(null), argumentsText({})]).toEqual(["", "null", "{}"]);
  });
});

describe("the models on the name and args probes (pinned: reports/peers checks the same against the real runtimes)", () => {
  const naming = { "gemini-cli": geminiToolCall, "qwen-code": qwenToolCall, opencode: opencodeToolCall, kilo: opencodeToolCall } as const;
  const stops = (model: keyof typeof naming): Record<string, number | null> =>
    Object.fromEntries(PROBES.filter((p) => /^(name|args)-/.test(p.id)).map((p) => [p.id, runProbeOnTarget(target(model), { toolCall: naming[model] }, p.script)[0]?.stoppedAtStep ?? null]));
  it("Gemini: a padded name and missing/null/{} args are one call (stopped at the 6th); case and alias are not", () => {
    expect(stops("gemini-cli")).toEqual({ "name-case-6": null, "name-padded-6": 5, "name-alias-6": null, "name-case-parallel-3": null, "name-padded-parallel-3": null, "name-alias-parallel-3": null, "args-missing-null-empty-6": 5, "args-missing-null-empty-parallel-3": null });
  });
  it("Qwen: the same, stopped at the 5th", () => {
    expect(stops("qwen-code")).toEqual({ "name-case-6": null, "name-padded-6": 4, "name-alias-6": null, "name-case-parallel-3": null, "name-padded-parallel-3": null, "name-alias-parallel-3": null, "args-missing-null-empty-6": 4, "args-missing-null-empty-parallel-3": null });
  });
  it("opencode and Kilo: a case-repaired name makes 3 identical parts in one response; Kilo's repair also trims a padded one, and its second guard ends the turn at the 3rd read without a path (invalid arguments)", () => {
    for (const model of ["opencode", "kilo"] as const) expect(stops(model)["name-case-parallel-3"], model).toBe(0);
    expect(Object.values(stops("opencode")).filter((s) => s !== null)).toHaveLength(1);
    expect(stops("opencode")["name-padded-parallel-3"]).toBeNull();
    expect(stops("kilo")["name-padded-parallel-3"]).toBe(0);
    expect(Object.entries(stops("kilo")).filter(([, s]) => s !== null)).toEqual([["name-case-parallel-3", 0], ["name-padded-parallel-3", 0], ["args-missing-null-empty-6", 2], ["args-missing-null-empty-parallel-3", 0]]);
  });
});

const failing = (tool: string, i: number, error: string, step?: string): ToolEvent[] => [
  { type: "call", runId: "r", callId: `c${i}`, tool, params: { n: i }, ...(step === undefined ? {} : { step }) },
  { type: "outcome", runId: "r", callId: `c${i}`, tool, params: { n: i }, error },
];
const verdicts = (t: Target, events: ToolEvent[]): string[] => runTarget(t, configFrom({}), events).filter((o) => o.kind === "call").map((o) => (o.kind === "call" ? o.verdict : ""));

describe("Goose REP-002", () => {
  it("denies a tool at the next response after the same error 3 times in a row, whatever the args, on any limit; then counts afresh", () => {
    const events = Array.from({ length: 8 }, (_, i) => failing("shell", i, "permission denied")).flat();
    expect(verdicts(target("goose"), events)).toEqual(["allow", "allow", "allow", "critical", "allow", "allow", "allow", "critical"]);
  });
  it("a different error text (first 100 characters), another tool's error or a success resets the run", () => {
    const long = "x".repeat(100);
    const differing = [...failing("shell", 0, `${long}a`), ...failing("shell", 1, `${long}b`), ...failing("shell", 2, `${long}c`), ...failing("shell", 3, "y")];
    expect(verdicts(target("goose"), differing)[3]).toBe("critical");
    const interrupted = [...failing("shell", 0, "e"), ...failing("shell", 1, "e"), { type: "call", runId: "r", callId: "ok", tool: "shell", params: {} } as ToolEvent, { type: "outcome", runId: "r", callId: "ok", tool: "shell", params: {}, result: "fine" } as ToolEvent, ...failing("shell", 2, "e"), ...failing("shell", 3, "e")];
    expect(verdicts(target("goose"), interrupted)).toEqual(["allow", "allow", "allow", "allow", "allow"]);
  });
  it("judges once per response: calls of the response that made the 3rd error are not denied; every call of the tool in the next one is", () => {
    const events = [...failing("shell", 0, "e", "s1"), ...failing("shell", 1, "e", "s2"), ...failing("shell", 2, "e", "s2"), { type: "call", runId: "r", callId: "d1", tool: "shell", params: { n: 9 }, step: "s3" } as ToolEvent, { type: "call", runId: "r", callId: "d2", tool: "read", params: {}, step: "s3" } as ToolEvent, { type: "call", runId: "r", callId: "d3", tool: "shell", params: { n: 8 }, step: "s3" } as ToolEvent];
    expect(verdicts(target("goose"), events)).toEqual(["allow", "allow", "allow", "critical", "allow", "critical"]);
  });
});

describe("Qwen's heuristic tier (qwen-code:heuristics; off in the CLI unless model.skipLoopDetection is false)", () => {
  const call = (tool: string, params: unknown, i: number): ToolEvent => ({ type: "call", runId: "r", callId: `c${i}`, tool, params });
  const firstStop = (name: string, calls: [string, unknown][]): number | undefined => {
    const out = runTarget(target(name), configFrom({}), calls.map(([t, p], i) => call(t, p, i)));
    return out.find((o) => o.kind === "abort")?.index;
  };
  const other = (i: number): [string, unknown] => ["grep_search", { pattern: `p${i}` }];
  it("six duplicates anywhere in the prompt", () => {
    const calls = Array.from({ length: 12 }, (_, i): [string, unknown] => (i % 2 === 0 ? ["run_shell_command", { command: "ls" }] : other(i)));
    expect(firstStop("qwen-code:heuristics", calls)).toBe(10);
    expect(firstStop("qwen-code", calls)).toBeUndefined();
  });
  it("three A-B cycles", () => {
    const calls = Array.from({ length: 6 }, (_, i): [string, unknown] => (i % 2 === 0 ? ["run_shell_command", { command: "ls" }] : ["web_fetch", { url: "u" }]));
    expect(firstStop("qwen-code:heuristics", calls)).toBe(5);
  });
  it("eight calls in a row to one tool, whatever the args", () => {
    expect(firstStop("qwen-code:heuristics", Array.from({ length: 9 }, (_, i) => other(i)))).toBe(7);
  });
  it("eight reads among the last fifteen, once a call was not a read", () => {
    const calls: [string, unknown][] = [["run_shell_command", { command: "ls" }], ...Array.from({ length: 9 }, (_, i): [string, unknown] => [i % 2 === 0 ? "read_file" : "list_directory", { path: `f${i}` }])];
    expect(firstStop("qwen-code:heuristics", calls)).toBe(8);
    expect(firstStop("qwen-code:heuristics", calls.slice(1))).toBeUndefined();
  });
});

describe("a trace as a driven CLI's script, and its observations as outputs", () => {
  const events: ToolEvent[] = [
    { type: "call", runId: "a", callId: "1", tool: " Read ", step: "x" },
    { type: "call", runId: "a", callId: "2", tool: "read", params: null, step: "x" },
    { type: "outcome", runId: "a", callId: "1", tool: " Read ", result: "r" },
    { type: "call", runId: "b", callId: "3", tool: "read", params: { p: 1 } },
    { type: "call", runId: "a", callId: "4", tool: "read", params: {} },
    { type: "outcome", runId: "a", callId: "4", tool: "read", result: "r" },
  ];
  it("each run a prompt, each step one response, names and args exactly as recorded", () => {
    const plan = planTrace(events);
    expect(plan.runs).toEqual(["a", "b"]);
    expect(plan.script.prompts.map((p) => p.map((s) => s.calls.map((c) => c.action)))).toEqual([
      [[{ kind: "raw", name: " Read ", args: undefined }, { kind: "raw", name: "read", args: null }], [{ kind: "raw", name: "read", args: {} }]],
      [[{ kind: "raw", name: "read", args: { p: 1 } }]],
    ]);
    expect(plan.callOf.map((c) => c?.id)).toEqual(["call_p1s1c1", "call_p1s1c2", "call_p1s1c1", "call_p2s1c1", "call_p1s2c1", "call_p1s2c1"]);
  });
  it("a stop becomes an abort at the call that did not run, and the run's later events are ignored", () => {
    const plan = planTrace(events);
    const out = outputsFromObservations("rt@1", events, plan, [
      { fates: { call_p1s1c1: "ran", call_p1s1c2: "not-run", call_p1s2c1: "not-run" }, stoppedAtStep: 0, stopMessage: "halted", warnings: [] },
      { fates: { call_p2s1c1: "ran" }, stoppedAtStep: null, warnings: [] },
    ]);
    expect(out.map((o) => `${o.index}:${o.kind}${o.kind === "call" ? `:${o.verdict}` : ""}`)).toEqual(["0:call:allow", "1:abort", "2:ignored", "3:call:allow", "4:ignored", "5:ignored"]);
  });
});
