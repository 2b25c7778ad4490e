// What the environment answered in the public datasets' session files, counted straight from
// the raw JSON by the shared convention of issue 35 (docs/guide/formats.md), independently of the
// importers: bench/datasetCalls.ts and test/datasetsImport.test.ts check the importers against it.
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { gunzipSync } from "node:zlib";
import type { SessionRef } from "../src/import/sessionRefs.js";

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);
const textOf = (c: unknown): string => (typeof c === "string" ? c : Array.isArray(c) ? c.map((b) => (isObj(b) && typeof b.text === "string" ? b.text : "")).join("\n") : "");

/** Assistant actions a `<returncode>` reply or a timeout notice answered (mini-swe-agent-1). */
function answeredFenced(messages: unknown[]): number {
  let n = 0;
  for (let i = 0; i + 1 < messages.length; i++) {
    const m = messages[i];
    const next = messages[i + 1];
    if (!isObj(m) || !isObj(next) || m.role !== "assistant" || next.role !== "user") continue;
    const reply = textOf(next.content);
    // The timeout template: "The last command <command>...</command> timed out and has been killed."
    if (/<returncode>/.test(reply) || /^\s*The last (?:action|command)\b[\s\S]*?timed out and has been killed/.test(reply)) n++;
  }
  return n;
}

/** `tool_calls` entries a `tool` message with their id answered (mini-swe-agent-1.1, OpenAI chat). */
function answeredToolCalls(messages: unknown[]): number {
  const answered = new Set<string>();
  for (const m of messages) if (isObj(m) && m.role === "tool" && typeof m.tool_call_id === "string") answered.add(m.tool_call_id);
  let n = 0;
  for (const m of messages) {
    if (!isObj(m) || !Array.isArray(m.tool_calls)) continue;
    for (const c of m.tool_calls) if (isObj(c) && typeof c.id === "string" && answered.has(c.id)) n++;
  }
  return n;
}

/** Per session id inside a file (`""` for a one-session file): actions answered. */
export function answeredActions(file: string): Map<string, number> {
  const raw = readFileSync(file);
  const doc = JSON.parse((file.endsWith(".gz") ? gunzipSync(raw) : raw).toString("utf8")) as unknown;
  const out = new Map<string, number>();
  if (Array.isArray(doc) && isObj(doc[0]) && "role" in doc[0]) out.set("", answeredToolCalls(doc));
  else if (Array.isArray(doc)) {
    for (const run of doc) if (isObj(run) && Array.isArray(run.traj)) out.set(`${String(run.task_id)}/trial${String(run.trial)}`, answeredToolCalls(run.traj));
  } else if (isObj(doc) && Array.isArray(doc.messages)) {
    const chat = doc.trajectory_format === "mini-swe-agent-1.1" || doc.trajectory_format === undefined;
    out.set("", chat ? answeredToolCalls(doc.messages) : answeredFenced(doc.messages));
  }
  return out;
}

/** Every session of a multi-session file, and the first file of each folder otherwise. */
export function sampled(refs: readonly SessionRef[]): SessionRef[] {
  const seen = new Set<string>();
  return refs.filter((r) => {
    if (r.span !== undefined || r.id.includes("#")) return true;
    const runFolder = dirname(dirname(r.id));
    if (seen.has(runFolder)) return false;
    seen.add(runFolder);
    return true;
  });
}

