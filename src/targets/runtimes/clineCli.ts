// Cline's CLI (npm `cline` 3.0; its compiled binary is the platform package @cline/cli-linux-x64),
// run headless: `cline auth` stores the scripted model as an OpenAI provider in the sandbox's
// HOME, then `cline --json` runs the prompt with every tool auto-approved. What happened is read
// from its JSON event stream: each tool's content_end by call id (an error output that speaks of
// the consecutive-mistake limit is a refusal), and the agent error its loop detection raises
// ("Detected 5 consecutive identical calls ...; stopping to avoid a loop").
import { join } from "node:path";
import type { CliAdapter, CliInvocation, CliRun } from "./cliDriver.js";
import { lastLine, PROMPT_TEXT, warningsIn } from "./cliDriver.js";
import { namedToolCall, ordered, type CallFate, type ProbeAction, type PromptObservation } from "./drivenRuntime.js";

export const CLINE_BINARY = "package/bin/cline";

/** Why a second prompt of a Cline conversation is n/a (read from its 3.0.65 binary; see below). */
export const CLINE_RESUME_UNREACHABLE = "Cline 3.0 resumes a session (--id) only interactively: --id drops the prompt and --json refuses interactive mode, so a second prompt cannot be driven headless (its ACP mode is not wired)";

/** Cline's own tools: read_files takes a list of paths, run_commands a list of commands. */
export function clineToolCall(action: ProbeAction, work: string): { name: string; args: unknown } {
  if (action.kind === "shell") return { name: action.tool ?? "run_commands", args: { commands: [action.command] } };
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
        // The next prompt of one conversation cannot be driven headless in 3.0.x. Read from
        // package/bin/cline (3.0.65): `--id <session-id>` sets the run interactive and drops the
        // prompt (`r={...r,interactive:!0,prompt:void 0}`), and `--json` then refuses it ("JSON
        // output mode requires a prompt argument or piped stdin (interactive mode is
        // unsupported)"); tried with the prompt as an argument and piped. Without --json the
        // resumed session is the TUI, which needs a terminal. The session id itself is there
        // (`history --json` lists it). Its ACP mode (--acp: several prompts in one process) is
        // the way left; not wired.
        return { file: "/bin/sh", args: ["-c", `echo 'loopsim: ${CLINE_RESUME_UNREACHABLE}' >&2; exit 3`], env, readOnly: [installDir] };
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
  readonly event?: { readonly type?: string; readonly contentType?: string; readonly toolCallId?: string; readonly output?: unknown; readonly error?: unknown };
}

export function observeCline(run: CliRun): PromptObservation | string {
  const fates: Record<string, CallFate> = {};
  for (const ids of run.stepCalls) for (const id of ids) fates[id] = "not-run";
  let halted: string | undefined;
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
    if (event.type === "content_end" && event.contentType === "tool" && event.toolCallId !== undefined && event.toolCallId in fates) {
      fates[event.toolCallId] = /consecutive mistakes|consecutive identical/i.test(JSON.stringify(event.output ?? "")) ? "refused" : "ran";
    }
    if (event.type === "error") {
      const message = JSON.stringify(event.error ?? "");
      const match = /Detected \d+ consecutive identical calls[^"\\]*/.exec(message);
      if (match !== null) halted = match[0];
    }
  }
  if (halted !== undefined) return { fates, stoppedAtStep: Math.max(0, run.served - 1), stopMessage: halted, warnings: warningsIn(run.requests) };
  if (run.exitCode !== 0) return `exit ${run.exitCode ?? run.signal} without a loop stop: ${lastLine(run.stderr)}`;
  return { fates, stoppedAtStep: null, warnings: warningsIn(run.requests) };
}
