// Driven CLI runs kept and reused (src/targets/runtimes/drivenRunCache.ts, LOOPSIM_DRIVEN_RUNS): a
// run is reused only when the runtime, the script and the driving code are the same; a run that
// did not finish, a file that cannot be read, or one kept for another runtime is a miss; the code
// digest follows imports (an imported module or a package version changes it, a file nobody
// imports does not); and a driven target with a kept run answers from it without starting any CLI.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolEvent } from "../models/events.js";
import { DEFAULT_CONFIG } from "../models/config.js";
import { codeDigestFrom, DRIVEN_RUNS_VARIABLE, drivenRunStore, drivenRunStoreFromEnv, runKey } from "../src/targets/runtimes/drivenRunCache.js";
import type { DrivenObservation, DrivenScript } from "../src/targets/runtimes/drivenRuntime.js";
import { drivenTarget } from "../src/targets/runtimes/drivenTarget.js";
import { planTrace } from "../src/targets/runtimes/traceScript.js";
import { tempDir, tempFile } from "./cli/run.js";

const script = (command: string): DrivenScript => ({ files: {}, prompts: [[{ calls: [{ id: "call_p1s1c1", action: { kind: "raw", name: "bash", args: { command } } }] }]] });
const ran: DrivenObservation = { ok: true, prompts: [{ fates: { call_p1s1c1: "ran" }, stoppedAtStep: null, warnings: [] }] };

describe("driven runs kept and reused", () => {
  it("keys a run by runtime, script and driving code, and only by them", () => {
    const key = runKey("kilo@7.7.9", script("ls"), "code-a");
    expect(runKey("kilo@7.7.9", script("ls"), "code-a")).toBe(key);
    expect(new Set([key, runKey("kilo@7.7.7", script("ls"), "code-a"), runKey("kilo@7.7.9", script("ls -a"), "code-a"), runKey("kilo@7.7.9", script("ls"), "code-b")]).size).toBe(4);
  });

  it("gives back a finished run, never one that failed, one kept for another runtime, or a file it cannot read", () => {
    const dir = tempDir();
    let code = "code-a";
    const store = drivenRunStore(dir, () => code);
    store.put("qwen-code@0.24.4", script("ls"), ran);
    store.put("qwen-code@0.24.4", script("pwd"), { ok: false, error: "the driven run did not finish" });
    expect(store.get("qwen-code@0.24.4", script("ls"))).toEqual(ran);
    expect(store.get("qwen-code@0.24.4", script("pwd"))).toBeUndefined();
    expect(store.get("opencode@1.18.33", script("ls"))).toBeUndefined();
    code = "code-b";
    expect(store.get("qwen-code@0.24.4", script("ls")), "loopsim's driving code changed: drive it again").toBeUndefined();
    writeFileSync(join(dir, `${runKey("qwen-code@0.24.4", script("ls"), "code-b")}.json`), "{ half a file");
    expect(store.get("qwen-code@0.24.4", script("ls"))).toBeUndefined();
  });

  it("digests the code the child imports, with its packages' versions, and nothing else", () => {
    const root = tempDir();
    const write = (path: string, text: string) => {
      mkdirSync(join(root, path, ".."), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    write("dist/main.js", 'import { a } from "./a.js";\nimport { execa } from "execa";\nimport { join } from "node:path";\nconst later = () => import("./later.js");\n');
    write("dist/a.js", "export const a = 1;\n");
    write("dist/later.js", "export const later = 1;\n");
    write("dist/unused.js", "export const unused = 1;\n");
    write("node_modules/execa/package.json", '{"version": "9.6.0"}');
    const entry = join(root, "dist/main.js");
    const before = codeDigestFrom(entry);
    write("dist/unused.js", "export const unused = 2;\n");
    expect(codeDigestFrom(entry), "a file the child does not import").toBe(before);
    write("dist/later.js", "export const later = 2;\n");
    const afterImport = codeDigestFrom(entry);
    expect(afterImport, "a module the child imports dynamically").not.toBe(before);
    write("node_modules/execa/package.json", '{"version": "9.6.1"}');
    expect(codeDigestFrom(entry), "a package the child imports, at another version").not.toBe(afterImport);
  });

  it("is off unless LOOPSIM_DRIVEN_RUNS names a folder, and refuses a file there", () => {
    expect(drivenRunStoreFromEnv({})).toBeUndefined();
    expect(drivenRunStoreFromEnv({ [DRIVEN_RUNS_VARIABLE]: "" })).toBeUndefined();
    const file = tempFile("runs", "not a folder");
    expect(() => drivenRunStoreFromEnv({ [DRIVEN_RUNS_VARIABLE]: file })).toThrow(`${DRIVEN_RUNS_VARIABLE}=${file}: exists and is not a folder`);
  });

  describe("a driven target with a kept run", () => {
    let saved: string | undefined;
    beforeEach(() => {
      saved = process.env[DRIVEN_RUNS_VARIABLE];
    });
    afterEach(() => {
      if (saved === undefined) delete process.env[DRIVEN_RUNS_VARIABLE];
      else process.env[DRIVEN_RUNS_VARIABLE] = saved;
    });

    it("answers from it without starting the CLI (the runtime named here exists nowhere)", async () => {
      const events: ToolEvent[] = [
        { type: "call", runId: "r1", callId: "c0", tool: "bash", params: { command: "ls" } },
        { type: "outcome", runId: "r1", callId: "c0", tool: "bash", params: { command: "ls" }, result: "a.py" },
        { type: "call", runId: "r1", callId: "c1", tool: "bash", params: { command: "ls" } },
        { type: "outcome", runId: "r1", callId: "c1", tool: "bash", params: { command: "ls" }, result: "a.py" },
      ];
      const runtime = "qwen-code@0.0.0-nowhere";
      const dir = tempDir();
      const plan = planTrace(events);
      const ids = plan.script.prompts.flatMap((steps) => steps.flatMap((s) => s.calls.map((c) => c.id)));
      drivenRunStore(dir).put(runtime, plan.script, { ok: true, prompts: [{ fates: Object.fromEntries(ids.map((id, k) => [id, k === 0 ? "ran" : "refused"])), stoppedAtStep: null, warnings: [] }] });
      process.env[DRIVEN_RUNS_VARIABLE] = dir;
      const target = drivenTarget(runtime, "qwen-code", "s", []);
      const sync = target.wholeTrace?.(DEFAULT_CONFIG, events) ?? [];
      const async = (await target.wholeTraceAsync?.(DEFAULT_CONFIG, events)) ?? [];
      expect(async).toEqual(sync);
      expect(sync.flatMap((o) => (o.kind === "call" ? [o.verdict] : []))).toEqual(["allow", "critical"]);
    });
  });
});
