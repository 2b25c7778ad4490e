// Which format a session file is in, from its content (the first line, or the start of a single
// JSON document), not from its name; a loopsim trace is recognised too.
import { closeSync, openSync, readSync } from "node:fs";
import { UserError } from "../io/errors.js";
import { inputKind, withFsErrors } from "../io/fsErrors.js";
import { adpImporter, splitAdpRef } from "./adp.js";
import { claudeCodeImporter } from "./claudeCode.js";
import { codexImporter } from "./codex.js";
import { miniSweAgentImporter } from "./miniSweAgent.js";
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
};

export type DetectedFormat = SessionFormat | "trace";

const HEAD_BYTES = 256 * 1024;

function head(file: string): string {
  // A folder, a missing file or one without permission names its path (never ": is a directory").
  if (inputKind(file) === "folder") throw new UserError(`${file}: is a directory, expected a trace or session file (scan and import take folders)`);
  return withFsErrors(file, "read it", () => {
    const fd = openSync(file, "r");
    try {
      const buffer = Buffer.alloc(HEAD_BYTES);
      const n = readSync(fd, buffer, 0, HEAD_BYTES, 0);
      return buffer.subarray(0, n).toString("utf8");
    } finally {
      closeSync(fd);
    }
  });
}

function firstObject(text: string): Record<string, unknown> | undefined {
  const line = text.split("\n").find((l) => l.trim() !== "");
  if (line === undefined) return undefined;
  try {
    const value = JSON.parse(line) as unknown;
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function detectFormat(ref: string): DetectedFormat | undefined {
  const file = splitAdpRef(ref).file;
  const text = head(file).replace(/^\uFEFF/, "");
  const first = firstObject(text);
  if (first !== undefined && !text.trimStart().startsWith("{\n")) {
    const type = first.type;
    if (type === "call" || type === "outcome" || type === "compaction") return "trace";
    if (type === "session" || (type === "message" && typeof first.message === "object")) return "openclaw";
    if (typeof first.payload === "object" && ["session_meta", "response_item", "event_msg", "turn_context", "compacted"].includes(String(type))) return "codex";
    if ("sessionId" in first || "parentUuid" in first || "uuid" in first || ["summary", "file-history-snapshot", "queue-operation", "user", "assistant", "system"].includes(String(type))) return "claude-code";
  }
  if (text.trimStart().startsWith("{")) {
    if (/"trajectory_format"\s*:\s*"mini-swe-agent/.test(text)) return "mini-swe-agent";
    // SWE-agent 1.x keeps each step's `messages` beside `info`, so its own `trajectory` list
    // decides first (a quoted key inside a string is escaped and never matches).
    if (/"trajectory"\s*:\s*\[/.test(text)) return "swe-agent";
    if (/"messages"\s*:\s*\[/.test(text) && (/"info"\s*:/.test(text) || file.endsWith(".traj.json"))) return "mini-swe-agent";
    // A document cut short before its telling key: the name says what it was meant to be, and
    // reading it then says what is wrong with it (not valid JSON), not "unknown format".
    if (file.endsWith(".traj.json")) return "mini-swe-agent";
    if (file.endsWith(".traj")) return "swe-agent";
  }
  if (text.trimStart().startsWith("[") && /"class_"\s*:\s*"[a-z_]+_(action|observation)"/.test(text)) return "adp";
  return undefined;
}

export function formatOf(file: string, requested: SessionFormat | "auto"): DetectedFormat {
  if (requested !== "auto") return requested;
  const found = detectFormat(file);
  if (found === undefined) throw new UserError(`${file}: not a session format loopsim reads (openclaw, claude-code, codex, swe-agent, mini-swe-agent, adp) nor a loopsim trace; name one with --format`);
  return found;
}
