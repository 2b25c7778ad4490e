// The logging trap: releases log every detection to /tmp/openclaw and the console (up to 2.17 on
// stdout), and read ~/.openclaw/openclaw.json. Pointing OPENCLAW_CONFIG_PATH at a config of our
// own with silent logging, before the first import, silences every release and keeps a user's
// own config from changing results. HOME and the state folder point into the cache (or, when the
// cache is read-only, a private tmp folder), so nothing a release writes lands in the user's home.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { privateSandboxDir, sandboxDir } from "../sandbox.js";

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
