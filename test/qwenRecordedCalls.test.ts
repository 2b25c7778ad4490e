// Recorded sessions driven through Qwen Code's CLI: the recorded agents' calls go to Qwen's own
// tool for the same work (sent raw, qwen-code@0.24.4 answers a recorded `bash` call "not found in
// registry" and runs nothing), one to one. The mapping is pinned here; the real CLI, when cached,
// replays a short mini-swe-agent style session, runs every recorded command and stops where its
// model does (CI does not fetch it).
import { describe, expect, it } from "vitest";
import { configFrom } from "../models/configResolution.js";
import { cacheRoot } from "../src/targets/openclaw/cache.js";
import { QWEN_CODE_TARGET } from "../src/targets/peers/qwenCode.js";
import { driveCli, type CliRun } from "../src/targets/runtimes/cliDriver.js";
import { isDrivenRuntimeCached } from "../src/targets/runtimes/drivenRuntimes.js";
import { sandboxUnavailable } from "../src/targets/runtimes/osSandbox.js";
import { runtimeDir } from "../src/targets/runtimes/packageCache.js";
import { qwenAdapter, qwenToolCall } from "../src/targets/runtimes/qwenCli.js";
import { qwenRecordedCall } from "../src/targets/runtimes/qwenRecordedCalls.js";
import { recordedWork } from "../src/targets/runtimes/recordedCalls.js";
import { runTarget } from "../src/targets/target.js";
import { outputsFromObservations, planTrace } from "../src/targets/runtimes/traceScript.js";
import { drivenRuntimeRefOf } from "../src/targets/targetRef.js";
import { callKey, recordedBashSession } from "./fixtures/recordedBashSession.js";

const QWEN = "qwen-code@0.24.4";
const noSandbox = sandboxUnavailable();
const haveQwen = isDrivenRuntimeCached(drivenRuntimeRefOf(QWEN)) && noSandbox === undefined;
if (!haveQwen) console.log(`SKIPPED: ${QWEN} replaying a recorded bash session: ${noSandbox ?? `it is not in the cache (${cacheRoot()}); fetch it with: loopsim targets fetch ${QWEN}`}`);

const WORK = "/tmp/run-x/work";

/** Key-sorted JSON, as Qwen's loop guard and its model compare calls. */
const key = callKey;

describe("a recorded call as Qwen Code runs it", () => {
  it("goes to Qwen's own tool for the same command, file, lines or text, relative paths inside the scratch folder", () => {
    expect(qwenRecordedCall("bash", { command: "ls -la" }, WORK)).toEqual({ name: "run_shell_command", args: { command: "ls -la" } });
    expect(qwenRecordedCall("print_code_context", { file_path: "a.py", lines: [3, 9] }, WORK)).toEqual({ name: "read_file", args: { file_path: `${WORK}/a.py`, offset: 2, limit: 7 } });
    expect(qwenRecordedCall("code_replace", { file_path: "/testbed/a.py", old_code: "x", new_code: "y" }, WORK)).toEqual({ name: "edit", args: { file_path: "/testbed/a.py", old_string: "x", new_string: "y" } });
    expect(qwenRecordedCall("save_code_to_file", { file_path: "a.py", code: "y" }, `${WORK}/`)).toEqual({ name: "write_file", args: { file_path: `${WORK}/a.py`, content: "y" } });
    // Through the adapter, as a recorded trace's calls reach it.
    expect(qwenToolCall({ kind: "raw", name: "bash", args: { command: "pwd" } }, WORK)).toEqual({ name: "run_shell_command", args: { command: "pwd" } });
  });

  it("goes as recorded when its args are not exactly the tool's, or Qwen has no tool for that work", () => {
    const asRecorded: [string, unknown][] = [
      ["bash", { command: { expr: "cmd" } }],
      ["bash", { command: "ls", timeout: 3 }],
      ["bash", null],
      ["print_code_context", { file_path: "a.py", lines: [0, 4] }],
      ["print_code_context", { file_path: "a.py", lines: [5, 4] }],
      // No insert-at-line tool in Qwen Code.
      ["code_insert", { file_path: "a.py", line_number: 4, new_code: "y" }],
      ["get_user_details", { user_id: "u1" }],
      ["run_shell_command", { command: "ls" }],
    ];
    for (const [name, args] of asRecorded) expect(qwenRecordedCall(name, args, WORK)).toEqual({ name, args });
  });

  it("is one to one: equal recorded calls stay equal, different ones stay different", () => {
    const calls: [string, unknown][] = [
      ["bash", { command: "ls" }],
      ["bash", { command: "ls " }],
      ["run_shell_command", { command: "pwd" }],
      ["save_code_to_file", { file_path: "a.py", code: "y" }],
      ["save_code_to_file", { file_path: "./a.py", code: "y" }],
      ["save_code_to_file", { file_path: "b/../a.py", code: "y" }],
      ["code_replace", { file_path: "a.py", old_code: "", new_code: "y" }],
      ["code_insert", { file_path: "a.py", line_number: 1, new_code: "y" }],
      ["print_code_context", { file_path: "a.py", lines: [1, 2] }],
      ["print_code_context", { lines: [1, 2], file_path: "a.py" }],
      ["print_code_context", { file_path: "a.py", lines: [2, 3] }],
    ];
    const recorded = calls.map(([name, args]) => key({ name, args }));
    const mapped = calls.map(([name, args]) => key(qwenRecordedCall(name, args, WORK)));
    for (let i = 0; i < calls.length; i++) for (let j = 0; j < calls.length; j++) expect(mapped[i] === mapped[j]).toBe(recorded[i] === recorded[j]);
  });

  it("reads the work of a recorded call once, for every runtime", () => {
    expect(recordedWork("bash", { command: "ls" })).toEqual({ kind: "shell", command: "ls" });
    expect(recordedWork("code_insert", { file_path: "a.py", line_number: 2, new_code: "y" })).toEqual({ kind: "insert", file: "a.py", line: 2, code: "y" });
    expect(recordedWork("toString", {})).toBeUndefined();
    expect(recordedWork("bash", [])).toBeUndefined();
  });
});

/** mini-swe-agent's calls as imported: `bash` with the command; the third command five times more. */
const bashSession = () => recordedBashSession(["ls -la", "echo hi > f.txt", ...Array.from({ length: 6 }, () => "grep -n hi f.txt"), "echo done"]);

describe.skipIf(!haveQwen)(`${QWEN} replaying a recorded bash session`, () => {
  it("runs the recorded commands and stops at the 5th identical one, where its model stops", { timeout: 120_000 }, async () => {
    const events = bashSession();
    // Driven through the adapter as loadDrivenRuntime drives it, keeping the tool results the
    // scripted model was sent (the observation says only ran or refused).
    const adapter = qwenAdapter(runtimeDir("qwen-code", "0.24.4"));
    const runs: CliRun[] = [];
    const plan = planTrace(events);
    const observed = await driveCli({ ...adapter, observe: (run) => (runs.push(run), adapter.observe(run)) }, plan.script);
    if (!observed.ok) throw new Error(observed.error);
    const results = runs.flatMap((r) => r.requests.flatMap((q) => q.messages)).filter((m): m is { role: string; content: unknown } => typeof m === "object" && m !== null && (m as { role?: unknown }).role === "tool");
    const sent = JSON.stringify(results);
    expect(sent).not.toMatch(/not found in registry/);
    // The second command wrote f.txt in the scratch folder, and the grep found its line.
    expect(sent).toMatch(/1:hi/);
    const driven = outputsFromObservations(QWEN, events, plan, observed.prompts);
    const stopOf = (outputs: readonly { kind: string; index: number }[]) => outputs.find((o) => o.kind === "abort")?.index;
    // The 5th identical call (call 6: event 12) is stopped before it runs.
    expect(stopOf(driven)).toBe(stopOf(runTarget(QWEN_CODE_TARGET, configFrom({ enabled: true }), events)));
    expect(stopOf(driven)).toBeDefined();
  });
});
