// Qwen Code's published CLI (@qwen-code/qwen-code), started headless (`-o stream-json`, approval
// mode yolo so its own tools run unattended) against the scripted model through its OpenAI auth
// type. Usage statistics and telemetry are switched off in the sandbox's settings. It asks for
// Node 22 but runs on Node 20. What happened is read from its stream-json messages: tool results
// by call id (a call it rejected before running is told apart by its result's text: qwenRejection),
// and the final result's error when loop detection halted the run.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CliAdapter, CliRun } from "./cliDriver.js";
import { lastLine, PROMPT_TEXT } from "./cliDriver.js";
import { namedToolCall, type ProbeAction, type PromptObservation, type RawToolCall, type Rejection } from "./drivenRuntime.js";
import { ObservedFates } from "./observedFates.js";
import { qwenRecordedCall } from "./qwenRecordedCalls.js";

export const QWEN_PACKAGE = "@qwen-code/qwen-code";

export function qwenToolCall(action: ProbeAction, work: string): RawToolCall {
  // A recorded session's call goes to Qwen's own tool for the same work (qwenRecordedCalls.ts).
  if (action.kind === "raw") return qwenRecordedCall(action.name, action.args, work);
  return namedToolCall(action, work, { read: "read_file", pathKey: "file_path", shell: "run_shell_command" });
}

/** `extra`: settings merged over loopsim's (e.g. `{ model: { skipLoopDetection: false } }`). */
export function qwenAdapter(installDir: string, extra: Record<string, unknown> = {}): CliAdapter {
  return {
    toolCall: qwenToolCall,
    invocation({ baseUrl, home, prompt }) {
      mkdirSync(join(home, ".qwen"), { recursive: true });
      const settings = { privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false }, general: { disableAutoUpdate: true, disableUpdateNag: true }, ...extra };
      writeFileSync(join(home, ".qwen", "settings.json"), JSON.stringify(settings, null, 2) + "\n");
      return {
        file: process.execPath,
        readOnly: [installDir],
        args: [join(installDir, "node_modules", QWEN_PACKAGE, "cli-entry.js"), "--auth-type", "openai", "--openai-base-url", baseUrl, "--openai-api-key", "loopsim", "-m", "scripted", "--approval-mode", "yolo", "-o", "stream-json", ...(prompt > 0 ? ["--continue"] : []), PROMPT_TEXT],
        env: { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_CACHE_HOME: join(home, ".cache"), QWEN_CODE_SUPPRESS_YOLO_WARNING: "1", QWEN_TELEMETRY_ENABLED: "false", NO_COLOR: "1", CI: "1" },
      };
    },
    observe: observeQwen,
  };
}

interface StreamLine {
  readonly type?: string;
  readonly is_error?: boolean;
  readonly error?: { readonly message?: string };
  readonly message?: { readonly content?: readonly { readonly type?: string; readonly tool_use_id?: string; readonly is_error?: boolean; readonly content?: unknown }[] };
}

/**
 * Whether Qwen rejected a call before running it, from its tool result's text (stream-json carries
 * no error type; read from qwen-code 0.24.4, run driven): a tool it lacks is answered `Tool "bash"
 * not found in registry. Tools must use the exact names that are registered. Did you mean ...`
 * (or, for a skill's name, `"x" is a skill name, not a tool name`), and args its schema refuses
 * `params must have required property 'file_path'` (its validator's text for the args, `params`
 * and the path within them). A guidance sentence may follow either; a tool's own failure while
 * running says neither.
 */
export function qwenRejection(text: string): Rejection | undefined {
  if (/^Tool "[^"]*" not found in registry\./.test(text) || /^"[^"]*" is a skill name, not a tool name/.test(text)) return "unknown-tool";
  if (/^params(\/\S*)? must /.test(text)) return "invalid-input";
  return undefined;
}

export function observeQwen(run: CliRun): PromptObservation | string {
  const fates = new ObservedFates(run);
  let halted: string | undefined;
  let failed: string | undefined;
  for (const line of run.stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    let event: StreamLine;
    try {
      event = JSON.parse(line) as StreamLine;
    } catch {
      continue;
    }
    if (event.type === "user") {
      for (const part of event.message?.content ?? []) {
        if (part.type !== "tool_result" || part.tool_use_id === undefined || !fates.scripted(part.tool_use_id)) continue;
        const text = typeof part.content === "string" ? part.content : JSON.stringify(part.content ?? "");
        const refused = part.is_error === true && /loop detect/i.test(text);
        const rejected = part.is_error === true && !refused ? qwenRejection(text) : undefined;
        if (rejected !== undefined) fates.reject(part.tool_use_id, rejected);
        else fates.set(part.tool_use_id, refused ? "refused" : "ran");
      }
    }
    if (event.type === "result" && event.is_error === true) {
      const message = event.error?.message ?? "";
      if (/loop detection/i.test(message)) halted = message;
      else failed = message;
    }
  }
  if (halted !== undefined) return fates.stopped(halted.slice(0, 300));
  if (failed !== undefined || run.exitCode !== 0) return `exit ${run.exitCode ?? run.signal} without a loop stop: ${(failed ?? lastLine(run.stderr)).slice(0, 300)}`;
  return fates.ranThrough();
}
