// A worker thread's private sandbox folder (openclaw@PATH under tune --workers N or compare) goes
// when the process ends, also when the worker was terminated (its own 'exit' never fires then):
// the main thread owns the cleanup. Cheap: one worker that makes its folder and is terminated.
import { spawnSync } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "./cli/run.js";

const SANDBOX = pathToFileURL(join(import.meta.dirname, "..", "dist", "src", "targets", "sandbox.js")).href;
const SILENCE = pathToFileURL(join(import.meta.dirname, "..", "dist", "src", "targets", "openclaw", "silence.js")).href;

describe("private sandbox folders", () => {
  it("a terminated worker's folder is removed by the main thread at exit", () => {
    const tmp = tempDir();
    const workerFile = join(tempDir(), "worker.mjs");
    writeFileSync(workerFile, `import { parentPort } from "node:worker_threads";\nconst m = await import(${JSON.stringify(SANDBOX)});\nm.privateSandboxDir("openclaw-sandbox");\nparentPort.postMessage("made");\nsetInterval(() => {}, 1000);\n`);
    const script = `
      import { Worker } from "node:worker_threads";
      import { readdirSync, writeFileSync } from "node:fs";
      import { tmpdir } from "node:os";
      await import(${JSON.stringify(SANDBOX)});
      const worker = new Worker(${JSON.stringify(workerFile)}, { execArgv: [] });
      worker.on("message", async () => {
        console.log(readdirSync(tmpdir()).filter((f) => f.startsWith("loopsim-sandbox-")).length);
        await worker.terminate();
        process.exit(0);
      });
    `;
    const res = spawnSync(process.execPath, ["--input-type=module", "-e", script], { env: { ...process.env, TMPDIR: tmp }, encoding: "utf8", timeout: 30_000 });
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout.trim()).toBe("1");
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("silencing a release moves HOME into the sandbox but pins the cache, so a child loopsim started after it finds the same cache", () => {
    // In a child: silencing changes this process's environment. No LOOPSIM_CACHE given: the cache
    // is the user's (XDG_CACHE_HOME/loopsim), which the sandbox's HOME would otherwise hide.
    const xdg = tempDir();
    const script = `
      const m = await import(${JSON.stringify(SILENCE)});
      m.silenceThisProcess();
      console.log(JSON.stringify({ home: process.env.HOME, cache: process.env.LOOPSIM_CACHE }));
    `;
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: xdg };
    delete env.LOOPSIM_CACHE;
    const res = spawnSync(process.execPath, ["--input-type=module", "-e", script], { env, encoding: "utf8", timeout: 30_000 });
    expect(res.status, res.stderr).toBe(0);
    const seen = JSON.parse(res.stdout) as { home: string; cache: string };
    expect(seen.cache).toBe(join(xdg, "loopsim"));
    expect(seen.home.startsWith(join(xdg, "loopsim"))).toBe(true);
  });
});
