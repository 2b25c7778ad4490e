// The oracle: the window as a plain list, every count recomputed by scanning the run's records
// newest first exactly as SPEC S1-S4 read. Deliberately simple; it is the yardstick of the
// incremental index and must not share its bookkeeping.
import { NO_COUNTS, type CallCounts, type HistoryIndex, type OutcomeFacts } from "./types.js";

export interface ScanRecord {
  readonly run: string;
  readonly tool: string;
  readonly argsHash: string;
  readonly callId: string | undefined;
  resultHash: string | undefined;
  unknownTool: string | undefined;
}

export class ScanningHistory implements HistoryIndex {
  private records: ScanRecord[] = [];

  constructor(private readonly historySize: number) {}

  /** The run's records, newest first: what every count below reads. */
  runRecords(run: string): ScanRecord[] {
    return this.records.filter((r) => r.run === run).reverse();
  }

  private append(record: ScanRecord): void {
    this.records.push(record);
    while (this.records.length > this.historySize) this.records.shift();
  }

  appendCall(run: string, tool: string, argsHash: string, callId: string | undefined): void {
    this.append({ run, tool, argsHash, callId, resultHash: undefined, unknownTool: undefined });
  }

  recordOutcome(run: string, tool: string, argsHash: string, callId: string | undefined, facts: OutcomeFacts): void {
    for (let i = this.records.length - 1; i >= 0; i--) {
      const r = this.records[i] as ScanRecord;
      if (r.resultHash !== undefined || r.run !== run || r.tool !== tool || r.argsHash !== argsHash) continue;
      if (callId !== undefined && r.callId !== callId) continue;
      r.resultHash = facts.resultHash;
      r.unknownTool = facts.unknownTool;
      return;
    }
    this.append({ run, tool, argsHash, callId, resultHash: facts.resultHash, unknownTool: facts.unknownTool });
  }

  countsFor(run: string, tool: string, argsHash: string): CallCounts {
    const mine = this.runRecords(run);
    if (mine.length === 0) return NO_COUNTS;

    // S1
    let noProgress = 0;
    let noProgressResult: string | undefined;
    for (const r of mine) {
      if (r.tool !== tool || r.argsHash !== argsHash || r.resultHash === undefined) continue;
      if (noProgressResult === undefined) noProgressResult = r.resultHash;
      if (r.resultHash !== noProgressResult) break;
      noProgress++;
    }

    // S2
    const repeat = mine.filter((r) => r.tool === tool && r.argsHash === argsHash).length;

    // S3
    let unknownStreak = 0;
    let unknownName: string | undefined;
    for (const r of mine) {
      if (r.resultHash === undefined || r.tool !== tool || r.unknownTool === undefined) break;
      if (unknownName === undefined) unknownName = r.unknownTool;
      if (r.unknownTool !== unknownName) break;
      unknownStreak++;
    }
    if (unknownStreak === 0) unknownName = undefined;

    // S4
    let pingPong = 0;
    let pingPongEvidence = false;
    let pingPongPartner: string | undefined;
    const last = mine[0] as ScanRecord;
    const other = mine.find((r) => r.argsHash !== last.argsHash);
    if (other !== undefined) {
      let tail = 0;
      for (const r of mine) {
        const expected = tail % 2 === 0 ? last.argsHash : other.argsHash;
        if (r.argsHash !== expected) break;
        tail++;
      }
      if (tail >= 2 && argsHash === other.argsHash) {
        pingPong = tail + 1;
        pingPongPartner = last.argsHash;
        const tailRecords = mine.slice(0, tail);
        const side = (hash: string): ScanRecord[] => tailRecords.filter((r) => r.argsHash === hash);
        const uniform = (records: ScanRecord[]): boolean =>
          records.length > 0 && records.every((r) => r.resultHash !== undefined && r.resultHash === records[0]?.resultHash);
        pingPongEvidence = uniform(side(last.argsHash)) && uniform(side(other.argsHash));
      }
    }
    return { noProgress, noProgressResult, repeat, unknownStreak, unknownName, pingPong, pingPongEvidence, pingPongPartner };
  }

  clear(): void {
    this.records = [];
  }

  size(): number {
    return this.records.length;
  }

  stateSize(): number {
    return this.records.length;
  }
}
