// Token cost of a call or result, derived deterministically from its size (about 4 characters
// a token, plus a fixed overhead per message), so wasted tokens are comparable across configs.
import type { ToolEvent } from "../../models/events.js";

const OVERHEAD_TOKENS = 12;
/** Characters JSON.stringify escapes in a string: with none of them, its JSON is the string and two quotes. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

export function tokensOf(value: unknown): number {
  return tokensOfLength(value === undefined ? 0 : (jsonLength(value, 0) ?? (JSON.stringify(value) ?? "").length));
}
const tokensOfLength = (length: number): number => OVERHEAD_TOKENS + Math.ceil(length / 4);

/**
 * tokensOf(value) from JSON.stringify(value), made already (a call's args, src/import/facts.ts
 * rawArgs): the same count, without measuring the value again (test/loopsFastPaths.test.ts).
 */
export function tokensOfJson(json: string): number {
  return tokensOfLength(json.length);
}

/** Past this depth the JSON is built after all (and JSON.stringify says what is wrong with a cycle). */
const MAX_DEPTH = 64;
/** The last long string measured: a result holds its output twice (the text, and `aggregated` beside it). */
let lastString = "";
let lastStringLength = 2;

/** Characters JSON.stringify writes as \u escapes (control characters without a short escape, lone surrogates): rare, measured by stringifying. */
const LONG_ESCAPE = /[\u0000-\u0007\u000b\u000e-\u001f\ud800-\udfff]/;
/** Characters JSON.stringify writes as two: \" \\ \n \r \t \b \f. */
const SHORT_ESCAPES = ['"', "\\", "\n", "\r", "\t", "\b", "\f"];

/** A string's JSON length without building the JSON (counting what it escapes), measured once for a string met twice in a row. */
function stringJsonLength(text: string): number {
  if (!NEEDS_ESCAPE.test(text)) return text.length + 2;
  if (text === lastString) return lastStringLength;
  let length = text.length + 2;
  if (LONG_ESCAPE.test(text)) length = JSON.stringify(text).length;
  else for (const escaped of SHORT_ESCAPES) for (let at = text.indexOf(escaped); at !== -1; at = text.indexOf(escaped, at + 1)) length++;
  if (text.length > 256) {
    lastString = text;
    lastStringLength = length;
  }
  return length;
}

/**
 * The length of JSON.stringify(value), summed over its parts without building the whole (a
 * session's results are tens of MB of text); undefined for anything but plain JSON data (a
 * toJSON, a class instance, a bigint, a deep or cyclic value), which the caller stringifies.
 */
function jsonLength(value: unknown, depth: number): number | undefined {
  switch (typeof value) {
    case "string":
      return stringJsonLength(value);
    case "number":
      return Number.isFinite(value) ? String(value).length : 4;
    case "boolean":
      return value ? 4 : 5;
    case "object": {
      if (value === null) return 4;
      if (depth >= MAX_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === "function") return undefined;
      if (Array.isArray(value)) {
        let length = value.length === 0 ? 2 : value.length + 1; // brackets and commas
        for (const element of value) {
          // undefined, a function or a symbol in an array is written null
          const part = element === undefined || typeof element === "function" || typeof element === "symbol" ? 4 : jsonLength(element, depth + 1);
          if (part === undefined) return undefined;
          length += part;
        }
        return length;
      }
      const prototype = Object.getPrototypeOf(value) as unknown;
      if (prototype !== Object.prototype && prototype !== null) return undefined;
      let length = 1; // the opening brace (each member adds its comma or the closing brace)
      let members = 0;
      for (const key of Object.keys(value)) {
        const member = (value as Record<string, unknown>)[key];
        // undefined, a function or a symbol as a member's value is left out
        if (member === undefined || typeof member === "function" || typeof member === "symbol") continue;
        const part = jsonLength(member, depth + 1);
        if (part === undefined) return undefined;
        length += stringJsonLength(key) + 1 + part + 1;
        members++;
      }
      return members === 0 ? 2 : length;
    }
    default:
      return undefined;
  }
}

/** What an event costs in tokens: a call its args, an outcome its error or else its result, a compaction nothing. */
export function eventTokens(event: ToolEvent): number {
  if (event.type === "call") return tokensOf(event.params);
  if (event.type === "outcome") return tokensOf(event.error !== undefined ? event.error : event.result);
  if (event.type === "message" || event.type === "thought") return tokensOf(event.text);
  return 0;
}
