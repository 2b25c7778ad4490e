// SPEC H1: the identity of a call, `<tool>:<digest of its stably serialized params>`.
import { digestText } from "./digest.js";
import { stableSerialize } from "./stableSerialize.js";

/**
 * The same params are hashed again and again: by a call and by its outcome, and by every call
 * of a loop. A small memo from serialized params to digest saves the SHA-256 each time; it is
 * exact (same text, same digest) and bounded (oldest entry dropped first).
 */
export const ARGS_MEMO_CAPACITY = 512;

export class ArgsHasher {
  private readonly memo = new Map<string, string>();

  constructor(private readonly capacity = ARGS_MEMO_CAPACITY) {}

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
