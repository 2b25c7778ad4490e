// OpenAI chat transcripts, as many agent frameworks log them: messages {role, content,
// tool_calls}, where an assistant message's `tool_calls` entries ({id, function: {name,
// arguments (a JSON string)}}) are answered by `role: "tool"` messages with their `tool_call_id`.
// A file is one transcript (a list of messages, or {messages: [...]}) or a list of runs as
// tau-bench publishes them ([{task_id, trial, reward, info, traj}]): each element is a session of
// its own, named `file#<task_id>/trial<trial>` (the key tau-bench's labels use).
// - call: each `tool_calls` entry a tool message answered, in the order of the entries (tool =
//   the function's name, params = its arguments parsed from JSON; arguments that are not JSON stay
//   {arguments: text}). An entry nothing answered is no call: counted in `skipped`.
//   The calls of one assistant message come first, then their outcomes, as they happened;
// - outcome: the tool message's content as a text result. The format has no error flag: a tool
//   that answers "Error: ..." failed (failure.ts, toolErrorText), as tau-bench's tools do;
// - run: a `user` message starts one (run-1, run-2 ...; `<task_id>/trial<k>/run-1` ... when a
//   whole list is read as one input), as a prompt does in pi and Claude Code
//   sessions. In tau-bench the user is a simulated customer: each of its turns is a new prompt to
//   the agent, which is how a runtime sees a conversation (the guard's history still spans the
//   whole session; only per-run state starts again);
// - model text: an assistant message's content is a message (it speaks to the user); system and
//   user text are not the model's.
import { isObject } from "./jsonl.js";
import { splitAdpRef } from "./adp.js";
import { contentHead } from "../io/compressed.js";
import { arrayElements, parseElement, readSpan, topArraySpans, type ElementSpan } from "./jsonDocument.js";
import { toolErrorText } from "./failure.js";
import { toolCallEntry } from "./miniSweAgent.js";
import { skip, textEvent, textResult, type ImportedEvent, type Importer, type ImportStats } from "./types.js";

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((b) => (isObject(b) && typeof b.text === "string" ? b.text : "")).join("\n");
  return content === null || content === undefined ? "" : JSON.stringify(content);
}

/** A run of a tau-bench list: its session id `<task_id>/trial<trial>`, or its position. */
export function chatRunId(value: unknown, index: number): string {
  if (isObject(value) && (typeof value.task_id === "string" || typeof value.task_id === "number")) return `${String(value.task_id)}/trial${typeof value.trial === "number" || typeof value.trial === "string" ? String(value.trial) : "0"}`;
  return `[${index}]`;
}

const isRunList = (first: unknown): boolean => isObject(first) && Array.isArray(first.traj);

/** Whether a file is a list (of runs or of messages) rather than {messages: [...]}. */
function isList(file: string): boolean {
  return contentHead(file, 4096).toString("utf8").replace(/^\uFEFF/, "").trimStart().startsWith("[");
}

/**
 * The runs of a tau-bench list, each with its id and its bytes' place (one pass over the file),
 * or undefined for a file that is one transcript.
 */
export async function openaiChatEntries(file: string): Promise<{ id: string; span: ElementSpan }[] | undefined> {
  if (!isList(file)) return undefined;
  const entries: { id: string; span: ElementSpan }[] = [];
  const seen = new Map<string, number>();
  for await (const { span, text } of topArraySpans(file)) {
    const value = parseElement(file, span, text);
    if (span.index === 0 && !isRunList(value)) return undefined;
    const base = chatRunId(value, span.index);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    entries.push({ id: n === 1 ? base : `${base}~${n}`, span });
  }
  return entries;
}

export const openaiChatImporter: Importer = {
  format: "openai-chat",
  async *events(ref, stats, span): AsyncGenerator<ImportedEvent> {
    const { file, id: wanted } = splitAdpRef(ref);
    if (span !== undefined && wanted !== undefined) {
      yield* spanEvents(file, span, stats);
      return;
    }
    const runs = { n: 0 };
    if (isList(file)) {
      // A list of messages is one transcript; a list of runs is read run by run (all, or the one named).
      const seen = new Map<string, number>();
      let messages: unknown[] | undefined;
      for await (const { span: at, text } of topArraySpans(file)) {
        const value = parseElement(file, at, text);
        if (at.index === 0 && !isRunList(value)) messages = [];
        if (messages !== undefined) {
          messages.push(value);
          continue;
        }
        const base = chatRunId(value, at.index);
        const n = (seen.get(base) ?? 0) + 1;
        seen.set(base, n);
        const id = n === 1 ? base : `${base}~${n}`;
        if (wanted !== undefined && id !== wanted) continue;
        yield* transcriptEvents(file, `[${at.index}].traj`, wanted === undefined ? id : "", isObject(value) && Array.isArray(value.traj) ? value.traj : [], stats, runs);
        if (wanted !== undefined) break;
      }
      if (messages !== undefined) yield* transcriptEvents(file, "", "", messages, stats, runs);
    } else {
      const messages: unknown[] = [];
      for await (const { value } of arrayElements(file, "messages")) messages.push(value);
      yield* transcriptEvents(file, "messages", "", messages, stats, runs);
    }
    stats.runs = runs.n;
  },
  wholeEvents(ref, stats, span): Iterable<ImportedEvent> | undefined {
    // A run of a list, found by the listing: read from its bytes, nothing to wait for.
    const { file, id: wanted } = splitAdpRef(ref);
    return span !== undefined && wanted !== undefined ? spanEvents(file, span, stats) : undefined;
  },
};

/** The events of the run of a list that lies at `span` (the listing found it). */
function* spanEvents(file: string, span: ElementSpan, stats: ImportStats): Generator<ImportedEvent> {
  const runs = { n: 0 };
  const value = parseElement(file, span, readSpan(file, span));
  yield* transcriptEvents(file, `[${span.index}].traj`, "", isObject(value) && Array.isArray(value.traj) ? value.traj : [], stats, runs);
  stats.runs = runs.n;
}

interface PendingCall {
  readonly id: string;
  readonly tool: string;
  readonly params: unknown;
  readonly at: string;
}

/** One transcript's events; `prefix` names runs when several transcripts share one read. */
function* transcriptEvents(file: string, path: string, prefix: string, messages: readonly unknown[], stats: ImportStats, runs: { n: number }): Generator<ImportedEvent> {
  let run = "";
  let ownRuns = 0;
  const nextRun = (): string => {
    runs.n++;
    ownRuns++;
    return `${prefix === "" ? "" : `${prefix}/`}run-${ownRuns}`;
  };
  let issued: PendingCall[] = [];
  let answers: { call: PendingCall; text: string; at: string }[] = [];
  const where = (i: number) => `${file}#${path === "" ? "" : `${path}`}[${i}]`;
  /** The calls of the last assistant message that were answered, then their outcomes. */
  function* flush(): Generator<ImportedEvent> {
    const answered = new Set(answers.map((a) => a.call.id));
    for (const call of issued) {
      if (!answered.has(call.id)) {
        skip(stats, "tool call nothing answered");
        continue;
      }
      stats.calls++;
      yield { event: { type: "call", runId: run, callId: call.id, tool: call.tool, params: call.params }, at: call.at };
    }
    for (const a of answers) {
      stats.outcomes++;
      yield { event: { type: "outcome", runId: run, callId: a.call.id, tool: a.call.tool, params: a.call.params, result: textResult(a.text, toolErrorText(a.text) ? { status: "failed" } : undefined) }, at: a.at };
    }
    issued = [];
    answers = [];
  }
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    const at = where(i);
    if (!isObject(m)) continue;
    if (m.role === "tool") {
      const id = typeof m.tool_call_id === "string" ? m.tool_call_id : undefined;
      const call = issued.find((c) => c.id === id && !answers.some((a) => a.call.id === c.id));
      if (call === undefined) stats.orphanOutcomes++;
      else answers.push({ call, text: textOf(m.content), at });
      continue;
    }
    yield* flush();
    if (m.role === "user") run = nextRun();
    else if (m.role === "assistant") {
      if (run === "") run = nextRun();
      const said = textEvent("message", run, m.content, at);
      if (said !== undefined) yield said;
      if (Array.isArray(m.tool_calls)) {
        m.tool_calls.forEach((entry, k) => {
          const call = toolCallEntry(entry);
          if (call === undefined) skip(stats, "tool call without an id");
          else issued.push({ ...call, at: `${at}.tool_calls[${k}]` });
        });
      }
    } else if (m.role !== "system") skip(stats, `role ${String(m.role)}`);
  }
  yield* flush();
}
