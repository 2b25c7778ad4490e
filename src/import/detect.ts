// Which format a session file is in, from its content (the first line, or the start of a single
// JSON document), not from its name; a loopsim trace is recognised too. A gzip-compressed file is
// detected from its decompressed head (`x.traj.json.gz` is what `x.traj.json` would be).
import { closeSync, openSync, readSync } from "node:fs";
import { contentHeadText, plainName } from "../io/compressed.js";
import { UserError } from "../io/errors.js";
import { MAX_LINE_CHARS } from "../io/lines.js";
import { inputKind, withFsErrors } from "../io/fsErrors.js";
import { adpImporter, splitAdpRef } from "./adp.js";
import { claudeCodeImporter } from "./claudeCode.js";
import { codexImporter } from "./codex.js";
import { miniSweAgentImporter } from "./miniSweAgent.js";
import { openaiChatImporter } from "./openaiChat.js";
import { openclawImporter } from "./openclaw.js";
import { sweAgentImporter } from "./sweAgent.js";
import type { Importer, SessionFormat } from "./types.js";

export const IMPORTERS: Readonly<Record<SessionFormat, Importer>> = {
  openclaw: openclawImporter,
  "claude-code": claudeCodeImporter,
  codex: codexImporter,
  "swe-agent": sweAgentImporter,
  "mini-swe-agent": miniSweAgentImporter,
  adp: adpImporter,
  "openai-chat": openaiChatImporter,
};

export type DetectedFormat = SessionFormat | "trace";

const HEAD_BYTES = 256 * 1024;

function head(file: string): string {
  // A folder, a missing file or one without permission names its path (never ": is a directory").
  if (inputKind(file) === "folder") throw new UserError(`${file}: is a directory, expected a trace or session file (scan and import take folders)`);
  return withFsErrors(file, "read it", () => contentHeadText(file, HEAD_BYTES));
}

/** The first line with something on it (a head of 256 KiB is not split into all its lines for it). */
function firstNonBlankLine(text: string): string | undefined {
  for (let start = 0; start <= text.length; ) {
    const end = text.indexOf("\n", start);
    const line = end === -1 ? text.slice(start) : text.slice(start, end);
    if (line.trim() !== "") return line;
    if (end === -1) return undefined;
    start = end + 1;
  }
  return undefined;
}

function firstObject(text: string): Record<string, unknown> | undefined {
  const line = firstNonBlankLine(text);
  if (line === undefined) return undefined;
  // Only a line that reads {...} once trimmed can parse to an object (JSON's white space is part
  // of what trim removes): a pretty-printed document's "{", or a head cut inside its first line, is
  // not handed to JSON.parse to fail.
  const trimmed = line.trim();
  if (!trimmed.startsWith("{") || !trimmed.endsWith("}")) return undefined;
  try {
    const value = JSON.parse(line) as unknown;
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The whole first line, when the head cut it (an event of a few hundred KiB: a long tool output
 * in the first record). Judged by a cut line, such a file was "not a session format" in scan
 * while trace, which reads every line whole, read it; a line past the reader's own limit is
 * refused here with the reader's reason.
 */
function wholeFirstLine(file: string, text: string): string {
  // A compressed file's head is already its decompressed start; only a plain file is read on here.
  if (text.includes("\n") || Buffer.byteLength(text) < HEAD_BYTES || plainName(file) !== file) return text;
  return withFsErrors(file, "read it", () => {
    const fd = openSync(file, "r");
    try {
      const chunks: Buffer[] = [];
      let length = 0;
      const buffer = Buffer.alloc(1024 * 1024);
      for (;;) {
        const n = readSync(fd, buffer, 0, buffer.length, length);
        if (n === 0) break;
        const end = buffer.subarray(0, n).indexOf(10);
        chunks.push(Buffer.from(buffer.subarray(0, end === -1 ? n : end)));
        length += end === -1 ? n : end;
        if (end !== -1) break;
        if (length > MAX_LINE_CHARS * 4) break; // past any line the reader accepts, in any encoding
      }
      const line = Buffer.concat(chunks).toString("utf8").replace(/^\uFEFF/, "");
      if (line.length > MAX_LINE_CHARS) throw new UserError(`${file}:1: line longer than ${MAX_LINE_CHARS} characters (the limit of one event; is this a JSONL file?)`);
      return line;
    } finally {
      closeSync(fd);
    }
  });
}

export const MINI_SWE_AGENT_FORMAT = /"trajectory_format"\s*:\s*"mini-swe-agent/;
const MINI_SWE_AGENT_FORMAT_AT = /"trajectory_format"\s*:\s*"mini-swe-agent/y;

const FORMAT_KEY = '"trajectory_format"';
/** How far from the end of a head mini-swe-agent's closing key is looked for first. */
const FORMAT_KEY_TAIL = 4096;

/**
 * Whether the text has MINI_SWE_AGENT_FORMAT anywhere. mini-swe-agent writes the key last, so its
 * last occurrence is tried first; when it does not match, the whole text is searched as before.
 * Whether the key is there at all is asked first of the head's last few KiB, then of all of it
 * by a search forward: the head of a long trajectory holds none (the key comes past it), and a
 * lastIndexOf that found none had read its 256 KiB back to front, two to three times slower than
 * a forward search (about 2% of a `loops` run over the datasets; test/loopsFastPaths.test.ts
 * holds this to the pattern).
 */
export function namesMiniSweAgentFormat(text: string): boolean {
  if (text.indexOf(FORMAT_KEY, Math.max(0, text.length - FORMAT_KEY_TAIL)) === -1 && !text.includes(FORMAT_KEY)) return false;
  const last = text.lastIndexOf(FORMAT_KEY);
  MINI_SWE_AGENT_FORMAT_AT.lastIndex = last;
  return MINI_SWE_AGENT_FORMAT_AT.test(text) || MINI_SWE_AGENT_FORMAT.test(text);
}
/**
 * The format of a session file, from its first bytes (and its name): a loopsim trace or one of
 * the session formats `openSession` reads; undefined when it is none of them.
 *
 * @param ref - the file's path (an ADP file's `path#id` too).
 */
export function detectFormat(ref: string): DetectedFormat | undefined {
  const file = splitAdpRef(ref).file;
  const text = head(file).replace(/^\uFEFF/, "");
  const name = plainName(file);
  // A JSONL file whose first line outgrows the head: that line, read whole, says the format.
  const first = firstObject(text) ?? (text.trimStart().startsWith("{") && !text.trimStart().startsWith("{\n") && !/"(trajectory_format|trajectory|messages)"\s*:/.test(text) ? firstObject(wholeFirstLine(file, text)) : undefined);
  if (first !== undefined && !text.trimStart().startsWith("{\n")) {
    const type = first.type;
    if (type === "call" || type === "outcome" || type === "compaction") return "trace";
    if (type === "session" || (type === "message" && typeof first.message === "object")) return "openclaw";
    if (typeof first.payload === "object" && ["session_meta", "response_item", "event_msg", "turn_context", "compacted"].includes(String(type))) return "codex";
    if ("sessionId" in first || "parentUuid" in first || "uuid" in first || ["summary", "file-history-snapshot", "queue-operation", "user", "assistant", "system"].includes(String(type))) return "claude-code";
  }
  if (text.trimStart().startsWith("{")) {
    if (namesMiniSweAgentFormat(text)) return "mini-swe-agent";
    // An OpenAI chat transcript {messages: [...]}: chat messages, none of mini-swe-agent's keys.
    if (/^\{\s*"messages"\s*:\s*\[\s*\{\s*"(?:role|content)"/.test(text.trimStart()) && !/"info"\s*:/.test(text) && !name.endsWith(".traj.json")) return "openai-chat";
    // SWE-agent 1.x keeps each step's `messages` beside `info`, so its own `trajectory` list
    // decides first (a quoted key inside a string is escaped and never matches).
    if (/"trajectory"\s*:\s*\[/.test(text)) return "swe-agent";
    if (/"messages"\s*:\s*\[/.test(text) && (/"info"\s*:/.test(text) || name.endsWith(".traj.json"))) return "mini-swe-agent";
    // A document cut short before its telling key: the name says what it was meant to be, and
    // reading it then says what is wrong with it (not valid JSON), not "unknown format".
    if (name.endsWith(".traj.json")) return "mini-swe-agent";
    if (name.endsWith(".traj")) return "swe-agent";
  }
  if (text.trimStart().startsWith("[") && /"class_"\s*:\s*"[a-z_]+_(action|observation)"/.test(text)) return "adp";
  // OpenAI chat: a list of messages, or a list of runs whose `traj` is one (tau-bench).
  if (/^\[\s*\{\s*"(?:role|content)"\s*:/.test(text.trimStart()) && /"role"\s*:\s*"(?:system|user|assistant|tool)"/.test(text)) return "openai-chat";
  if (text.trimStart().startsWith("[") && /"traj"\s*:\s*\[\s*\{\s*"(?:role|content)"/.test(text)) return "openai-chat";
  return undefined;
}

export function formatOf(file: string, requested: SessionFormat | "auto"): DetectedFormat {
  if (requested !== "auto") return requested;
  const found = detectFormat(file);
  if (found === undefined) throw new UserError(`${file}: not a session format loopsim reads (openclaw, claude-code, codex, swe-agent, mini-swe-agent, adp, openai-chat) nor a loopsim trace; name one with --format`);
  return found;
}

let lastMulti: { file: string; format: SessionFormat } | undefined;

/** The format of a multi-session file one of whose sessions is read by its span: detected once per file. */
export function multiSessionFormat(ref: string): SessionFormat {
  const file = splitAdpRef(ref).file;
  if (lastMulti?.file !== file) {
    const found = detectFormat(file);
    lastMulti = { file, format: found === "openai-chat" ? "openai-chat" : "adp" };
  }
  return lastMulti.format;
}
