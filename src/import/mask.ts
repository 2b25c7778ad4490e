// What "the same call" and "the same result" mean for mining real loops: text with everything a
// retry changes without the agent learning anything masked out. Timestamps, UUIDs and other hex
// ids, temporary paths and every run of digits (line numbers, pids, counters, durations, ports)
// are replaced by placeholders, so a `javac` re-run whose output differs only by a bash line
// number, or a poll whose only change is a clock, reads as the same text. Pure and deterministic.
// It sits with the importers, below the targets, because two layers need it: the miner of real
// loops (src/realLoops) and the candidate guard rules (src/targets/candidates), which key a
// failure by its masked text.
import type { CallEvent, OutcomeEvent } from "../../models/events.js";

/** Placeholder patterns, applied in this order (a timestamp before its digits, a UUID before its hex). */
const MASKS: readonly (readonly [RegExp, string])[] = [
  // ISO dates and times, with or without a zone: 2026-12-03T10:00:01.123Z, 2026-12-03 10:00:01
  [/\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?/g, "<time>"],
  // clock times on their own: 10:00:01, 10:00:01.5
  [/\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g, "<time>"],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "<id>"],
  // temporary files and folders: /tmp/..., /var/folders/..., tmpab12_x
  [/(?:\/tmp|\/var\/folders|\/private\/var\/folders|\/var\/tmp)(?:\/[\w.@+-]+)*/g, "<tmp>"],
  [/\btmp[\w-]{4,}\b/g, "<tmp>"],
  // hex ids of six or more characters with at least one digit and one letter (commit hashes, object addresses)
  [/\b(?:0x)?(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{6,}\b/gi, "<id>"],
  [/\d+/g, "#"],
];

export function maskText(text: string): string {
  let out = text;
  for (const [pattern, placeholder] of MASKS) out = out.replace(pattern, placeholder);
  return out;
}

/** A call's masked shape: its tool and its args as JSON, masked. */
export function maskedCall(call: Pick<CallEvent, "tool" | "params">): string {
  return `${call.tool} ${maskText(JSON.stringify(call.params ?? null) ?? "null")}`;
}

/** The text of an outcome: a result's text blocks joined, or its JSON; an error as text. */
export function outcomeText(outcome: Pick<OutcomeEvent, "result" | "error"> | undefined): string {
  if (outcome === undefined) return "";
  if (outcome.error !== undefined) return typeof outcome.error === "string" ? outcome.error : (JSON.stringify(outcome.error) ?? "");
  const result = outcome.result;
  if (typeof result === "string") return result;
  if (result === undefined || result === null) return "";
  const content = (result as { content?: unknown }).content;
  const details = (result as { details?: unknown }).details;
  if (Array.isArray(content)) {
    const text = content.map((c) => (typeof (c as { text?: unknown })?.text === "string" ? (c as { text: string }).text : JSON.stringify(c))).join("\n");
    // Details (an exit code, a status) are part of what the agent learns.
    return details === undefined ? text : `${text}\n${JSON.stringify(details)}`;
  }
  return JSON.stringify(result) ?? "";
}
