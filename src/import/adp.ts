// Agent Data Protocol (ADP) files: a JSON list of trajectories {id, content: [...], details}, the
// standard about 30 public agent datasets have been converted to. Each trajectory is a session of
// its own, named `file#id`; `content` is its steps in order, each with a `class_`.
// - call: `api_action {function, kwargs}` (tool = function, params = kwargs as written: values
//   the model wrote as JSON strings stay strings) and `code_action {language, content}` (tool =
//   `bash` for shell code, which SPEC E2 makes exec, else the language; params {command} or {code});
// - outcome: the next observation (text_, web_ or image_observation), whoever it names as source;
//   an action followed by another action before any observation gets no outcome;
// - failed (ADP has no error flag): an observation that begins with "ERROR:" (OpenHands' editor)
//   or with SWE-agent's rejected-edit reply (failure.ts, rejectedEditText: the file did not change),
//   reports a non-zero exit code ("exit code N"), or says the command timed out;
// - message_action is the agent talking: not a call. One run per trajectory, named by its id.
import { existsSync } from "node:fs";
import { rejectedEditText } from "./failure.js";
import { isObject } from "./jsonl.js";
import { parseElement, readSpan, topArraySpans, type ElementSpan } from "./jsonDocument.js";
import { textResult, type ImportedEvent, type Importer, type ImportStats } from "./types.js";

const SHELLS: ReadonlySet<string> = new Set(["bash", "sh", "shell", "zsh", "console"]);

/** `file#id` -> its parts; a plain file has no id (every trajectory in it). */
export function splitAdpRef(ref: string): { file: string; id: string | undefined } {
  const at = ref.lastIndexOf("#");
  if (at < 0 || existsSync(ref)) return { file: ref, id: undefined };
  return { file: ref.slice(0, at), id: ref.slice(at + 1) };
}

function observationText(step: Record<string, unknown>): string {
  if (typeof step.content === "string") return step.content;
  if (typeof step.axtree === "string") return step.axtree;
  if (typeof step.html === "string") return step.html;
  if (typeof step.url === "string") return step.url;
  return JSON.stringify(step.content ?? null);
}

export function adpFailure(text: string): { status: string; exitCode?: number } | undefined {
  const code = /exit code[:\s]+(-?\d+)/i.exec(text);
  if (code !== null && Number(code[1]) !== 0) return { status: "failed", exitCode: Number(code[1]) };
  if (/^\s*ERROR:/.test(text) || rejectedEditText(text)) return { status: "failed" };
  if (/timed out|timeout after \d+/i.test(text)) return { status: "timeout" };
  return undefined;
}

function callOf(step: Record<string, unknown>): { tool: string; params: unknown } | undefined {
  if (step.class_ === "api_action") {
    const tool = typeof step.function === "string" && step.function.trim() !== "" ? step.function : undefined;
    return tool === undefined ? undefined : { tool, params: step.kwargs ?? {} };
  }
  if (step.class_ === "code_action") {
    const language = typeof step.language === "string" ? step.language.toLowerCase() : "";
    const content = typeof step.content === "string" ? step.content : "";
    if (content.trim() === "") return undefined;
    return SHELLS.has(language) || language === "" ? { tool: "bash", params: { command: content } } : { tool: language, params: { code: content } };
  }
  return undefined;
}

export const adpImporter: Importer = {
  format: "adp",
  async *events(ref, stats, span): AsyncGenerator<ImportedEvent> {
    const { file, id: wanted } = splitAdpRef(ref);
    const runs = new Set<string>();
    if (span !== undefined && wanted !== undefined) {
      // Dealt with its place in the file (from the listing): its bytes alone are read.
      yield* trajectoryEvents(file, span.index, wanted, parseElement(file, span, readSpan(file, span)), stats, runs);
    } else {
      const seen = new Map<string, number>();
      for await (const { span: at, text } of topArraySpans(file)) {
        const value = parseElement(file, at, text);
        const id = uniqueId(value, at.index, seen);
        if (wanted !== undefined && id !== wanted) continue;
        yield* trajectoryEvents(file, at.index, id, value, stats, runs);
        if (wanted !== undefined) break;
      }
    }
    stats.runs = runs.size;
  },
};

/** One trajectory's calls and outcomes, as one run named by its id. */
function* trajectoryEvents(file: string, index: number, id: string, value: unknown, stats: ImportStats, runs: Set<string>): Generator<ImportedEvent> {
  if (!isObject(value)) return;
  const content = Array.isArray(value.content) ? value.content : [];
  let pending: { callId: string; tool: string; params: unknown } | undefined;
  let n = 0;
  for (let i = 0; i < content.length; i++) {
    const step = content[i];
    const at = `${file}#[${index}].content[${i}]`;
    if (!isObject(step)) continue;
    const kind = typeof step.class_ === "string" ? step.class_ : "";
    if (kind === "api_action" || kind === "code_action") {
      const call = callOf(step);
      if (call === undefined) {
        stats.formatErrors++;
        continue;
      }
      const callId = `step-${++n}`;
      stats.calls++;
      runs.add(id);
      pending = { callId, ...call };
      yield { event: { type: "call", runId: id, callId, tool: call.tool, params: call.params }, at };
    } else if (kind.endsWith("_observation")) {
      if (pending === undefined) continue; // the task, or the environment speaking first
      const text = observationText(step);
      const failed = adpFailure(text);
      stats.outcomes++;
      yield { event: { type: "outcome", runId: id, callId: pending.callId, tool: pending.tool, params: pending.params, result: textResult(text, failed) }, at };
      pending = undefined;
    } else if (kind !== "message_action") {
      const skipped = kind === "" ? "step without class_" : kind;
      stats.skipped[skipped] = (stats.skipped[skipped] ?? 0) + 1;
    }
  }
}

/**
 * A trajectory's id, unique within its file: some datasets repeat ids (webarena_successful has six
 * trajectories with id "0"), so the 2nd, 3rd ... of the same id become `0~2`, `0~3`; one without
 * an id is named by its position.
 */
function uniqueId(value: unknown, index: number, seen: Map<string, number>): string {
  const base = isObject(value) && (typeof value.id === "string" || typeof value.id === "number") ? String(value.id) : `[${index}]`;
  const n = (seen.get(base) ?? 0) + 1;
  seen.set(base, n);
  return n === 1 ? base : `${base}~${n}`;
}

/** The trajectories of an ADP file, in order, each with its unique id and its bytes' place: one pass over the file. */
export async function adpEntries(file: string): Promise<{ id: string; span: ElementSpan }[]> {
  const entries: { id: string; span: ElementSpan }[] = [];
  const seen = new Map<string, number>();
  for await (const { span, text } of topArraySpans(file)) entries.push({ id: uniqueId(parseElement(file, span, text), span.index, seen), span });
  return entries;
}
