// SPEC H1: the identity of a call is its normalised tool plus a digest of its params.
import { digestValue } from "./digest.js";

export function argsHash(tool: string, params: unknown): string {
  return `${tool}:${digestValue(params)}`;
}
