// Token cost of a call or result, derived deterministically from its size (about 4 characters
// a token, plus a fixed overhead per message), so wasted tokens are comparable across configs.
import type { ToolEvent } from "../../models/events.js";

const OVERHEAD_TOKENS = 12;
/** Characters JSON.stringify escapes in a string: with none of them, its JSON is the string and two quotes. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

export function tokensOf(value: unknown): number {
  // A plain string's JSON length without building the JSON: the same number, far less work.
  const length = typeof value === "string" && !NEEDS_ESCAPE.test(value) ? value.length + 2 : (value === undefined ? "" : JSON.stringify(value) ?? "").length;
  return OVERHEAD_TOKENS + Math.ceil(length / 4);
}

/** What an event costs in tokens: a call its args, an outcome its error or else its result, a compaction nothing. */
export function eventTokens(event: ToolEvent): number {
  if (event.type === "call") return tokensOf(event.params);
  if (event.type === "outcome") return tokensOf(event.error !== undefined ? event.error : event.result);
  if (event.type === "message" || event.type === "thought") return tokensOf(event.text);
  return 0;
}
