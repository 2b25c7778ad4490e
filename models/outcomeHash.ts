// SPEC H2: what an outcome is worth as evidence of progress. The first rule that applies wins.
import type { Digest } from "./digest.js";
import { stableSerialize } from "./stableSerialize.js";
import { extractUnknownTool } from "./unknownTool.js";

export interface OutcomeDigest {
  /** undefined: nothing is recorded (no result, or a loop veto). */
  readonly resultHash: string | undefined;
  readonly unknownTool?: string;
}

export interface OutcomeInput {
  readonly tool: string; // normalised
  readonly params: unknown;
  readonly result?: unknown;
  readonly error?: unknown;
  readonly hasError: boolean;
}

const NO_HASH: OutcomeDigest = { resultHash: undefined };

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message !== "" ? error.message : error.name;
  // A boolean needs no case: its serialization is its text. NaN and infinities do need one.
  switch (typeof error) {
    case "number":
    case "bigint":
      return String(error);
    case "string":
      return error;
    default:
      return stableSerialize(error);
  }
}

export function hashOutcome(input: OutcomeInput, digest: Digest): OutcomeDigest {
  if (input.hasError) {
    const text = errorText(input.error);
    const unknownTool = extractUnknownTool(text);
    const resultHash = `error:${digest.text(text)}`;
    return unknownTool === undefined ? { resultHash } : { resultHash, unknownTool };
  }
  const result = input.result;
  if (!isPlainObject(result)) {
    return result === undefined ? NO_HASH : { resultHash: digest.value(result) };
  }
  const details = isPlainObject(result.details) ? result.details : {};
  const text = contentText(result.content);
  if (isLoopVeto(details)) return NO_HASH;
  return { resultHash: digest.value(progressShape(input, details, text)) };
}

/** H2.4: the result the engine gives a blocked call (E4). */
export function isLoopVeto(details: Record<string, unknown>): boolean {
  return details.status === "blocked" && details.deniedReason === "tool-loop";
}

/** H2.3: the text of every content entry with a string type and text, joined, trimmed. */
export function contentText(content: unknown): string {
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const entry of content) {
    if (isPlainObject(entry) && typeof entry.type === "string" && typeof entry.text === "string") {
      parts.push(entry.text);
    }
  }
  return parts.join("\n").trim();
}

/** Rules 5 to 8: the part of a result that changes only when work progresses. */
function progressShape(
  input: OutcomeInput,
  details: Record<string, unknown>,
  text: string,
): unknown {
  if (input.tool === "exec") {
    const shape = execShape(details, text);
    if (shape !== undefined) return shape;
  }
  const params = isPlainObject(input.params) ? input.params : {};
  if (input.tool === "process" && params.action === "poll") {
    return {
      action: "poll",
      status: orNull(details.status),
      exitCode: orNull(details.exitCode),
      exitSignal: orNull(details.exitSignal),
      aggregated: orNull(details.aggregated),
      text,
    };
  }
  if (input.tool === "process" && params.action === "log") {
    return {
      action: "log",
      status: orNull(details.status),
      totalLines: orNull(details.totalLines),
      totalChars: orNull(details.totalChars),
      truncated: orNull(details.truncated),
      exitCode: orNull(details.exitCode),
      exitSignal: orNull(details.exitSignal),
      text,
    };
  }
  if (isSendLike(input.tool, params)) return stripSendIds(details);
  return { details, text };
}

function execShape(details: Record<string, unknown>, text: string): unknown {
  const status = details.status;
  switch (status) {
    case "running":
      return { status, tail: orNull(details.tail) };
    case "completed":
    case "failed": {
      const aggregated = details.aggregated;
      const output = typeof aggregated === "string" && aggregated.trim() !== "" ? aggregated : text;
      return {
        status,
        exitCode: typeof details.exitCode === "number" ? details.exitCode : null,
        timedOut: details.timedOut === true,
        output,
      };
    }
    case "approval-pending":
    case "approval-unavailable":
      return {
        status,
        reason: orNull(details.reason),
        host: orNull(details.host),
        command: orNull(details.command),
        warningText: orNull(details.warningText),
      };
  }
  return undefined; // any other status, or none: the general rule
}

function orNull(value: unknown): unknown {
  return value === undefined ? null : value;
}

const SEND_ACTIONS = new Set([
  "send",
  "broadcast",
  "reply",
  "thread-reply",
  "sendWithEffect",
  "sendAttachment",
  "upload-file",
  "sticker",
  "poll",
]);

/** H2.7: calls whose results carry fresh platform ids on every send. */
export function isSendLike(tool: string, params: Record<string, unknown>): boolean {
  if (tool === "sessions_send") return true;
  // Set#has answers false for anything that is not one of its strings.
  return tool === "message" && SEND_ACTIONS.has(params.action as string);
}

const VOLATILE_SEND_KEYS = new Set([
  "messageId",
  "message_id",
  "messageIds",
  "platformMessageId",
  "platformMessageIds",
  "fileId",
  "file_id",
  "fileKey",
  "pollId",
  "poll_id",
  "receipt",
  "runId",
  "idempotencyKey",
  "ts",
  "timestamp",
  "sentAt",
  "deliveredAt",
  "createdAt",
]);

/** A message object: its `id` is a fresh platform id, not content. */
function isMessageObject(value: Record<string, unknown>): boolean {
  if (typeof value.id !== "string") return false;
  if (typeof value.text === "string") return true;
  return (
    typeof value.direction === "string" ||
    typeof value.senderId === "string" ||
    typeof value.accountId === "string" ||
    isPlainObject(value.conversation)
  );
}

function stripSendIds(value: unknown, seen: Set<object> = new Set()): unknown {
  if (Array.isArray(value)) {
    if (seen.has(value)) return value;
    seen.add(value);
    return value.map((entry) => stripSendIds(entry, seen));
  }
  if (!isPlainObject(value)) return value;
  if (seen.has(value)) return value; // a cycle: the serializer writes it as a back-reference
  seen.add(value);
  const dropId = isMessageObject(value);
  // Null prototype: a key named "__proto__" is kept as data, not taken as the object's prototype.
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    if (VOLATILE_SEND_KEYS.has(key) || (dropId && key === "id")) continue;
    out[key] = stripSendIds(value[key], seen);
  }
  return out;
}
