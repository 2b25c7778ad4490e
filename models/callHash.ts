// SPEC H1: the identity of a call, `<tool>:<digest of its stably serialized params>`.
import type { Digest } from "./digest.js";
import { isPlainObject } from "./outcomeHash.js";

export function argsHash(digest: Digest, tool: string, params: unknown): string {
  return `${tool}:${digest.value(params)}`;
}

const MAX_DEPTH = 64;

/**
 * True only when a and b certainly serialize alike (SPEC H1): the same primitive, or plain
 * objects and arrays that match member by member. Anything else (undefined fields, NaN, Maps,
 * Dates, class instances, deep nesting) answers false, which only costs a digest.
 */
export function sameJsonValue(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true; // the same primitive (0 and -0 both write "0"), or the same object
  // Past here only arrays and plain objects can match; the checks below reject everything else.
  if (depth > MAX_DEPTH) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJsonValue(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  // for-in with hasOwn is Object.keys without the array it allocates (this runs on every event).
  let count = 0;
  for (const key in a) {
    if (!Object.hasOwn(a, key)) continue;
    count++;
    const x = a[key];
    // An undefined field is left out of the serialization, so it matches nothing here (an
    // undefined y against a defined x already fails below); a key b lacks reads as undefined.
    if (x === undefined || !sameJsonValue(x, b[key], depth + 1)) return false;
  }
  for (const key in b) if (Object.hasOwn(b, key)) count--;
  return count === 0;
}

/**
 * H1 with a one-entry memo. An outcome follows its call carrying the same params (often a copy,
 * as in any trace read from a file), and a loop repeats them: when the params are provably the
 * same value as last time, the identity is reused rather than digested again. Events are taken
 * as immutable once given to the engine, as ToolEvent's readonly fields say.
 */
export class CallIdentities {
  private lastTool = "";
  private lastParams: unknown = undefined;
  private lastHash: string | undefined;

  constructor(private readonly digest: Digest) {}

  of(tool: string, params: unknown): string {
    if (this.lastHash !== undefined && this.lastTool === tool && sameJsonValue(this.lastParams, params)) return this.lastHash;
    const hash = argsHash(this.digest, tool, params);
    this.lastTool = tool;
    this.lastParams = params;
    this.lastHash = hash;
    return hash;
  }
}
