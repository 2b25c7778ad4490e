// The engine's window: every count of SPEC S1-S4 is kept up to date by appends, fills and
// evictions, so a verdict costs O(1) whatever historySize is. The oracle
// (scanning.ts) recomputes the same counts by rescanning; the property suite holds them equal.
import { Deque } from "../deque.js";
import { NO_COUNTS, type CallCounts, type HistoryIndex, type OutcomeFacts } from "./types.js";

interface IndexedRecord {
  readonly run: string;
  readonly tool: string;
  readonly argsHash: string;
  readonly callId: string | undefined;
  /** Position in its run, counting every record the run ever had: stable under eviction. */
  readonly pos: number;
  resultHash: string | undefined;
  unknownTool: string | undefined;
  /** S3: length of the unknown-tool streak that ends at this record (may count evicted ones). */
  unknownStreak: number;
}

/** A run of equal completed results in a key's history (run-length encoding, oldest first). */
interface ResultRun {
  readonly result: string;
  count: number;
}

/**
 * One tool+args of one run. Kept small, because most keys of real work hold a single record and
 * a large window holds tens of thousands of them: no wrapper objects, arrays only while needed.
 */
class KeyIndex {
  /** S2: records of this key in the window, pending included. */
  count = 0;
  /** Completed results in record order, run-length encoded from `head`: S1 is the last run. */
  runs: ResultRun[] = [];
  head = 0;
  /** Pending records, oldest first (rarely more than one); only while there are any. */
  pending: IndexedRecord[] | undefined = undefined;
  newestCompletedPos = -1;

  /** Back to a new key's state, keeping the results array's storage (see SPARES). */
  reset(): void {
    this.count = 0;
    while (this.runs.length > 0) this.runs.pop();
    this.head = 0;
    this.pending = undefined;
    this.newestCompletedPos = -1;
  }

  lastRun(): ResultRun | undefined {
    return this.runs.length > this.head ? this.runs[this.runs.length - 1] : undefined;
  }

  pushResult(result: string): void {
    const tail = this.lastRun();
    if (tail !== undefined && tail.result === result) tail.count++;
    else this.runs.push({ result, count: 1 });
  }

  /** The oldest completed record of the key left the window. */
  dropOldestResult(): void {
    const oldest = this.runs[this.head] as ResultRun;
    if (--oldest.count > 0) return;
    this.head++;
    // When to compact changes only the cost; that it happens is tested (properties/historyIndexes.test.ts).
    // Stryker disable next-line EqualityOperator,LogicalOperator: equivalent, when to compact changes only the cost
    if (this.head > 16 && this.head * 2 > this.runs.length) {
      this.runs = this.runs.slice(this.head);
      this.head = 0;
    }
  }

  /** A fill older than a completed record lands mid-sequence: rebuild from the run's records. */
  rebuildResults(runRecords: Deque<IndexedRecord>, argsHash: string): void {
    this.runs = [];
    this.head = 0;
    for (const r of runRecords) if (r.argsHash === argsHash && r.resultHash !== undefined) this.pushResult(r.resultHash);
  }

  addPending(record: IndexedRecord): void {
    if (this.pending === undefined) this.pending = [record];
    else this.pending.push(record);
  }

  /** Completed records leave the top of the pending list; an empty list is let go. */
  trimPending(): void {
    const pending = this.pending;
    if (pending === undefined) return;
    while (pending.length > 0 && (pending[pending.length - 1] as IndexedRecord).resultHash !== undefined) pending.pop();
    if (pending.length === 0) this.pending = undefined;
  }

  newestPending(callId: string | undefined): IndexedRecord | undefined {
    this.trimPending();
    const pending = this.pending;
    if (pending === undefined) return undefined;
    for (let i = pending.length - 1; i >= 0; i--) {
      const r = pending[i] as IndexedRecord;
      if (r.resultHash === undefined && (callId === undefined || r.callId === callId)) return r;
    }
    return undefined;
  }
}

/** Everything about one run's records in the window. */
class RunIndex {
  readonly records = new Deque<IndexedRecord>();
  /**
   * The run's keys. Most runs in a window with many runs hold one key, so the first is kept in
   * two fields and a Map is made only for a second: a Map per run was the largest allocation when
   * a run is born and let go every few calls. Once made, the Map holds every key.
   */
  private soleHash: string | undefined = undefined;
  private soleKey: KeyIndex | undefined = undefined;
  private keyMap: Map<string, KeyIndex> | undefined = undefined;
  nextPos = 0;
  /** S4: length of the alternating suffix of two argsHashes. */
  alternating = 0;
  /** S4 evidence: pending records in order (completed ones dropped lazily). */
  readonly pending = new Deque<IndexedRecord>();
  /** S4 evidence: newest position p whose record differs in result from the one at p - 2. */
  newestUnevenPair = -1;

  key(argsHash: string): KeyIndex | undefined {
    if (this.keyMap !== undefined) return this.keyMap.get(argsHash);
    return this.soleHash === argsHash ? this.soleKey : undefined;
  }

  addKey(argsHash: string, key: KeyIndex): void {
    if (this.keyMap !== undefined) this.keyMap.set(argsHash, key);
    else if (this.soleKey === undefined) {
      this.soleHash = argsHash;
      this.soleKey = key;
    } else {
      this.keyMap = new Map([
        [this.soleHash as string, this.soleKey],
        [argsHash, key],
      ]);
      this.soleHash = undefined;
      this.soleKey = undefined;
    }
  }

  /**
   * Only a key whose count fell to 0 while its run kept records is deleted; the run's records
   * belong to other keys then, so the run has had two keys and the Map exists.
   */
  deleteKey(argsHash: string): void {
    (this.keyMap as Map<string, KeyIndex>).delete(argsHash);
  }

  /** A run in the window holds a record, so it has at least one key. */
  keys(): Iterable<KeyIndex> {
    return this.keyMap !== undefined ? this.keyMap.values() : [this.soleKey as KeyIndex];
  }

  /** Back to a new run's state, once its last record has left: its queues are empty already. */
  reset(): void {
    // Both are empty when the last record has left; clearing costs nothing then and keeps storage.
    this.records.clear();
    this.pending.clear();
    this.soleHash = undefined;
    this.soleKey = undefined;
    this.keyMap = undefined;
    this.nextPos = 0;
    this.alternating = 0;
    this.newestUnevenPair = -1;
  }

  firstPos(): number {
    return (this.records.first() as IndexedRecord).pos;
  }

  byPos(pos: number): IndexedRecord | undefined {
    return this.records.at(pos - this.firstPos());
  }

  /** Completed records leave the top of the pending list. */
  trimPending(): void {
    while (this.pending.last()?.resultHash !== undefined) this.pending.pop();
  }

  newestPendingPos(): number {
    this.trimPending();
    return this.pending.last()?.pos ?? -1;
  }
}

/** S4 evidence: two completed records two apart whose results differ. */
function noteUnevenPair(runIndex: RunIndex, older: IndexedRecord | undefined, newer: IndexedRecord | undefined): void {
  if (older?.resultHash !== undefined && newer?.resultHash !== undefined && older.resultHash !== newer.resultHash) {
    runIndex.newestUnevenPair = Math.max(runIndex.newestUnevenPair, newer.pos);
  }
}

/**
 * How many let-go run and key indexes are kept for reuse. With many interleaved runs each run
 * leaves the window soon after it came, and building its indexes anew (queues, arrays) was most of
 * the engine's garbage; a few spares are enough, since runs come and go one at a time. Only small
 * run indexes are kept (queues of at most SPARE_SLOTS slots), so spares add a constant to memory
 * whatever historySize is.
 */
const SPARES = 32;
const SPARE_SLOTS = 64;

export class IncrementalHistory implements HistoryIndex {
  private window = new Deque<IndexedRecord>();
  private runs = new Map<string, RunIndex>();
  private readonly spareRuns: RunIndex[] = [];
  private readonly spareKeys: KeyIndex[] = [];

  constructor(private readonly historySize: number) {}

  appendCall(run: string, tool: string, argsHash: string, callId: string | undefined): void {
    this.append(run, tool, argsHash, callId, undefined);
  }

  recordOutcome(run: string, tool: string, argsHash: string, callId: string | undefined, facts: OutcomeFacts): void {
    const key = this.runs.get(run)?.key(argsHash);
    const target = key?.newestPending(callId);
    if (target !== undefined && target.tool === tool) this.fill(this.runs.get(run) as RunIndex, key as KeyIndex, target, facts);
    else this.append(run, tool, argsHash, callId, facts);
  }

  private append(run: string, tool: string, argsHash: string, callId: string | undefined, facts: OutcomeFacts | undefined): void {
    let runIndex = this.runs.get(run);
    if (runIndex === undefined) {
      runIndex = this.spareRuns.pop() ?? new RunIndex();
      this.runs.set(run, runIndex);
    }
    const record: IndexedRecord = {
      run,
      tool,
      argsHash,
      callId,
      pos: runIndex.nextPos++,
      resultHash: facts?.resultHash,
      unknownTool: facts?.unknownTool,
      unknownStreak: 0,
    };
    const newest = runIndex.records.last();
    const beforeNewest = runIndex.records.at(runIndex.records.length - 2);
    if (newest === undefined || newest.argsHash === argsHash) runIndex.alternating = 1;
    else if (runIndex.alternating >= 2 && beforeNewest?.argsHash === argsHash) runIndex.alternating++;
    else runIndex.alternating = 2;
    runIndex.records.push(record);

    let key = runIndex.key(argsHash);
    if (key === undefined) {
      key = this.spareKeys.pop() ?? new KeyIndex();
      runIndex.addKey(argsHash, key);
    }
    key.count++;
    if (record.resultHash === undefined) {
      key.addPending(record);
      runIndex.pending.push(record);
    } else {
      key.pushResult(record.resultHash);
      key.newestCompletedPos = record.pos;
      this.noteCompleted(runIndex, record);
    }

    this.window.push(record);
    if (this.window.length > this.historySize) this.evictOldest();
  }

  private fill(runIndex: RunIndex, key: KeyIndex, record: IndexedRecord, facts: OutcomeFacts): void {
    record.resultHash = facts.resultHash;
    record.unknownTool = facts.unknownTool;
    // Drop completed records from the tops of the pending lists now, so they stay short.
    key.trimPending();
    runIndex.trimPending();
    if (record.pos > key.newestCompletedPos) {
      key.pushResult(facts.resultHash);
      key.newestCompletedPos = record.pos;
    } else key.rebuildResults(runIndex.records, record.argsHash);
    this.noteCompleted(runIndex, record);
  }

  /** Updates what a newly completed record changes: S4 pair evidence and S3 streaks. */
  private noteCompleted(runIndex: RunIndex, record: IndexedRecord): void {
    // Two calls rather than a loop over pairs: the pairs' arrays were this method's garbage.
    noteUnevenPair(runIndex, runIndex.byPos(record.pos - 2), record);
    noteUnevenPair(runIndex, record, runIndex.byPos(record.pos + 2));
    // S3 streaks from this record forward, until a streak comes out unchanged.
    const first = runIndex.firstPos();
    const newestPos = (runIndex.records.last() as IndexedRecord).pos;
    for (let pos = record.pos; pos <= newestPos; pos++) {
      const current = runIndex.byPos(pos) as IndexedRecord;
      const previous = pos > first ? runIndex.byPos(pos - 1) : undefined;
      let streak = 0;
      if (current.resultHash !== undefined && current.unknownTool !== undefined) {
        const continues =
          previous !== undefined &&
          previous.resultHash !== undefined &&
          previous.tool === current.tool &&
          previous.unknownTool === current.unknownTool;
        streak = continues ? previous.unknownStreak + 1 : 1;
      }
      if (streak === current.unknownStreak && pos > record.pos) break;
      current.unknownStreak = streak;
    }
  }

  private evictOldest(): void {
    const record = this.window.shift() as IndexedRecord;
    const runIndex = this.runs.get(record.run) as RunIndex;
    runIndex.records.shift();
    const key = runIndex.key(record.argsHash) as KeyIndex;
    key.count--;
    if (record.resultHash !== undefined) key.dropOldestResult();
    if (key.pending !== undefined && (key.pending[0] as IndexedRecord).pos <= record.pos) {
      key.pending = key.pending.filter((r) => r.pos > record.pos);
      if (key.pending.length === 0) key.pending = undefined;
    }
    while ((runIndex.pending.first()?.pos ?? Infinity) <= record.pos) runIndex.pending.shift();
    // A key is let go when its count reaches 0 (here, the only place counts fall), so when a run's
    // last record leaves, this record's key is the only one the run still holds. Such a run goes
    // whole: deleting its last key first would only make V8 shrink (reallocate) the key map of a
    // run about to be dropped.
    if (key.count === 0) this.releaseKey(key);
    if (runIndex.records.length === 0) {
      this.runs.delete(record.run);
      this.releaseRun(runIndex);
    } else {
      if (key.count === 0) runIndex.deleteKey(record.argsHash);
      runIndex.alternating = Math.min(runIndex.alternating, runIndex.records.length);
    }
  }

  /**
   * Let-go indexes are kept as spares while there is room (see SPARES). A run's pending calls are
   * among its records, so its pending queue never outgrows its record queue.
   */
  private releaseRun(runIndex: RunIndex): void {
    if (this.spareRuns.length >= SPARES || runIndex.records.capacity() > SPARE_SLOTS) return;
    runIndex.reset();
    this.spareRuns.push(runIndex);
  }

  /** No size check, unlike a run: a key's result list is compacted to 16 entries or fewer by now. */
  private releaseKey(key: KeyIndex): void {
    if (this.spareKeys.length >= SPARES) return;
    key.reset();
    this.spareKeys.push(key);
  }

  countsFor(run: string, tool: string, argsHash: string): CallCounts {
    const runIndex = this.runs.get(run);
    if (runIndex === undefined) return NO_COUNTS;
    const key = runIndex.key(argsHash);
    const lastResult = key?.lastRun();

    const newest = runIndex.records.last() as IndexedRecord;
    let unknownStreak = 0;
    let unknownName: string | undefined;
    if (newest.tool === tool && newest.unknownStreak > 0) {
      unknownStreak = Math.min(newest.unknownStreak, runIndex.records.length);
      unknownName = newest.unknownTool;
    }

    let pingPong = 0;
    let pingPongEvidence = false;
    let pingPongPartner: string | undefined;
    const tail = runIndex.alternating;
    if (tail >= 2) {
      const other = runIndex.records.at(runIndex.records.length - 2) as IndexedRecord;
      if (other.argsHash === argsHash) {
        pingPong = tail + 1;
        pingPongPartner = newest.argsHash;
        const start = newest.pos - tail + 1;
        pingPongEvidence = runIndex.newestPendingPos() < start && runIndex.newestUnevenPair < start + 2;
      }
    }

    return {
      noProgress: lastResult?.count ?? 0,
      noProgressResult: lastResult?.result,
      repeat: key?.count ?? 0,
      unknownStreak,
      unknownName,
      pingPong,
      pingPongEvidence,
      pingPongPartner,
    };
  }

  clear(): void {
    this.window = new Deque<IndexedRecord>();
    this.runs = new Map<string, RunIndex>();
  }

  size(): number {
    return this.window.length;
  }

  stateSize(): number {
    let total = this.window.length;
    for (const runIndex of this.runs.values()) {
      total += 1 + runIndex.records.length + runIndex.pending.length;
      for (const key of runIndex.keys()) total += 1 + (key.runs.length - key.head) + (key.pending?.length ?? 0);
    }
    return total;
  }
}
