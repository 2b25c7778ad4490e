// Recorded sessions driven through Cline's CLI: the recorded agents' calls go to Cline's own tool
// for the same work (mini-swe-agent's `bash` has no counterpart by that name in Cline 3.0, and
// three rejected turns end its run), one to one; a run Cline aborts says its own last error. The
// mapping and the reading are pinned here; the real CLI, when cached, replays a short mini-swe-agent
// style session and stops where its model does (CI does not fetch it: ~150 MB).
import { describe, expect, it } from "vitest";
import { configFrom } from "../models/configResolution.js";
import { cacheRoot } from "../src/targets/openclaw/cache.js";
import { CLINE_TARGET } from "../src/targets/peers/cline.js";
import { observeCline } from "../src/targets/runtimes/clineCli.js";
import { clineRecordedCall } from "../src/targets/runtimes/clineRecordedCalls.js";
import { isDrivenRuntimeCached, loadDrivenRuntime } from "../src/targets/runtimes/drivenRuntimes.js";
import { sandboxUnavailable } from "../src/targets/runtimes/osSandbox.js";
import { runTarget } from "../src/targets/target.js";
import { outputsFromObservations, planTrace } from "../src/targets/runtimes/traceScript.js";
import { drivenRuntimeRefOf } from "../src/targets/targetRef.js";
import { callKey, recordedBashSession } from "./fixtures/recordedBashSession.js";

const CLINE = "cline@3.0.65";
const noSandbox = sandboxUnavailable();
const haveCline = isDrivenRuntimeCached(drivenRuntimeRefOf(CLINE)) && noSandbox === undefined;
if (!haveCline) console.log(`SKIPPED: ${CLINE} replaying a recorded bash session: ${noSandbox ?? `it is not in the cache (${cacheRoot()}); fetch it with: loopsim targets fetch ${CLINE}`}`);

/** Key-sorted JSON, as Cline's loop tracker and its model compare calls. */
const key = callKey;

describe("a recorded call as Cline runs it", () => {
  it("goes to Cline's own tool for the same command, file, lines or text", () => {
    expect(clineRecordedCall("bash", { command: "ls -la" })).toEqual({ name: "run_commands", args: { commands: ["ls -la"] } });
    expect(clineRecordedCall("print_code_context", { file_path: "a.py", lines: [3, 9] })).toEqual({ name: "read_files", args: { files: [{ path: "a.py", start_line: 3, end_line: 9 }] } });
    expect(clineRecordedCall("code_replace", { file_path: "a.py", old_code: "x", new_code: "y" })).toEqual({ name: "editor", args: { path: "a.py", old_text: "x", new_text: "y" } });
    expect(clineRecordedCall("code_insert", { file_path: "a.py", line_number: 4, new_code: "y" })).toEqual({ name: "editor", args: { path: "a.py", insert_line: 4, new_text: "y" } });
    expect(clineRecordedCall("save_code_to_file", { file_path: "a.py", code: "y" })).toEqual({ name: "editor", args: { path: "a.py", new_text: "y" } });
  });

  it("goes as recorded when its args are not exactly the tool's, or the tool has no counterpart", () => {
    const asRecorded: [string, unknown][] = [
      ["bash", { command: { expr: "cmd" } }],
      ["bash", { command: "ls", timeout: 3 }],
      ["bash", null],
      ["bash", undefined],
      ["print_code_context", { file_path: "a.py", lines: [3] }],
      ["get_user_details", { user_id: "u1" }],
      ["toString", {}],
    ];
    for (const [name, args] of asRecorded) expect(clineRecordedCall(name, args)).toEqual({ name, args });
  });

  it("is one to one: equal recorded calls stay equal, different ones stay different", () => {
    const calls: [string, unknown][] = [
      ["bash", { command: "ls" }],
      ["bash", { command: "ls " }],
      ["run_commands", { commands: ["pwd"] }],
      ["save_code_to_file", { file_path: "a.py", code: "y" }],
      ["code_replace", { file_path: "a.py", old_code: "", new_code: "y" }],
      ["code_insert", { file_path: "a.py", line_number: 1, new_code: "y" }],
      ["print_code_context", { file_path: "a.py", lines: [1, 2] }],
      ["print_code_context", { lines: [1, 2], file_path: "a.py" }],
    ];
    const recorded = calls.map(([name, args]) => key({ name, args }));
    const mapped = calls.map(([name, args]) => key(clineRecordedCall(name, args)));
    for (let i = 0; i < calls.length; i++) for (let j = 0; j < calls.length; j++) expect(mapped[i] === mapped[j]).toBe(recorded[i] === recorded[j]);
  });
});

describe("a Cline run that aborts before the script ends", () => {
  it("says Cline's own last error, not the AI SDK's stack line on stderr", () => {
    const error = (iteration: number) => JSON.stringify({ type: "agent_event", event: { type: "error", error: { name: "Error", message: "1 tool call(s) failed: [bash] Tool call bash was rejected before execution: AI_NoSuchToolError" }, recoverable: true, iteration } });
    const stdout = [error(1), error(2), error(3), JSON.stringify({ type: "agent_event", event: { type: "done", reason: "aborted", iterations: 3 } })].join("\n") + "\n";
    const run = { exitCode: 0, signal: undefined, stdout, stderr: "      at transform (/$bunfs/root/chunk.js:44:43027)\n", stepCalls: [["a"], ["b"], ["c"], ["d"]], served: 3, requests: [] };
    expect(observeCline(run)).toBe("the runtime ended after 3 of 4 responses without a loop stop: cline aborted the run on its consecutive-mistake limit (3 turns in a row whose every call failed); its last error: 1 tool call(s) failed: [bash] Tool call bash was rejected before execution: AI_NoSuchToolError");
  });
});

/** mini-swe-agent's calls as imported: `bash` with the command; the third command five times more. */
const bashSession = () => recordedBashSession(["ls -la", "cat setup.py", ...Array.from({ length: 6 }, () => "grep -n foo bar.py"), "echo done"]);

describe.skipIf(!haveCline)(`${CLINE} replaying a recorded bash session`, () => {
  it("runs the recorded commands and stops at the 5th identical one, where its model stops", { timeout: 120_000 }, async () => {
    const events = bashSession();
    const config = configFrom({ enabled: true });
    // Driven in this process (the driven target's child runs from dist/), read as the target reads it.
    const runtime = await loadDrivenRuntime(drivenRuntimeRefOf(CLINE), () => undefined);
    const plan = planTrace(events);
    const observed = await runtime.drive(plan.script);
    if (!observed.ok) throw new Error(observed.error);
    const driven = outputsFromObservations(CLINE, events, plan, observed.prompts);
    const stopOf = (outputs: readonly { kind: string; index: number }[]) => outputs.find((o) => o.kind === "abort")?.index;
    // The outcome of the 5th identical call (call 6: events 12 and 13).
    expect(stopOf(driven)).toBe(13);
    expect(stopOf(driven)).toBe(stopOf(runTarget(CLINE_TARGET, config, events)));
  });
});
