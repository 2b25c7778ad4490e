// A call the runtime rejected before running it (a tool it does not have, args its schema does not
// accept) while the run went on: its fate is "rejected", neither "ran" nor a guard's refusal. Each
// CLI's reading is pinned on its own event stream, recorded from the real CLI driven through a
// script of an unknown tool `frobnicate`, a shell command, a read with {} as args, another command,
// and a response holding the unknown tool beside a command (test/fixtures/rejected-calls; the
// lines about tool calls kept, verbatim). loopsim's outputs then allow such a call and record
// nothing for it, and compare-driven counts it as rejected.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ToolEvent } from "../models/events.js";
import { differences } from "../src/agreement/compareObservations.js";
import { outputJsonLine } from "../src/format/outputJson.js";
import { timelineLine } from "../src/format/timeline.js";
import { rejectedCallsOf } from "../src/grounded/rejectedCalls.js";
import { wholeTraceParagraphs } from "../src/reportParts/realOutcomesSection.js";
import type { RealOutcomes } from "../src/grounded/realOutcomes.js";
import type { CliRun } from "../src/targets/runtimes/cliDriver.js";
import { clineRejection, observeCline } from "../src/targets/runtimes/clineCli.js";
import type { PromptObservation } from "../src/targets/runtimes/drivenRuntime.js";
import { observeOpencode } from "../src/targets/runtimes/opencodeCli.js";
import { observeQwen, qwenRejection } from "../src/targets/runtimes/qwenCli.js";
import { outputsFromObservations, planTrace } from "../src/targets/runtimes/traceScript.js";

const fixture = (name: string): string => readFileSync(join(import.meta.dirname, "fixtures", "rejected-calls", name), "utf8");
const PROMPT_1 = [["call_p1s1c1"], ["call_p1s2c1"], ["call_p1s3c1"], ["call_p1s4c1"], ["call_p1s5c1", "call_p1s5c2"]];
const PROMPT_2 = [["call_p2s1c1"], ["call_p2s2c1"], ["call_p2s3c1"]];
const runOf = (stdout: string, stepCalls: string[][]): CliRun => ({ exitCode: 0, signal: undefined, stdout, stderr: "", stepCalls, served: stepCalls.length, requests: [] });

const FIRST_PROMPT: PromptObservation = {
  fates: { call_p1s1c1: "rejected", call_p1s2c1: "ran", call_p1s3c1: "rejected", call_p1s4c1: "ran", call_p1s5c1: "rejected", call_p1s5c2: "ran" },
  rejections: { call_p1s1c1: "unknown-tool", call_p1s3c1: "invalid-input", call_p1s5c1: "unknown-tool" },
  stoppedAtStep: null,
  warnings: [],
};

describe("each CLI's rejection, read from its own event stream", () => {
  it("Qwen Code 0.24.4: `Tool \"frobnicate\" not found in registry` and `params must have required property` are rejections", () => {
    expect(observeQwen(runOf(fixture("qwen-code-0.24.4.jsonl"), PROMPT_1))).toEqual(FIRST_PROMPT);
  });
  it("Cline 3.0.65 --json: `rejected before execution: AI_NoSuchToolError` and zod's `✖ Invalid input` are rejections", () => {
    expect(observeCline(runOf(fixture("cline-3.0.65-json.jsonl"), PROMPT_1))).toEqual(FIRST_PROMPT);
  });
  it("Cline 3.0.65 resumed through ACP: the same, in tool_call_update's rawOutput", () => {
    expect(observeCline(runOf(fixture("cline-3.0.65-acp.jsonl"), PROMPT_2))).toEqual({
      fates: { call_p2s1c1: "rejected", call_p2s2c1: "ran", call_p2s3c1: "rejected" },
      rejections: { call_p2s1c1: "unknown-tool", call_p2s3c1: "invalid-input" },
      stoppedAtStep: null,
      warnings: [],
    });
  });
  it("opencode 1.18.33: a call handed to its `invalid` tool, and `called with invalid arguments`, are rejections", () => {
    expect(observeOpencode(runOf(fixture("opencode-1.18.33.jsonl"), PROMPT_1))).toEqual(FIRST_PROMPT);
  });
  it("Kilo 7.7.9: `Model tried to call unavailable tool` as an error of the call's own name, and `called with invalid arguments`, are rejections", () => {
    expect(observeOpencode(runOf(fixture("kilo-7.7.9.jsonl"), PROMPT_1))).toEqual(FIRST_PROMPT);
  });
  it("a tool's own failure while running is no rejection", () => {
    expect(qwenRejection("File not found: /w/a.txt")).toBeUndefined();
    expect(qwenRejection('Tool "bash" not found in registry. Tools must use the exact names that are registered.')).toBe("unknown-tool");
    expect(qwenRejection("params/command must be string")).toBe("invalid-input");
    expect(clineRejection({ error: "ENOENT: no such file or directory" })).toBeUndefined();
    expect(clineRejection([{ query: "false", result: "", success: false }])).toBeUndefined();
    expect(clineRejection({ error: "Tool call read_files was rejected before execution: Invalid input for tool read_files: Type validation failed" })).toBe("invalid-input");
  });
  it("a refusal stays a refusal: Cline's mistake limit, opencode's rejected permission", () => {
    const mistakes = [JSON.stringify({ type: "agent_event", event: { type: "content_end", contentType: "tool", toolName: "frobnicate", toolCallId: "c1", output: { error: "Tool call frobnicate was rejected before execution: too many consecutive mistakes" } } })].join("\n");
    expect(observeCline(runOf(mistakes, [["c1"]]))).toMatchObject({ fates: { c1: "refused" } });
    const permission = JSON.stringify({ type: "tool_use", part: { type: "tool", tool: "bash", callID: "c1", state: { status: "error", error: "The user rejected permission to use this specific tool call." } } });
    expect(observeOpencode(runOf(permission, [["c1"]]))).toEqual({ fates: { c1: "refused" }, stoppedAtStep: null, warnings: [] });
  });
});

/** The script's first prompt as a recorded trace: each call and its outcome. */
function traceOfFirstPrompt(): ToolEvent[] {
  const calls: [string, unknown, number][] = [
    ["frobnicate", { x: 1 }, 1],
    ["bash", { command: "echo hi" }, 2],
    ["read", {}, 3],
    ["bash", { command: "echo two" }, 4],
    ["frobnicate", { x: 2 }, 5],
    ["bash", { command: "echo three" }, 5],
  ];
  const events: ToolEvent[] = [];
  calls.forEach(([tool, params, step], i) => events.push({ type: "call", runId: "r", callId: `c${i}`, tool, params, step: `s${step}` }));
  calls.forEach(([tool, params], i) => events.push({ type: "outcome", runId: "r", callId: `c${i}`, tool, params, result: "x" }));
  return events;
}

describe("a rejected call in loopsim's outputs", () => {
  const events = traceOfFirstPrompt();
  const plan = planTrace(events);
  const outputs = outputsFromObservations("qwen-code@0.24.4", events, plan, [FIRST_PROMPT]);

  it("is allowed by the guard: no critical verdict, no `<runtime>:refused` detector", () => {
    const calls = outputs.filter((o) => o.kind === "call");
    expect(calls).toHaveLength(6);
    expect(calls.every((o) => o.kind === "call" && o.verdict === "allow")).toBe(true);
    expect(JSON.stringify(outputs)).not.toContain(":refused");
  });
  it("is not recorded as run, and is no veto; unknownTool names the tool the runtime said it lacks", () => {
    const outcomes = outputs.flatMap((o) => (o.kind === "outcome" ? [[o.tool, o.recorded, o.vetoed, o.unknownTool]] : []));
    expect(outcomes).toEqual([
      ["frobnicate", false, false, "frobnicate"],
      ["bash", true, false, undefined],
      ["read", false, false, undefined],
      ["bash", true, false, undefined],
      ["frobnicate", false, false, "frobnicate"],
      ["bash", true, false, undefined],
    ]);
  });
  it("is counted as rejected, not ran, by compare's whole-trace rows", () => {
    expect(rejectedCallsOf(outputs)).toEqual({ answered: 6, rejected: 3, unknownTool: 2 });
  });
  it("is no difference in the agreement probes: the models have no registry, and the guard let it through", () => {
    const model: PromptObservation = { ...FIRST_PROMPT, fates: Object.fromEntries(Object.keys(FIRST_PROMPT.fates).map((id) => [id, "ran"])), rejections: undefined };
    expect(differences([model], [FIRST_PROMPT])).toEqual([]);
  });
});

describe("a rejected call in `trace`'s timeline and --json, from each CLI's own event stream", () => {
  const events = traceOfFirstPrompt();
  const plan = planTrace(events);
  const streams: [string, (run: CliRun) => PromptObservation | string, string][] = [
    ["qwen-code@0.24.4", observeQwen, "qwen-code-0.24.4.jsonl"],
    ["cline@3.0.65", observeCline, "cline-3.0.65-json.jsonl"],
    ["opencode@1.18.33", observeOpencode, "opencode-1.18.33.jsonl"],
    ["kilo@7.7.9", observeOpencode, "kilo-7.7.9.jsonl"],
  ];
  for (const [runtime, observe, file] of streams) {
    const observed = observe(runOf(fixture(file), PROMPT_1));
    if (typeof observed === "string") throw new Error(observed);
    const outcomes = outputsFromObservations(runtime, events, plan, [observed]).filter((o) => o.kind === "outcome");

    it(`${runtime}: the timeline says the runtime rejected the call and why, never "no hash"`, () => {
      const said = outcomes.map((o) => timelineLine(o).replace(/^.*outcome\s+/, ""));
      expect(said).toEqual([
        "frobnicate       rejected by the runtime: unknown tool frobnicate (not run, not recorded)",
        "bash             recorded",
        "read             rejected by the runtime: invalid input for its tool (not run, not recorded)",
        "bash             recorded",
        "frobnicate       rejected by the runtime: unknown tool frobnicate (not run, not recorded)",
        "bash             recorded",
      ]);
      expect(said.join("\n")).not.toContain("no hash");
    });
    it(`${runtime}: trace --json carries the rejection and the tool the runtime said it lacks`, () => {
      const records = outcomes.map((o) => JSON.parse(outputJsonLine(o)) as Record<string, unknown>);
      expect(records.map(({ tool, recorded, vetoed, rejected, unknownTool }) => ({ tool, recorded, vetoed, rejected, unknownTool }))).toEqual([
        { tool: "frobnicate", recorded: false, vetoed: undefined, rejected: "unknown-tool", unknownTool: "frobnicate" },
        { tool: "bash", recorded: true, vetoed: undefined, rejected: undefined, unknownTool: undefined },
        { tool: "read", recorded: false, vetoed: undefined, rejected: "invalid-input", unknownTool: undefined },
        { tool: "bash", recorded: true, vetoed: undefined, rejected: undefined, unknownTool: undefined },
        { tool: "frobnicate", recorded: false, vetoed: undefined, rejected: "unknown-tool", unknownTool: "frobnicate" },
        { tool: "bash", recorded: true, vetoed: undefined, rejected: undefined, unknownTool: undefined },
      ]);
    });
  }
  it("an outcome of the reference that recorded nothing still reads as before", () => {
    const note = { kind: "outcome", index: 3, run: "", tool: "read", recorded: false, vetoed: false, argsHash: "h", resultHash: undefined, unknownTool: undefined } as const;
    expect(timelineLine(note)).toContain("not recorded (no hash)");
    expect(JSON.parse(outputJsonLine(note))).toEqual({ index: 3, type: "outcome", runId: null, tool: "read", recorded: false });
  });
});

describe("compare-driven's report", () => {
  it("says per CLI how many of the recorded calls it answered it rejected, and how", () => {
    const row = (rejected: number, unknownTool: number, sessions: number) => ({
      name: "qwen-code@0.24.4",
      wholeTrace: { sessions: 10, stretchSessions: 4, sample: { n: 6, of: 20, seed: 1 }, failed: { sessions: 0, stretches: 0, reasons: [] }, rejected: { answered: 200, rejected, unknownTool, sessions } },
    });
    const text = (r: ReturnType<typeof row>) => wholeTraceParagraphs({ rows: [r] } as unknown as RealOutcomes, "guard").join("\n");
    expect(text(row(30, 25, 3))).toContain("`qwen-code@0.24.4` rejected 30 of the 200 recorded calls it answered (15.0%), in 3 of the 10 sessions it ran: 25 as a tool it does not have, 5 as args its schema refuses.");
    expect(text(row(0, 0, 0))).toContain("`qwen-code@0.24.4` rejected none of the 200 recorded calls it answered");
  });
});
