// SPEC W1-W2: which verdicts the caller lets out. A warning is emitted only when its bucket,
// floor(count / warningThreshold), passes the last bucket emitted for `<runId>:<warningKey>`.
// At most 256 keys are remembered, the oldest inserted dropped first. Criticals always go out.
import type { Finding } from "./verdict.js";

export const WARNING_KEY_CAPACITY = 256;

export class WarningPolicy {
  private readonly lastBucket = new Map<string, number>();

  /** bucketSize is warningThreshold in the reference; the bug zoo pins it at 10 (K5). */
  constructor(private readonly bucketSize: number) {}

  emit(run: string, found: Finding): boolean {
    if (found.level === "critical") return true;
    const key = `${run}:${found.warningKey}`;
    const bucket = Math.floor(found.count / this.bucketSize);
    const last = this.lastBucket.get(key);
    if (bucket <= (last ?? 0)) return false;
    if (last === undefined && this.lastBucket.size >= WARNING_KEY_CAPACITY) {
      const oldest = this.lastBucket.keys().next().value as string;
      this.lastBucket.delete(oldest);
    }
    this.lastBucket.set(key, bucket);
    return true;
  }

  size(): number {
    return this.lastBucket.size;
  }
}
