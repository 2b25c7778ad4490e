// Cline's second prompt: its 3.0 CLI resumes a session (--id) only interactively, so later prompts
// go through its ACP mode (session/load, session/prompt) with loopsim's client. The reading of
// that client's output is pinned on a small fixture; the real CLI, when cached, runs a probe with
// two prompts end to end (CI does not fetch it: ~150 MB).
import { describe, expect, it } from "vitest";
import { checkAgreement, drivenSubject } from "../src/agreement/agreement.js";
import { PROBES } from "../src/agreement/probeSet.js";
import { cacheRoot } from "../src/targets/openclaw/cache.js";
import { findBuiltInTarget } from "../src/targets/registry.js";
import { observeCline } from "../src/targets/runtimes/clineCli.js";
import { isDrivenRuntimeCached, loadDrivenRuntime } from "../src/targets/runtimes/drivenRuntimes.js";
import { drivenRuntimeRefOf } from "../src/targets/targetRef.js";
import { sandboxUnavailable } from "../src/targets/runtimes/osSandbox.js";
import type { Target } from "../src/targets/target.js";

const CLINE = "cline@3.0.65";
const noSandbox = sandboxUnavailable();
const haveCline = isDrivenRuntimeCached(drivenRuntimeRefOf(CLINE)) && noSandbox === undefined;
if (!haveCline) console.log(`SKIPPED: the ${CLINE} resume test: ${noSandbox ?? `it is not in the cache (${cacheRoot()}); fetch it with: loopsim targets fetch ${CLINE}`}`);

const update = (sessionUpdate: string, toolCallId: string, status: string, rawOutput: unknown = "ok") => JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update: { sessionUpdate, toolCallId, status, rawOutput } } });
const run = (lines: string[], exitCode = 0) => ({ exitCode, signal: undefined, stdout: lines.join("\n") + "\n", stderr: "", stepCalls: [["call_p2s1c1"], ["call_p2s2c1"]], served: 2, requests: [] });

describe("Cline's resumed prompt, read from loopsim's ACP client", () => {
  it("takes each call's fate from its tool_call_update; the replayed history of prompt 1 is not this prompt's", () => {
    const lines = [update("tool_call_update", "call_p1s1c1", "completed"), JSON.stringify({ jsonrpc: "2.0", id: 2, result: {} }), update("tool_call", "call_p2s1c1", "pending"), update("tool_call_update", "call_p2s1c1", "completed"), update("tool_call_update", "call_p2s2c1", "completed"), JSON.stringify({ loopsim: "done", result: { stopReason: "end_turn" } })];
    expect(observeCline(run(lines))).toEqual({ fates: { call_p2s1c1: "ran", call_p2s2c1: "ran" }, stoppedAtStep: null, warnings: [] });
  });
  it("reads its loop stop from the agent's error, and says why when the client failed", () => {
    const stop = [update("tool_call_update", "call_p2s1c1", "completed"), JSON.stringify({ loopsim: "done", error: { message: "Detected 5 consecutive identical calls to read_files; stopping to avoid a loop" } })];
    expect(observeCline(run(stop, 1))).toMatchObject({ stoppedAtStep: 1, stopMessage: "Detected 5 consecutive identical calls to read_files; stopping to avoid a loop" });
    expect(observeCline(run([JSON.stringify({ loopsim: "done", error: "cline --acp exited (1) before the prompt ended" })], 1))).toMatch(/^exit 1 without a loop stop/);
  });
});

describe.skipIf(!haveCline)(`${CLINE} driven: a second prompt`, () => {
  it("resumes the session and its model agrees on prompts-4-2", { timeout: 240_000 }, async () => {
    const runtime = await loadDrivenRuntime(drivenRuntimeRefOf(CLINE), () => undefined);
    const report = await checkAgreement(findBuiltInTarget("cline") as Target, drivenSubject(runtime, 1), PROBES.filter((p) => p.id === "prompts-4-2"));
    expect(report.probes.map((p) => [p.probe, p.verdict, p.reason ?? p.differences])).toEqual([["prompts-4-2", "agree", []]]);
  });
});
