// OpenAI Codex CLI rollouts (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl): {timestamp, type, payload}.
// - call: a response_item function_call {name, arguments (a JSON string), call_id} or
//   custom_tool_call {name, input, call_id}; several can be outstanding at once, paired by call_id;
// - outcome: function_call_output / custom_tool_call_output with the same call_id. There is no
//   error flag: the exit code in the output ("Process exited with code N", or JSON
//   metadata.exit_code) decides, and a shell command's outcome becomes an exec result
//   {status, exitCode, aggregated} so that SPEC H2.5 judges it as OpenClaw judges exec;
// - exec_command and shell are the exec tool; volatile header lines of their output (chunk id,
//   wall time, token count) are dropped, so an unchanged command output hashes the same;
// - run: one per user message (event_msg user_message);
// - compaction: a `compacted` line (its event_msg context_compacted repeats it and is not counted);
// - model text: a response_item message of the assistant is a message (its output_text parts
//   joined), a reasoning item a thought (its readable summary_text and reasoning_text parts; an
//   encrypted-only item has none); event_msg agent_message and agent_reasoning repeat them;
// - every other event_msg repeats a response item and is not counted again.
import { isObject, jsonLines } from "./jsonl.js";
import { CallBook, skip, textEvent, textResult, type ImportedEvent, type Importer } from "./types.js";

const DOCUMENTED = new Set(["session_meta", "turn_context", "response_item", "event_msg", "compacted"]);
const SHELL_TOOLS = new Set(["exec_command", "shell", "local_shell", "container.exec"]);
const VOLATILE_HEADER = /^(Chunk ID|Wall time|Original token count|Process running with session ID):.*\n?/gm;

function parseArguments(raw: unknown): unknown {
  if (typeof raw !== "string") return raw ?? {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** The text parts of a list (content or summary) whose type is one of `types`, joined. */
function partsText(parts: unknown, types: readonly string[]): string {
  if (!Array.isArray(parts)) return "";
  return parts.filter((p) => isObject(p) && types.includes(String(p.type)) && typeof p.text === "string").map((p) => (p as { text: string }).text).join("\n");
}

/** The exit code and the text of an output, whichever of the two shapes it has. */
export function codexOutput(raw: unknown): { text: string; exitCode: number | undefined } {
  const text = typeof raw === "string" ? raw : JSON.stringify(raw);
  if (text.startsWith("{")) {
    try {
      const parsed = JSON.parse(text) as { output?: unknown; metadata?: { exit_code?: unknown } };
      if (isObject(parsed) && typeof parsed.output === "string") {
        const code = parsed.metadata?.exit_code;
        return { text: parsed.output, exitCode: typeof code === "number" ? code : undefined };
      }
    } catch {
      // plain text that happens to start with a brace
    }
  }
  const match = /Process exited with code (-?\d+)/.exec(text);
  return { text: text.replace(VOLATILE_HEADER, ""), exitCode: match === null ? undefined : Number(match[1]) };
}

export const codexImporter: Importer = {
  format: "codex",
  async *events(file, stats): AsyncGenerator<ImportedEvent> {
    const calls = new CallBook<{ tool: string; params: unknown; runId: string }>(stats);
    const runs = new Set<string>();
    let prompt = 0;
    let run = "run-0";
    for await (const { line, value } of jsonLines(file, stats)) {
      const at = `${file}:${line}`;
      const type = typeof value.type === "string" ? value.type : "(no type)";
      if (!DOCUMENTED.has(type)) {
        skip(stats, type);
        continue;
      }
      const payload = isObject(value.payload) ? value.payload : {};
      if (type === "compacted") {
        stats.compactions++;
        runs.add(run);
        yield { event: { type: "compaction", runId: run }, at };
        continue;
      }
      if (type === "event_msg") {
        if (payload.type === "user_message") run = `run-${++prompt}`;
        continue;
      }
      if (type !== "response_item") continue;
      const kind = payload.type;
      if (kind === "message" || kind === "reasoning") {
        const text =
          kind === "message"
            ? payload.role === "assistant"
              ? textEvent("message", run, partsText(payload.content, ["output_text"]), at)
              : undefined
            : textEvent("thought", run, [partsText(payload.summary, ["summary_text"]), partsText(payload.content, ["reasoning_text"])].filter((t) => t !== "").join("\n"), at);
        if (text !== undefined) yield text;
        continue;
      }
      if (kind === "function_call" || kind === "custom_tool_call") {
        const name = typeof payload.name === "string" ? payload.name : "unknown";
        const tool = SHELL_TOOLS.has(name) ? "exec" : name;
        const params = kind === "function_call" ? parseArguments(payload.arguments) : { input: payload.input };
        const callId = typeof payload.call_id === "string" ? payload.call_id : undefined;
        calls.opened(callId, { tool, params, runId: run });
        runs.add(run);
        stats.calls++;
        yield { event: { type: "call", runId: run, ...(callId === undefined ? {} : { callId }), tool, params }, at };
      } else if (kind === "function_call_output" || kind === "custom_tool_call_output") {
        const callId = typeof payload.call_id === "string" ? payload.call_id : undefined;
        const call = calls.closed(callId);
        stats.outcomes++;
        const { text, exitCode } = codexOutput(payload.output);
                const tool = call?.tool ?? "unknown";
        const result =
          tool === "exec" && exitCode !== undefined
            ? textResult(text, { status: exitCode === 0 ? "completed" : "failed", exitCode, aggregated: text })
            : textResult(text, exitCode === undefined ? undefined : { exitCode });
        yield { event: { type: "outcome", runId: call?.runId ?? run, ...(callId === undefined ? {} : { callId }), tool, params: call?.params ?? {}, result }, at };
      }
    }
    stats.runs = runs.size;
  },
};
