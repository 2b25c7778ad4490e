// SPEC H1: the identity of a call is its normalised tool plus a digest of its params.
import { digestText } from "./digest.js";
import { stableSerialize } from "./stableSerialize.js";

export function argsHash(tool: string, params: unknown): string {
  return `${tool}:${digestText(stableSerialize(params))}`;
}

/**
 * The same params are hashed again and again: by a call and by its outcome, and by every call
 * of a loop. A small memo from serialized params to digest saves the SHA-256 each time; it is
 * exact (same text, same digest) and bounded (oldest entry dropped first).
 */
export class ArgsHasher {
  private readonly memo = new Map<string, string>();

  constructor(private readonly capacity = 512) {}

  hash(tool: string, params: unknown): string {
    const text = stableSerialize(params);
    let digest = this.memo.get(text);
    if (digest === undefined) {
      digest = digestText(text);
      if (this.memo.size >= this.capacity) this.memo.delete(this.memo.keys().next().value as string);
      this.memo.set(text, digest);
    }
    return `${tool}:${digest}`;
  }

  size(): number {
    return this.memo.size;
  }
}
