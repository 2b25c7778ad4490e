// Cline's CLI (npm `cline` 3.0; its compiled binary is the platform package @cline/cli-linux-x64),
// run headless: `cline auth` stores the scripted model as an OpenAI provider in the sandbox's
// HOME, then `cline --json` runs the prompt with every tool auto-approved. What happened is read
// from its JSON event stream: each tool's content_end by call id (an error output that speaks of
// the consecutive-mistake limit is a refusal; one that says the call was rejected before it ran
// is a rejection: clineRejection), and the agent error its loop detection raises
// ("Detected 5 consecutive identical calls ...; stopping to avoid a loop"). A later prompt of the
// same conversation resumes the session through its ACP mode (clineAcpClient.ts), read the same
// way from the ACP messages.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ACP_CLIENT_FILE, ACP_CLIENT_SOURCE } from "./clineAcpClient.js";
import type { CliAdapter, CliInvocation, CliRun } from "./cliDriver.js";
import { lastLine, PROMPT_TEXT } from "./cliDriver.js";
import { clineRecordedCall } from "./clineRecordedCalls.js";
import { namedToolCall, ordered, type ProbeAction, type PromptObservation, type RawToolCall, type Rejection } from "./drivenRuntime.js";
import { ObservedFates } from "./observedFates.js";

export const CLINE_BINARY = "package/bin/cline";



/** Cline's own tools: read_files takes a list of paths, run_commands a list of commands. */
export function clineToolCall(action: ProbeAction, work: string): RawToolCall {
  if (action.kind === "shell") return { name: action.tool ?? "run_commands", args: { commands: [action.command] } };
  if (action.kind === "raw") return clineRecordedCall(action.name, action.args);
  const call = namedToolCall(action, work, { read: "read_files", pathKey: "path", shell: "run_commands" });
  if (action.kind !== "read" || action.args !== undefined) return call;
  const { path, ...range } = call.args as Record<string, unknown>;
  return { name: call.name, args: ordered({ file_paths: [path], ...range }, action.keysReversed) };
}

export function clineAdapter(installDir: string): CliAdapter {
  const binary = join(installDir, CLINE_BINARY);
  return {
    toolCall: clineToolCall,
    invocation({ baseUrl, home, prompt }): CliInvocation {
      const env = { HOME: home, CLINE: binary, XDG_CONFIG_HOME: join(home, ".config"), XDG_CACHE_HOME: join(home, ".cache"), NO_COLOR: "1", CI: "1", CLINE_TELEMETRY_DISABLED: "1", AI_SDK_LOG_WARNINGS: "false" };
      if (prompt > 0) {
        // The next prompt of one conversation. `--id` resumes only interactively in 3.0.x (read
        // from package/bin/cline 3.0.65: it sets the run interactive and drops the prompt, and
        // `--json` refuses that), so the session prompt 1 made (the newest in its history; the
        // sandbox's HOME holds no other) is resumed through its ACP mode: session/load, then
        // session/prompt, by loopsim's small client (clineAcpClient.ts).
        const id = `ID=$("$CLINE" history --json --limit 1 | tr -d '\\n' | sed -n 's/^[^{]*{[^}]*"sessionId":"\\([^"]*\\)".*/\\1/p')`;
        const none = `[ -n "$ID" ] || { echo 'loopsim: no Cline session to resume (history --json listed none)' >&2; exit 3; }`;
        const client = join(home, ACP_CLIENT_FILE);
        writeFileSync(client, ACP_CLIENT_SOURCE);
        return {
          file: "/bin/sh",
          args: ["-c", `${id}; ${none}; exec "$NODE" "$CLIENT" "$CLINE" "$ID" "$PWD" '${PROMPT_TEXT}'`],
          // ACP mode reads its provider from the environment (the key is never sent anywhere but
          // the scripted model; CLINE_API_KEY only passes its sign-in check).
          env: { ...env, NODE: process.execPath, CLIENT: client, CLINE_PROVIDER: "openai-compatible", CLINE_MODEL: "scripted", CLINE_API_KEY: "loopsim" },
          readOnly: [installDir],
        };
      }
      const auth = `"$CLINE" auth -p openai -k loopsim -m scripted -b '${baseUrl}' >/dev/null`;
      return {
        file: "/bin/sh",
        args: ["-c", `${auth} && exec "$CLINE" --json -P openai -m scripted '${PROMPT_TEXT}'`],
        env,
        readOnly: [installDir],
      };
    },
    observe: observeCline,
  };
}

interface ClineLine {
  readonly type?: string;
  readonly event?: { readonly type?: string; readonly reason?: string; readonly contentType?: string; readonly toolCallId?: string; readonly output?: unknown; readonly error?: unknown };
}

function errorMessage(error: unknown): string {
  if (error !== null && typeof error === "object" && typeof (error as { message?: unknown }).message === "string") return (error as { message: string }).message;
  return JSON.stringify(error ?? "");
}

/** The error text of a failed call's output: `{"error": "..."}`, as an object (--json) or as its JSON text (ACP's rawOutput). */
function clineErrorText(output: unknown): string | undefined {
  let value = output;
  if (typeof value === "string" && value.startsWith("{")) {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return undefined;
    }
  }
  const error = value !== null && typeof value === "object" && !Array.isArray(value) ? (value as { error?: unknown }).error : undefined;
  return typeof error === "string" ? error : undefined;
}

/**
 * Whether Cline rejected a call before running it, from the error of its output (read from Cline
 * 3.0.65, run driven, in both --json and ACP): a tool it lacks is `Tool call bash was rejected
 * before execution: AI_NoSuchToolError: Model tried to call unavailable tool 'bash'. Available
 * tools: ...`, input the SDK's schema refuses `Tool call X was rejected before execution: Invalid
 * input for tool X: ...`, and input the tool's own schema refuses before its body runs is zod's
 * pretty error, `✖ Invalid input` (a line per issue, each opening with ✖). Each is one of its
 * mistakes all the same (3 turns in a row of them end its run).
 */
export function clineRejection(output: unknown): Rejection | undefined {
  const error = clineErrorText(output);
  if (error === undefined) return undefined;
  const before = /^Tool call .*? was rejected before execution: (.*)/s.exec(error);
  if (before !== null) return /^AI_NoSuchToolError\b/.test(before[1] ?? "") ? "unknown-tool" : "invalid-input";
  return error.startsWith("\u2716 ") ? "invalid-input" : undefined;
}

/** An answered call's fate: refused at the mistake limit or by the loop guard, rejected before it ran, or ran (and perhaps failed). */
function answered(fates: ObservedFates, id: string, output: unknown): void {
  if (/consecutive mistakes|consecutive identical/i.test(JSON.stringify(output ?? ""))) return fates.set(id, "refused");
  const rejected = clineRejection(output);
  if (rejected === undefined) fates.set(id, "ran");
  else fates.reject(id, rejected);
}

export function observeCline(run: CliRun): PromptObservation | string {
  if (run.stdout.includes('{"loopsim":"done"')) return observeClineAcp(run);
  const fates = new ObservedFates(run);
  let halted: string | undefined;
  let lastError: string | undefined;
  let aborted = false;
  for (const line of run.stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    let parsed: ClineLine;
    try {
      parsed = JSON.parse(line) as ClineLine;
    } catch {
      continue;
    }
    const event = parsed.event;
    if (event === undefined) continue;
    if (event.type === "content_end" && event.contentType === "tool" && event.toolCallId !== undefined && fates.scripted(event.toolCallId)) answered(fates, event.toolCallId, event.output);
    if (event.type === "error") {
      const message = JSON.stringify(event.error ?? "");
      const match = /Detected \d+ consecutive identical calls[^"\\]*/.exec(message);
      if (match !== null) halted = match[0];
      lastError = errorMessage(event.error);
    }
    if (event.type === "done" && event.reason === "aborted") aborted = true;
  }
  if (halted !== undefined) return fates.stopped(halted);
  if (run.exitCode !== 0) return `exit ${run.exitCode ?? run.signal} without a loop stop: ${lastLine(run.stderr)}`;
  // Its stderr ends with the AI SDK's warnings (a stack line), which said nothing of why: the
  // reason is its own last error. A turn whose every call failed (a tool it lacks, args its schema
  // refuses) is a mistake; at its CLI's limit (3 in a row) it aborts the run.
  if (aborted && run.served < run.stepCalls.length) {
    const limit = lastError !== undefined && /tool call\(s\) failed/.test(lastError) ? " on its consecutive-mistake limit (3 turns in a row whose every call failed)" : "";
    return `the runtime ended after ${run.served} of ${run.stepCalls.length} responses without a loop stop: cline aborted the run${limit}${lastError === undefined ? "" : `; its last error: ${lastError.slice(0, 240)}`}`;
  }
  return fates.ranThrough();
}

interface AcpLine {
  readonly id?: number;
  readonly method?: string;
  readonly params?: { readonly update?: { readonly sessionUpdate?: string; readonly toolCallId?: string; readonly status?: string; readonly rawOutput?: unknown; readonly content?: unknown } };
}

const LOOP_STOP = /Detected \d+ consecutive identical calls[^"\\]*/;

/** A resumed prompt, from loopsim's ACP client: each tool_call_update by call id (the history that
 * session/load replays first holds the earlier prompts' ids only), and the loop stop wherever the
 * agent says it (an error answer to the prompt, or its text). */
export function observeClineAcp(run: CliRun): PromptObservation | string {
  const fates = new ObservedFates(run);
  for (const line of run.stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    let parsed: AcpLine;
    try {
      parsed = JSON.parse(line) as AcpLine;
    } catch {
      continue;
    }
    const update = parsed.params?.update;
    if (parsed.method !== "session/update" || update?.sessionUpdate !== "tool_call_update" || update.toolCallId === undefined || !fates.scripted(update.toolCallId)) continue;
    if (update.status === "completed") fates.set(update.toolCallId, "ran");
    else if (update.status === "failed") answered(fates, update.toolCallId, update.rawOutput ?? update.content);
  }
  const halted = LOOP_STOP.exec(run.stdout);
  if (halted !== null) return fates.stopped(halted[0]);
  if (run.exitCode !== 0) return `exit ${run.exitCode ?? run.signal} without a loop stop: ${lastLine(run.stdout)}`;
  return fates.ranThrough();
}
