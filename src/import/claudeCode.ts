// Claude Code project JSONL (~/.claude/projects/<dir>/<session>.jsonl), and its subagent files
// (<session>/subagents/agent-*.jsonl, isSidechain: true), which import as sessions of their own.
// - call: each tool_use block {id, name, input} of an assistant line; parallel calls come one
//   block per line, several lines sharing message.id, and are imported in file order;
// - outcome: each tool_result block {tool_use_id, content, is_error} inside a user line; content is
//   a string or a list of text blocks; is_error makes it an error with that text;
// - run: a user line without tool results starts one (meta lines and the compact summary do not);
// - compaction: a system line with subtype compact_boundary;
// - model text: an assistant line's text block is a message, its thinking block a thought (an
//   empty or redacted one, signature only, is passed over), in block order with the calls;
// - summary, file-history-snapshot, queue-operation, progress, attachment and other system lines
//   carry no calls and are passed over; types the format does not document are counted.
import { isObject, jsonLines } from "./jsonl.js";
import { CallBook, skip, textEvent, type ImportedEvent, type Importer } from "./types.js";

const PASSED_OVER = new Set(["summary", "file-history-snapshot", "queue-operation", "progress", "attachment"]);

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.filter((b) => isObject(b) && typeof b.text === "string").map((b) => (b as { text: string }).text).join("\n");
}

export const claudeCodeImporter: Importer = {
  format: "claude-code",
  async *events(file, stats): AsyncGenerator<ImportedEvent> {
    const calls = new CallBook<{ tool: string; params: unknown; runId: string }>(stats);
    const runs = new Set<string>();
    let prompt = 0;
    let run = "run-0";
    let prefix = "";
    for await (const { line, value } of jsonLines(file, stats)) {
      const at = `${file}:${line}`;
      const type = typeof value.type === "string" ? value.type : "(no type)";
      if (value.isSidechain === true && prefix === "") prefix = `subagent-${typeof value.agentId === "string" ? value.agentId : "0"}-`;
      if (PASSED_OVER.has(type)) continue;
      if (type === "system") {
        if (value.subtype === "compact_boundary") {
          stats.compactions++;
          runs.add(run);
          yield { event: { type: "compaction", runId: run }, at };
        }
        continue;
      }
      if (type !== "user" && type !== "assistant") {
        skip(stats, type);
        continue;
      }
      const message = isObject(value.message) ? value.message : undefined;
      const content = message?.content;
      if (type === "assistant") {
        if (!Array.isArray(content)) continue;
        for (const block of content) {
          if (isObject(block) && (block.type === "text" || block.type === "thinking")) {
            const text = textEvent(block.type === "text" ? "message" : "thought", run, block.type === "text" ? block.text : block.thinking, at);
            if (text !== undefined) yield text;
            continue;
          }
          if (!isObject(block) || block.type !== "tool_use" || typeof block.name !== "string") continue;
          const callId = typeof block.id === "string" ? block.id : undefined;
          runs.add(run);
          calls.opened(callId, { tool: block.name, params: block.input, runId: run });
          stats.calls++;
          yield { event: { type: "call", runId: run, ...(callId === undefined ? {} : { callId }), tool: block.name, params: block.input ?? {} }, at };
        }
        continue;
      }
      const results = Array.isArray(content) ? content.filter((b) => isObject(b) && b.type === "tool_result") : [];
      if (results.length === 0) {
        if (value.isMeta !== true && value.isCompactSummary !== true) run = `${prefix}run-${++prompt}`;
        continue;
      }
      for (const block of results as Record<string, unknown>[]) {
        const callId = typeof block.tool_use_id === "string" ? block.tool_use_id : undefined;
        const call = calls.closed(callId);
        stats.outcomes++;
        const base = { type: "outcome" as const, runId: call?.runId ?? run, ...(callId === undefined ? {} : { callId }), tool: call?.tool ?? "unknown", params: call?.params ?? {} };
        const text = resultText(block.content);
        if (block.is_error === true) {
          yield { event: { ...base, error: text }, at };
        } else yield { event: { ...base, result: { content: [{ type: "text", text }] } }, at };
      }
    }
    stats.runs = runs.size;
  },
};
