// The probe machinery without any runtime: the pinned probe set, the event-level probe runner on
// the models, the comparison rules, and the scripted model endpoint as a client sees it.
import { describe, expect, it } from "vitest";
import { request } from "node:http";
import { join } from "node:path";
import { tempDir } from "./cli/run.js";
import { differences } from "../src/agreement/compareObservations.js";
import { runProbeOnTarget } from "../src/agreement/eventProbe.js";
import { PROBES } from "../src/agreement/probeSet.js";
import { findBuiltInTarget } from "../src/targets/registry.js";
import { opencodeToolCall } from "../src/targets/runtimes/opencodeCli.js";
import { qwenToolCall } from "../src/targets/runtimes/qwenCli.js";
import { geminiToolCall } from "../src/targets/runtimes/geminiCore.js";
import { startScriptedModel } from "../src/targets/runtimes/scriptedModel.js";
import type { PromptObservation } from "../src/targets/runtimes/drivenRuntime.js";

const probe = (id: string) => {
  const p = PROBES.find((x) => x.id === id);
  if (p === undefined) throw new Error(`no probe ${id}`);
  return p;
};
const model = (name: string) => {
  const t = findBuiltInTarget(name);
  if (t === undefined) throw new Error(`no target ${name}`);
  return t;
};

describe("the pinned probe set", () => {
  it("has at least 30 probes with unique ids and unique call ids, covering parallel calls, errors, changing results and prompts", () => {
    expect(PROBES.length).toBeGreaterThanOrEqual(30);
    expect(new Set(PROBES.map((p) => p.id)).size).toBe(PROBES.length);
    for (const p of PROBES) {
      const ids = p.script.prompts.flat().flatMap((s) => s.calls.map((c) => c.id));
      expect(new Set(ids).size, p.id).toBe(ids.length);
    }
    expect(PROBES.some((p) => p.script.prompts.flat().some((s) => s.calls.length >= 3))).toBe(true);
    expect(PROBES.some((p) => p.script.prompts.length >= 2)).toBe(true);
    expect(PROBES.some((p) => p.script.prompts.flat().some((s) => s.writes !== undefined))).toBe(true);
    expect(PROBES.some((p) => p.script.prompts.flat().some((s) => s.calls.some((c) => c.action.kind === "read" && c.action.file === "missing.txt")))).toBe(true);
  });
});

describe("probes on the models", () => {
  it("opencode's model stops 3 identical parallel calls in one response, never 3 across responses", () => {
    const parallel = runProbeOnTarget(model("opencode"), { toolCall: opencodeToolCall }, probe("parallel-3").script);
    expect(parallel[0]?.stoppedAtStep).toBe(0);
    const sequential = runProbeOnTarget(model("opencode"), { toolCall: opencodeToolCall }, probe("repeat-8").script);
    expect(sequential[0]?.stoppedAtStep).toBeNull();
    expect(Object.values(sequential[0]?.fates ?? {})).toEqual(Array.from({ length: 8 }, () => "ran"));
  });
  it("qwen-code's model stops in the 5th response, per prompt", () => {
    expect(runProbeOnTarget(model("qwen-code"), { toolCall: qwenToolCall }, probe("repeat-6").script)[0]?.stoppedAtStep).toBe(4);
    expect(runProbeOnTarget(model("qwen-code"), { toolCall: qwenToolCall }, probe("prompts-4-2").script).map((o) => o.stoppedAtStep)).toEqual([null, null]);
    expect(runProbeOnTarget(model("qwen-code"), { toolCall: qwenToolCall }, probe("git-overview-9").script)[0]?.stoppedAtStep).toBe(7);
  });
  it("gemini-cli's model refuses the 5th identical call and stops at the 6th", () => {
    const [obs] = runProbeOnTarget(model("gemini-cli"), { toolCall: geminiToolCall }, probe("repeat-6").script);
    expect(obs?.fates).toMatchObject({ call_p1s5c1: "refused", call_p1s6c1: "not-run" });
    expect(obs?.stoppedAtStep).toBe(5);
  });
  it("is deterministic", () => {
    for (const p of PROBES) expect(runProbeOnTarget(model("cline"), { toolCall: qwenToolCall }, p.script)).toEqual(runProbeOnTarget(model("cline"), { toolCall: qwenToolCall }, p.script));
  });
});

describe("comparing observations", () => {
  const obs = (fates: Record<string, PromptObservation["fates"][string]>, stoppedAtStep: number | null, warnings: number[] = []): PromptObservation => ({ fates, stoppedAtStep, warnings: warnings.map((afterStep) => ({ afterStep, text: "loop" })) });
  it("finds no difference in identical observations", () => {
    expect(differences([obs({ call_p1s1c1: "ran" }, null)], [obs({ call_p1s1c1: "ran" }, null)])).toEqual([]);
  });
  it("names a different stop, fate and warning", () => {
    const found = differences([obs({ call_p1s1c1: "ran", call_p1s2c1: "refused" }, null, [0])], [obs({ call_p1s1c1: "ran", call_p1s2c1: "ran" }, 1)]);
    expect(found.map((d) => d.what)).toEqual(["stop", "call call_p1s2c1", "warnings after responses"]);
  });
  it("in the response where the run stopped, compares only the calls the model says did not run", () => {
    const m = obs({ call_p1s1c1: "ran", call_p1s1c2: "ran", call_p1s1c3: "not-run" }, 0);
    expect(differences([m], [obs({ call_p1s1c1: "not-run", call_p1s1c2: "not-run", call_p1s1c3: "not-run" }, 0)])).toEqual([]);
    expect(differences([m], [obs({ call_p1s1c1: "ran", call_p1s1c2: "ran", call_p1s1c3: "ran" }, 0)]).map((d) => d.what)).toEqual(["call call_p1s1c3"]);
  });
  it("names a prompt that one side never reached", () => {
    expect(differences([obs({}, null), obs({}, null)], [obs({}, null)])).toHaveLength(1);
  });
});

describe("the scripted model endpoint", () => {
  it("answers requests that offer tools with the next step's calls, others with text, streaming or not, on its unix socket", async () => {
    const socketPath = join(tempDir(), "model.sock");
    const model = await startScriptedModel({ socketPath, baseUrl: "http://127.0.0.1:18080/v1" });
    try {
      expect(model.baseUrl).toBe("http://127.0.0.1:18080/v1");
      let before = 0;
      model.load([{ calls: [{ id: "c1", name: "read", args: { path: "a" } }, { id: "c2", name: "read", args: { path: "a" } }], beforeServe: () => before++ }]);
      const post = (body: object) => postOverSocket(socketPath, "/v1/chat/completions", JSON.stringify(body));
      const title = (await (await post({ model: "m", messages: [{ role: "user", content: "title?" }] })).json()) as { choices: { message: { content: string } }[] };
      expect(title.choices[0]?.message.content).toBe("Done.");
      const streamed = await (await post({ model: "m", stream: true, tools: [{ type: "function" }], messages: [{ role: "user", content: "go" }] })).text();
      const chunks = streamed.split("\n\n").filter((l) => l.startsWith("data: {")).map((l) => JSON.parse(l.slice(6)) as { choices: { delta: { tool_calls?: { id: string; function: { arguments: string } }[] }; finish_reason: string | null }[] });
      const calls = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
      expect(calls.map((c) => c.id)).toEqual(["c1", "c2"]);
      expect(JSON.parse(calls[0]?.function.arguments ?? "")).toEqual({ path: "a" });
      expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("tool_calls");
      expect(streamed.trim().endsWith("data: [DONE]")).toBe(true);
      expect(before).toBe(1);
      const after = (await (await post({ model: "m", tools: [{ type: "function" }], messages: [{ role: "user", content: "go" }, { role: "tool", content: "x" }, { role: "user", content: "You repeat yourself: loop" }] })).json()) as { choices: { finish_reason: string }[] };
      expect(after.choices[0]?.finish_reason).toBe("stop");
      expect(model.served()).toBe(1);
      expect(model.requests.map((r) => r.servedStep)).toEqual([undefined, 0, undefined]);
    } finally {
      await model.close();
    }
  });
});

/** A POST over a unix socket, answered like fetch's Response for what the test reads. */
function postOverSocket(socketPath: string, path: string, body: string): Promise<{ json(): Promise<unknown>; text(): Promise<string> }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path, method: "POST", headers: { "content-type": "application/json" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        resolve({ json: async () => JSON.parse(text) as unknown, text: async () => text });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}
