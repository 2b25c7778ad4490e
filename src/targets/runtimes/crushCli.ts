// Crush's CLI (npm @charmland/crush): the npm package is GoReleaser's installer, which downloads
// the Go binary from the project's GitHub releases (checksum-pinned in its package.json) when it
// is installed or first run. loopsim fetches it the same way: npm installs the package, then its
// own installer runs. Where GitHub cannot be reached (this machine) the fetch fails and says so.
// Driven as `crush run --quiet` with the scripted model as an OpenAI-compatible provider in the
// scratch folder's crush.json. It prints only the final text, so what ran is read from what came
// back to the model: a call ran when its result is in a later request; a prompt that ends, exit 0,
// before its script is served was stopped by the loop condition (Crush's stop leaves no other mark).
// Written from its source; never run here (no binary).
import { execFile } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { UserError } from "../../io/errors.js";
import type { CliAdapter, CliInvocation, CliRun } from "./cliDriver.js";
import { lastLine, PROMPT_TEXT } from "./cliDriver.js";
import { namedToolCall, type ProbeAction, type PromptObservation } from "./drivenRuntime.js";
import { ObservedFates } from "./observedFates.js";
import { npmEnv } from "./packageCache.js";

export const CRUSH_PACKAGE = "@charmland/crush";
const PACKAGE_DIR = join("node_modules", "@charmland", "crush");

export function crushToolCall(action: ProbeAction, work: string): { name: string; args: unknown } {
  return namedToolCall(action, work, { read: "view", pathKey: "file_path", shell: "bash" });
}

/** Runs the package's own installer (it downloads the binary); a failure says what it could not reach. */
export async function runCrushInstaller(dir: string, version: string): Promise<void> {
  const packageDir = join(dir, PACKAGE_DIR);
  try {
    await promisify(execFile)(process.execPath, ["install.js"], { cwd: packageDir, env: npmEnv(), timeout: 5 * 60_000 });
  } catch (error) {
    const text = `${(error as { stderr?: string }).stderr ?? ""} ${(error as Error).message}`;
    const host = /ENOTFOUND\s+(\S+)|getaddrinfo \S+ (\S+)/.exec(text);
    const why = host !== null ? `cannot reach ${host[1] ?? host[2]} (${/E[A-Z_]+/.exec(text)?.[0] ?? "network error"})` : lastLine(text);
    throw new UserError(`crush@${version}: ${CRUSH_PACKAGE} ships no binary on the npm registry; its installer downloads it from the project's GitHub releases, and it ${why}`);
  }
  if (!existsSync(join(packageDir, "bin", "crush"))) throw new UserError(`crush@${version}: its installer ran but left no bin/crush`);
}

export function crushAdapter(installDir: string): CliAdapter {
  const binary = join(installDir, PACKAGE_DIR, "bin", "crush");
  return {
    toolCall: crushToolCall,
    invocation({ baseUrl, work, home, prompt }): CliInvocation {
      const config = {
        $schema: "https://charm.land/crush.json",
        providers: { loopsim: { type: "openai-compat", base_url: baseUrl, api_key: "loopsim", models: [{ id: "scripted", name: "scripted", context_window: 0, default_max_tokens: 1024 }] } },
        models: { large: { provider: "loopsim", model: "scripted" }, small: { provider: "loopsim", model: "scripted" } },
        options: { disable_metrics: true, disable_provider_auto_update: true },
        permissions: { allowed_tools: ["view", "bash"] },
      };
      writeFileSync(join(work, "crush.json"), JSON.stringify(config, null, 2) + "\n");
      return {
        file: binary,
        args: ["run", "--quiet", ...(prompt > 0 ? ["--continue"] : []), PROMPT_TEXT],
        env: { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_DATA_HOME: join(home, ".local/share"), CRUSH_DISABLE_METRICS: "1", CRUSH_DISABLE_PROVIDER_AUTO_UPDATE: "1", NO_COLOR: "1" },
        readOnly: [installDir],
      };
    },
    observe: observeCrush,
  };
}

export function observeCrush(run: CliRun): PromptObservation | string {
  const fates = new ObservedFates(run);
  for (const request of run.requests) {
    for (const message of request.messages) {
      const id = (message as { role?: unknown; tool_call_id?: unknown }).tool_call_id;
      if ((message as { role?: unknown }).role === "tool" && typeof id === "string" && fates.scripted(id)) fates.set(id, "ran");
    }
  }
  if (run.exitCode !== 0) return `exit ${run.exitCode ?? run.signal}: ${lastLine(run.stderr)}`;
  const scripted = run.stepCalls.length;
  // Stopped: it ended before asking for the rest of its script (the last served step's calls ran).
  if (run.served < scripted) {
    for (const id of run.stepCalls[run.served - 1] ?? []) fates.set(id, "ran");
    return fates.stopped("the agent stopped before its next response (loop condition)", run.served);
  }
  return fates.ranThrough();
}
