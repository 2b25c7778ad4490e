// SPEC H1: the identity of a call, `<tool>:<digest of its stably serialized params>`.
import type { Digest } from "./digest.js";

export function argsHash(digest: Digest, tool: string, params: unknown): string {
  return `${tool}:${digest.value(params)}`;
}
