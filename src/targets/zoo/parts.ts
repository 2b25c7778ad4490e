// Broken parts the bug-zoo variants compose the reference engine with. Each is a plausible
// implementation mistake, written here so that models/ stays the reference alone.
import type { Digest } from "../../../models/digest.js";
import { abortMessage, guardStep, type GuardReducer, type GuardState } from "../../../models/guard.js";
import type { HistoryIndex, CallCounts, OutcomeFacts } from "../../../models/history/types.js";
import { ScanningHistory } from "../../../models/history/scanning.js";
import { NO_RUN } from "../../../models/normalize.js";
import { contentText, hashOutcome, isLoopVeto, isPlainObject, isSendLike, type OutcomeDigest, type OutcomeInput } from "../../../models/outcomeHash.js";

/** H2.7 missed: send results hashed with their fresh platform ids, so every send looks new. */
export function hashKeepingSendIds(input: OutcomeInput, digest: Digest): OutcomeDigest {
  const result = input.result;
  if (input.hasError || !isPlainObject(result)) return hashOutcome(input, digest);
  const details = isPlainObject(result.details) ? result.details : {};
  const params = isPlainObject(input.params) ? input.params : {};
  if (isLoopVeto(details) || !isSendLike(input.tool, params)) return hashOutcome(input, digest);
  return { resultHash: digest.value({ details, text: contentText(result.content) }) };
}

/** H2.4 missed: the loop veto is hashed like any result, and its message changes with the count. */
export function hashRecordingVetoes(input: OutcomeInput, digest: Digest): OutcomeDigest {
  const result = input.result;
  if (input.hasError || !isPlainObject(result)) return hashOutcome(input, digest);
  const details = isPlainObject(result.details) ? result.details : {};
  if (!isLoopVeto(details)) return hashOutcome(input, digest);
  return { resultHash: digest.value({ details, text: contentText(result.content) }) };
}

/** G5 missed: once armed, the guard keeps counting every later observation of the run. */
export const guardNeverDisarming: GuardReducer = (state, event) => {
  if (state.phase !== "armed" || event.type !== "observe") return guardStep(state, event);
  const counts = new Map(state.counts);
  const seen = (counts.get(event.triple) ?? 0) + 1;
  counts.set(event.triple, seen);
  if (seen >= event.windowSize) return { state: { phase: "idle" }, abort: { tool: event.tool, count: seen, message: abortMessage(event.tool, seen) } };
  const next: GuardState = { phase: "armed", remaining: Math.max(0, state.remaining - 1), counts };
  return { state: next };
};

/** R1 missed: every run files into and reads one shared history (#40144). */
export class UnscopedHistory implements HistoryIndex {
  constructor(private readonly inner: HistoryIndex) {}
  appendCall(_run: string, tool: string, argsHash: string, callId: string | undefined): void {
    this.inner.appendCall(NO_RUN, tool, argsHash, callId);
  }
  recordOutcome(_run: string, tool: string, argsHash: string, callId: string | undefined, facts: OutcomeFacts): void {
    this.inner.recordOutcome(NO_RUN, tool, argsHash, callId, facts);
  }
  countsFor(_run: string, tool: string, argsHash: string): CallCounts {
    return this.inner.countsFor(NO_RUN, tool, argsHash);
  }
  clear(): void {
    this.inner.clear();
  }
  size(): number {
    return this.inner.size();
  }
  stateSize(): number {
    return this.inner.stateSize();
  }
}

/** S1 as #71671 proposed it: the no-progress streak stops at any other call in between. */
export class ContiguousStreakHistory extends ScanningHistory {
  override countsFor(run: string, tool: string, argsHash: string): CallCounts {
    const counts = super.countsFor(run, tool, argsHash);
    let noProgress = 0;
    let result: string | undefined;
    for (const r of this.runRecords(run)) {
      if (r.tool !== tool || r.argsHash !== argsHash) break;
      if (r.resultHash === undefined) continue;
      if (result === undefined) result = r.resultHash;
      if (r.resultHash !== result) break;
      noProgress++;
    }
    return { ...counts, noProgress, noProgressResult: result };
  }
}

/**
 * R3 missed across runs: an outcome with a callId fills the newest pending call with that callId,
 * tool and args in any run. Runtimes number call ids per run (call_0, call_1, ...), so a second
 * run's outcome lands in the first run's record.
 */
export class CallIdsAcrossRunsHistory implements HistoryIndex {
  private pending: { run: string; tool: string; argsHash: string; callId: string }[] = [];

  constructor(
    private readonly inner: HistoryIndex,
    private readonly historySize: number,
  ) {}

  appendCall(run: string, tool: string, argsHash: string, callId: string | undefined): void {
    this.inner.appendCall(run, tool, argsHash, callId);
    if (callId === undefined) return;
    this.pending.push({ run, tool, argsHash, callId });
    if (this.pending.length > this.historySize) this.pending.shift();
  }

  recordOutcome(run: string, tool: string, argsHash: string, callId: string | undefined, facts: OutcomeFacts): void {
    if (callId !== undefined) {
      for (let i = this.pending.length - 1; i >= 0; i--) {
        const p = this.pending[i] as (typeof this.pending)[number];
        if (p.callId !== callId || p.tool !== tool || p.argsHash !== argsHash) continue;
        this.pending.splice(i, 1);
        this.inner.recordOutcome(p.run, tool, argsHash, callId, facts);
        return;
      }
    }
    this.inner.recordOutcome(run, tool, argsHash, callId, facts);
  }

  countsFor(run: string, tool: string, argsHash: string): CallCounts {
    return this.inner.countsFor(run, tool, argsHash);
  }
  clear(): void {
    this.pending = [];
    this.inner.clear();
  }
  size(): number {
    return this.inner.size();
  }
  stateSize(): number {
    return this.inner.stateSize() + this.pending.length;
  }
}

/** S3 missed: the unknown-tool streak passes over pending records instead of stopping at one. */
export class PendingBlindUnknownStreakHistory extends ScanningHistory {
  override countsFor(run: string, tool: string, argsHash: string): CallCounts {
    const counts = super.countsFor(run, tool, argsHash);
    let unknownStreak = 0;
    let unknownName: string | undefined;
    for (const r of this.runRecords(run)) {
      if (r.resultHash === undefined) continue;
      if (r.tool !== tool || r.unknownTool === undefined) break;
      unknownName ??= r.unknownTool;
      if (r.unknownTool !== unknownName) break;
      unknownStreak++;
    }
    return { ...counts, unknownStreak, unknownName: unknownStreak === 0 ? undefined : unknownName };
  }
}
