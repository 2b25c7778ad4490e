// How each runtime decides that two calls are "identical". They differ, and the difference is
// one of the design choices `loopsim compare` measures: key order ignored or not, and fields
// dropped before comparing.
import { isPlainObject } from "../../../models/outcomeHash.js";
import { stableSerialize } from "../../../models/stableSerialize.js";

/** Name and args with key order ignored (deep equality of JSON values). */
export function unorderedKey(tool: string, params: unknown): string {
  return `${tool}\u0000${stableSerialize(params)}`;
}

/** Name and args serialized as given: the same args in another key order are another call. */
export function orderedKey(tool: string, params: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(params);
  } catch {
    text = undefined; // cycles and bigints: fall back to the stable form
  }
  return `${tool}\u0000${text ?? stableSerialize(params)}`;
}

/** The params without one top-level field (Cline drops its task_progress parameter). */
export function withoutField(params: unknown, field: string): unknown {
  if (!isPlainObject(params) || !(field in params)) return params;
  const { [field]: _dropped, ...rest } = params;
  return rest;
}

/** A result or error as an observation to compare exactly (ids included, nothing stripped). */
export function observationKey(result: unknown, error: string | undefined): string {
  return error !== undefined ? `error\u0000${error}` : `ok\u0000${stableSerialize(result)}`;
}
