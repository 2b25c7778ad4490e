// The logging trap: releases log every detection to /tmp/openclaw and the console (up to 2.17 on
// stdout), and read ~/.openclaw/openclaw.json. Pointing OPENCLAW_CONFIG_PATH at a config of our
// own with silent logging, before the first import, silences every release and keeps a user's
// own config from changing results. HOME and the state folder point into the cache (or, when the
// cache is read-only, a private tmp folder), so nothing a release writes lands in the user's home.
import { existsSync, mkdirSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isMainThread } from "node:worker_threads";
import { privateSandboxDir, sandboxDir } from "../sandbox.js";
import { cacheRoot } from "./cache.js";

/**
 * The folder a release's logger makes when its module loads, whatever its config says (2026.3.22 to
 * 2026.8.1: resolveDefaultLogDir calls resolvePreferredOpenClawTmpDir at load, and no variable moves it).
 * With logging.file pointed into the sandbox (below) nothing is written in it, but it stays.
 */
const RELEASE_TMP_DIR = "/tmp/openclaw";

/**
 * Removed when this process exits or is stopped (Ctrl-C, SIGTERM, SIGHUP), if it was not there
 * before any release loaded (checked when this module loads, in the main thread, which loads a
 * target before it starts any worker or child) and it is still empty: a folder of the user's own
 * OpenClaw, or one holding anything, is never touched (rmdir refuses a folder that is not empty).
 */
function removeReleaseTmpDir(): void {
  try {
    rmdirSync(RELEASE_TMP_DIR);
  } catch {
    // Not there, not empty, or not ours to remove: left as it is.
  }
}
if (isMainThread && process.platform !== "win32" && !existsSync(RELEASE_TMP_DIR)) {
  process.once("exit", removeReleaseTmpDir);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      removeReleaseTmpDir();
      // Another handler (a report's partial write, the driven runtimes' stop) ends the process its
      // own way; alone, this one ends it as the signal would have.
      if (process.listenerCount(signal) === 0) process.exit(signal === "SIGINT" ? 130 : 143);
    });
  }
}

function sandbox(privateOnly: boolean): string {
  const dir = privateOnly ? privateSandboxDir("openclaw-sandbox") : sandboxDir("openclaw-sandbox");
  mkdirSync(join(dir, "home"), { recursive: true });
  mkdirSync(join(dir, "state"), { recursive: true });
  // logging.file: without it the logger makes /tmp/openclaw for its rolling file even when silent.
  const config = { logging: { level: "silent", consoleLevel: "silent", file: join(dir, "openclaw.log") } };
  writeFileSync(join(dir, "openclaw.json"), JSON.stringify(config) + "\n");
  return dir;
}

export function silencingVariables(privateOnly = false): Record<string, string> {
  const dir = sandbox(privateOnly);
  return {
    OPENCLAW_CONFIG_PATH: join(dir, "openclaw.json"),
    OPENCLAW_LOG_LEVEL: "silent",
    OPENCLAW_STATE_DIR: join(dir, "state"),
    HOME: join(dir, "home"),
    // The cache as this process resolved it, before HOME moved: a child loopsim starts after a
    // release loaded (a driven runtime, a replay) would otherwise look for its cache under the
    // sandbox's HOME and find nothing.
    LOOPSIM_CACHE: cacheRoot(),
  };
}

/** The environment for a child process that imports a release. */
export function silencingEnv(): NodeJS.ProcessEnv {
  return { ...process.env, ...silencingVariables() };
}

let applied = false;

/**
 * Sets the variables in this process, before a release is first imported. A local build asks for
 * a private sandbox (in tmp, removed at exit): it must never write to the cache.
 */
export function silenceThisProcess(privateOnly = false): void {
  if (applied) return;
  Object.assign(process.env, silencingVariables(privateOnly));
  applied = true;
}
