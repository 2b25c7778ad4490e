// OpenClaw / pi session JSONL (~/.openclaw/agents/<agent>/sessions/<session>.jsonl).
// - call: each {type:"toolCall", id, name, arguments} block of an assistant message;
// - outcome: the toolResult message with that toolCallId (content and details as the result; with
//   isError, the content's text as the error);
// - run: one per user prompt (run-1, run-2...), or the runId a `<session>.trajectory.jsonl`
//   sidecar gives the call (lines carrying runId and toolCallId);
// - compaction: each `compaction` entry, in the current run;
// - model text: an assistant message's text block is a message, its thinking block a thought, in
//   block order with the calls, in the current run;
// - newer files link entries by id/parentId into a tree: only the active branch (the path from the
//   root to the last entry) is imported, which takes a first pass over ids only;
// - bashExecution messages are commands the user ran, not the agent's calls: counted, skipped.
import { existsSync } from "node:fs";
import { isObject, jsonLines } from "./jsonl.js";
import { CallBook, emptyStats, skip, textEvent, type ImportedEvent, type Importer, type ImportStats } from "./types.js";

const DOCUMENTED = new Set(["session", "message", "compaction", "model_change", "thinking_level_change", "custom", "custom_message", "branch_summary"]);

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.filter((b) => isObject(b) && typeof b.text === "string").map((b) => (b as { text: string }).text).join("\n");
}

/** The ids on the path from the root to the last entry, or undefined for the plain layout. */
async function activeBranch(file: string): Promise<Set<string> | undefined> {
  const parents = new Map<string, string | null>();
  let last: string | undefined;
  let tree = false;
  for await (const { value } of jsonLines(file, emptyStats())) {
    if (value.type === "session") continue;
    if (typeof value.id === "string" && "parentId" in value) {
      tree = true;
      parents.set(value.id, typeof value.parentId === "string" ? value.parentId : null);
      last = value.id;
    }
  }
  if (!tree || last === undefined) return undefined;
  const path = new Set<string>();
  for (let id: string | null | undefined = last; id !== null && id !== undefined && !path.has(id); id = parents.get(id)) path.add(id);
  return path;
}

/** runId by toolCallId, from the trajectory sidecar when there is one. */
async function sidecarRuns(file: string, stats: ImportStats): Promise<Map<string, string>> {
  const sidecar = file.replace(/\.jsonl(\.gz)?$/, ".trajectory.jsonl$1");
  const runs = new Map<string, string>();
  if (sidecar === file || !existsSync(sidecar)) return runs;
  for await (const { value } of jsonLines(sidecar, emptyStats())) {
    const runId = value.runId;
    if (typeof runId !== "string") continue;
    const ids = [value.toolCallId, ...(Array.isArray(value.toolCallIds) ? value.toolCallIds : [])].filter((x): x is string => typeof x === "string");
    for (const id of ids) runs.set(id, runId);
  }
  stats.notes.push(`run ids from ${sidecar} (${new Set(runs.values()).size} runs)`);
  return runs;
}

export const openclawImporter: Importer = {
  format: "openclaw",
  async *events(file, stats): AsyncGenerator<ImportedEvent> {
    const branch = await activeBranch(file);
    if (branch !== undefined) stats.notes.push(`tree layout: following the active branch (${branch.size} entries)`);
    const sidecar = await sidecarRuns(file, stats);
    const calls = new CallBook<{ tool: string; params: unknown; runId: string }>(stats);
    const runs = new Set<string>();
    let prompt = 0;
    let run = "run-0";
    let userShell = 0;
    for await (const { line, value } of jsonLines(file, stats)) {
      const at = `${file}:${line}`;
      if (branch !== undefined && typeof value.id === "string" && !branch.has(value.id)) continue;
      const type = typeof value.type === "string" ? value.type : "(no type)";
      if (!DOCUMENTED.has(type)) {
        skip(stats, type);
        continue;
      }
      if (type === "compaction") {
        stats.compactions++;
        runs.add(run);
        yield { event: { type: "compaction", runId: run }, at };
        continue;
      }
      if (type !== "message" || !isObject(value.message)) continue;
      const message = value.message;
      switch (message.role) {
        case "user":
          run = `run-${++prompt}`;
          break;
        case "assistant": {
          if (!Array.isArray(message.content)) break;
          for (const block of message.content) {
            if (isObject(block) && (block.type === "text" || block.type === "thinking")) {
              const text = textEvent(block.type === "text" ? "message" : "thought", run, block.type === "text" ? block.text : block.thinking, at);
              if (text !== undefined) yield text;
              continue;
            }
            if (!isObject(block) || block.type !== "toolCall" || typeof block.name !== "string") continue;
            const callId = typeof block.id === "string" ? block.id : undefined;
            const runId = (callId !== undefined ? sidecar.get(callId) : undefined) ?? run;
            runs.add(runId);
            calls.opened(callId, { tool: block.name, params: block.arguments, runId });
            stats.calls++;
            yield { event: { type: "call", runId, ...(callId === undefined ? {} : { callId }), tool: block.name, params: block.arguments ?? {} }, at };
          }
          break;
        }
        case "toolResult": {
          const callId = typeof message.toolCallId === "string" ? message.toolCallId : undefined;
          const call = calls.closed(callId);
          const tool = call?.tool ?? (typeof message.toolName === "string" ? message.toolName : "unknown");
          const runId = call?.runId ?? (callId !== undefined ? sidecar.get(callId) : undefined) ?? run;
          stats.outcomes++;
          const base = { type: "outcome" as const, runId, ...(callId === undefined ? {} : { callId }), tool, params: call?.params ?? {} };
          if (message.isError === true) {
            yield { event: { ...base, error: contentText(message.content) }, at };
          } else {
            yield { event: { ...base, result: { content: Array.isArray(message.content) ? message.content : [{ type: "text", text: contentText(message.content) }], ...(isObject(message.details) ? { details: message.details } : {}) } }, at };
          }
          break;
        }
        case "bashExecution":
          userShell++;
          break;
        default:
          skip(stats, `message:${String(message.role)}`);
      }
    }
    stats.runs = runs.size;
    if (userShell > 0) stats.notes.push(`${userShell} shell commands the user ran (bashExecution) are not agent calls: skipped`);
  },
};
