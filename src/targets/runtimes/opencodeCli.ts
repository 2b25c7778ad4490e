// opencode (opencode-ai) and Kilo Code's CLI (@kilocode/cli), which ships opencode's engine: one
// compiled binary per platform, published as its own npm package, started as
// `run --format json` against the scripted model configured as an OpenAI-compatible provider.
// What happened is read from its JSON event stream (tool parts and their status; a call it rejected
// before running is told apart by its part: opencodeRejection) and, for the doom-loop guard, from
// the permission request it logs and auto-rejects in headless runs.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CliAdapter, CliRun } from "./cliDriver.js";
import { lastLine, PROMPT_TEXT } from "./cliDriver.js";
import { opencodeArgs } from "./opencodeArgs.js";
import { namedToolCall, type ProbeAction, type PromptObservation, type RawToolCall, type Rejection } from "./drivenRuntime.js";
import { ObservedFates } from "./observedFates.js";

export interface OpencodeFlavour {
  readonly runtime: "opencode" | "kilo";
  /** The platform package that holds the binary, and the binary's path inside it. */
  readonly platformPackage: string;
  /** The package users install, which names the platform packages as optional dependencies. */
  readonly wrapperPackage: string;
  readonly binary: string;
  readonly configFile: string;
}

export const OPENCODE_FLAVOUR: OpencodeFlavour = { runtime: "opencode", platformPackage: "opencode-linux-x64", wrapperPackage: "opencode-ai", binary: "package/bin/opencode", configFile: "opencode.json" };
export const KILO_FLAVOUR: OpencodeFlavour = { runtime: "kilo", platformPackage: "@kilocode/cli-linux-x64", wrapperPackage: "@kilocode/cli", binary: "package/bin/kilo", configFile: "opencode.json" };

/**
 * The permissions a replay grants. Headless `run` auto-rejects every permission it would ask for,
 * and a rejected permission ends the run, so a recorded command would end the replay long before
 * any loop: both flavours ask for `external_directory` on a path outside the workspace (a recorded
 * `cd /testbed`, `cat /etc/...`), and Kilo also asks for `bash` on any command outside its short
 * allow-list (its shipped defaults: `"*": "ask"` for bash) and opencode and Kilo for `read` of
 * `*.env` files. Those asks guard the user's machine, not the loop, and the replay runs in the
 * sandbox's throwaway root, so granting them changes nothing a user would see of the loop guard.
 * `doom_loop` is deliberately left out: it stays as shipped (asked, then auto-rejected headless),
 * which is how its stop is seen. The user's config is merged last over the shipped defaults
 * (last matching rule wins), so these keys replace only those defaults.
 * Read from the compiled binaries (opencode-linux-x64@1.18.33 bin/opencode, @kilocode/cli-linux-x64@7.7.9
 * bin/kilo): the build agent's defaults are {"*": "allow", doom_loop: "ask", external_directory:
 * {"*": "ask", <the project and tmp dirs>: "allow"}, question/plan_*: "deny", read: {"*.env": "ask"}},
 * Kilo's patch adds bash: {"*": "ask", <read-only commands, touch, mkdir, cp, mv ...>: "allow"},
 * then the config's `permission` is merged over them; `run` replies "reject" to every
 * permission.asked unless --dangerously-skip-permissions (opencode) or --auto (Kilo), which would
 * approve doom_loop too. Checked driven: a python command and `ls /etc` run on Kilo 7.7.9, and 3
 * identical parallel calls still end the run on the rejected doom_loop ask (both CLIs).
 */
export const REPLAY_PERMISSIONS = { external_directory: "allow", bash: "allow", read: "allow" } as const;

/** A probe's action in opencode's tools; a recorded call as recorded, spelled in their schema where it plainly can be (opencodeArgs.ts). */
export function opencodeToolCall(action: ProbeAction, work: string): RawToolCall {
  if (action.kind === "raw") return { name: action.name, args: opencodeArgs(action.name, action.args) };
  return namedToolCall(action, work, { read: "read", pathKey: "filePath", shell: "bash" });
}

export function opencodeAdapter(flavour: OpencodeFlavour, installDir: string): CliAdapter {
  return {
    toolCall: opencodeToolCall,
    invocation({ baseUrl, work, home, prompt }) {
      const config = {
        $schema: "https://opencode.ai/config.json",
        provider: { loopsim: { npm: "@ai-sdk/openai-compatible", name: "loopsim scripted model", options: { baseURL: baseUrl, apiKey: "loopsim" }, models: { scripted: { name: "scripted", tool_call: true } } } },
        model: "loopsim/scripted",
        small_model: "loopsim/scripted",
        autoupdate: false,
        share: "disabled",
        permission: REPLAY_PERMISSIONS,
      };
      writeFileSync(join(work, flavour.configFile), JSON.stringify(config, null, 2) + "\n");
      const xdg = (sub: string) => join(home, sub);
      return {
        file: join(installDir, flavour.binary),
        readOnly: [installDir],
        args: ["run", "--format", "json", "--model", "loopsim/scripted", ...(prompt > 0 ? ["--continue"] : []), PROMPT_TEXT],
        env: {
          HOME: home,
          XDG_CONFIG_HOME: xdg(".config"),
          XDG_DATA_HOME: xdg(".local/share"),
          XDG_CACHE_HOME: xdg(".cache"),
          XDG_STATE_HOME: xdg(".local/state"),
          OPENCODE_DISABLE_AUTOUPDATE: "1",
          OPENCODE_DISABLE_MODELS_FETCH: "1",
          OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
          KILO_DISABLE_AUTOUPDATE: "1",
          KILO_DISABLE_MODELS_FETCH: "1",
          KILO_TELEMETRY_DISABLED: "1",
        },
      };
    },
    observe: observeOpencode,
  };
}

export interface ToolPart {
  readonly callID?: string;
  readonly tool?: string;
  readonly state?: { readonly status?: string; readonly error?: unknown; readonly input?: unknown };
}

const UNAVAILABLE = /^Model tried to call unavailable tool /;

/**
 * Whether opencode or Kilo rejected a call before running it, from its tool part (read from
 * opencode 1.18.33 and Kilo 7.7.9, run driven). opencode hands a call it cannot take to its
 * `invalid` tool, which completes: `{"tool": "invalid", "state": {"status": "completed", "input":
 * {"tool": "bash", "error": "Model tried to call unavailable tool 'bash'. Available tools: ..."}}}`
 * (for input the SDK's schema refuses, that error is the SDK's own). Kilo ends a tool it lacks as
 * an error of the call's own name: `{"tool": "bash", "state": {"status": "error", "error": "Model
 * tried to call unavailable tool 'bash'. ..."}}`. Both end input their tool's schema refuses as an
 * error: `The read tool was called with invalid arguments: ... Please rewrite the input so it
 * satisfies the expected schema.`
 */
export function opencodeRejection(part: ToolPart): Rejection | undefined {
  const status = part.state?.status;
  if (part.tool === "invalid" && status === "completed") {
    const input = part.state?.input;
    const error = input !== null && typeof input === "object" ? (input as { error?: unknown }).error : undefined;
    return typeof error === "string" && UNAVAILABLE.test(error) ? "unknown-tool" : "invalid-input";
  }
  if (status !== "error") return undefined;
  const error = String(part.state?.error ?? "");
  if (UNAVAILABLE.test(error)) return "unknown-tool";
  if (/^The .* tool was called with invalid arguments: /.test(error)) return "invalid-input";
  return undefined;
}

export function observeOpencode(run: CliRun): PromptObservation | string {
  const fates = new ObservedFates(run);
  for (const line of run.stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    let event: { type?: string; part?: ToolPart };
    try {
      event = JSON.parse(line) as typeof event;
    } catch {
      continue;
    }
    if (event.type !== "tool_use") continue;
    const id = event.part?.callID;
    if (id === undefined || !fates.scripted(id)) continue;
    const status = event.part?.state?.status;
    const error = String(event.part?.state?.error ?? "");
    const rejected = opencodeRejection(event.part ?? {});
    if (status === "error" && /rejected permission|doom_loop|doom loop/i.test(error)) fates.set(id, "refused");
    else if (rejected !== undefined) fates.reject(id, rejected);
    else if (status === "completed" || status === "error") fates.set(id, "ran");
  }
  const doomLoop = /permission requested: doom_loop[^\n]*/.exec(run.stderr.replace(/\u001b\[[0-9;]*m/g, ""));
  if (doomLoop !== null) return fates.stopped(doomLoop[0]);
  // Kilo's second guard: the turn aborted after 3 invalid-argument failures in a row.
  const malformed = /Stopped after \d+ consecutive invalid-argument failures[^\n]*/.exec(run.stderr.replace(/\u001b\[[0-9;]*m/g, ""));
  if (malformed !== null) return fates.stopped(malformed[0]);
  if (run.exitCode !== 0) return `exit ${run.exitCode ?? run.signal} without a loop stop: ${lastLine(run.stderr)}`;
  return fates.ranThrough();
}
