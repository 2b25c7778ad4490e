// The incremental window (models/history/incremental.ts) against the rescanning oracle
// (models/history/scanning.ts), operation by operation and count by count. The engine-equals-oracle
// law compares them through verdicts, which see a count only when it crosses a threshold; here
// every count of every key of every run is compared after every operation, in a small world
// (3 runs, 6 keys, 3 call ids, windows of 1 to 8) where out-of-order fills, orphan outcomes,
// cross-run keys, long alternations, unknown-tool streaks and evictions of pending records are
// all frequent.
import fc from "fast-check";
import { expect, it } from "vitest";
import { IncrementalHistory } from "../models/history/incremental.js";
import { ScanningHistory } from "../models/history/scanning.js";
import type { CallCounts, HistoryIndex } from "../models/history/types.js";
import { assertProperty } from "./support.js";

const RUNS = ["", "r1", "r2"];
const TOOLS = ["a", "b"];
const KEYS = TOOLS.flatMap((tool) => ["1", "2", "3"].map((n) => ({ tool, argsHash: `${tool}:${n}` })));

interface Op {
  readonly kind: "call" | "outcome";
  readonly run: string;
  readonly key: { tool: string; argsHash: string };
  readonly callId: string | undefined;
  readonly resultHash: string;
  readonly unknownTool: string | undefined;
}

// Mostly one run and two keys of one tool, so alternations, streaks and repeats build up.
const op: fc.Arbitrary<Op> = fc.record({
  kind: fc.constantFrom<"call" | "outcome">("call", "call", "outcome", "outcome", "outcome"),
  run: fc.oneof({ weight: 5, arbitrary: fc.constant("r1") }, { weight: 1, arbitrary: fc.constantFrom(...RUNS) }),
  key: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(KEYS[0] as Op["key"], KEYS[1] as Op["key"]) }, { weight: 2, arbitrary: fc.constantFrom(...KEYS) }),
  callId: fc.constantFrom<string | undefined>(undefined, undefined, "c1", "c2", "c3"),
  resultHash: fc.constantFrom("x", "x", "y", "z"),
  unknownTool: fc.constantFrom<string | undefined>(undefined, "u", "u", "v"),
});
const world = fc.record({ historySize: fc.integer({ min: 1, max: 8 }), ops: fc.array(op, { minLength: 10, maxLength: 80, size: "max" }) });

function apply(history: HistoryIndex, o: Op): void {
  if (o.kind === "call") history.appendCall(o.run, o.key.tool, o.key.argsHash, o.callId);
  else history.recordOutcome(o.run, o.key.tool, o.key.argsHash, o.callId, o.unknownTool === undefined ? { resultHash: o.resultHash } : { resultHash: o.resultHash, unknownTool: o.unknownTool });
}

/** Field by field: a quarter of a million comparisons per run, where expect() would take most of the time. */
function sameCounts(a: CallCounts, b: CallCounts): boolean {
  return (
    a.noProgress === b.noProgress &&
    a.noProgressResult === b.noProgressResult &&
    a.repeat === b.repeat &&
    a.unknownStreak === b.unknownStreak &&
    a.unknownName === b.unknownName &&
    a.pingPong === b.pingPong &&
    a.pingPongEvidence === b.pingPongEvidence &&
    a.pingPongPartner === b.pingPongPartner
  );
}

it("the incremental window gives the oracle's counts for every key after every operation", () => {
  const seen = { noProgress: 0, pingPong: 0, evidence: 0, unknownStreak: 0, evictions: 0, rebirths: 0 };
  assertProperty(
    fc.property(world, ({ historySize, ops }) => {
      const fast = new IncrementalHistory(historySize);
      const oracle = new ScanningHistory(historySize);
      // Runs that had records and then none: the incremental window lets their indexes go, and
      // reuses them (and their keys' indexes) for the next run it meets.
      const emptied = new Set<string>();
      const present = new Set<string>();
      ops.forEach((o, step) => {
        apply(fast, o);
        apply(oracle, o);
        if (fast.size() !== oracle.size()) throw new Error(`after op ${step}: size ${fast.size()}, oracle ${oracle.size()}`);
        if (oracle.size() === historySize) seen.evictions++;
        for (const run of RUNS) {
          let records = 0;
          for (const key of KEYS) {
            const got = fast.countsFor(run, key.tool, key.argsHash);
            const want = oracle.countsFor(run, key.tool, key.argsHash);
            if (!sameCounts(got, want)) throw new Error(`after op ${step} (${JSON.stringify(o)}), counts of ${run}/${key.argsHash}: ${JSON.stringify(got)}, the oracle ${JSON.stringify(want)}`);
            if (want.noProgress >= 3) seen.noProgress++;
            if (want.pingPong >= 4) seen.pingPong++;
            if (want.pingPongEvidence) seen.evidence++;
            if (want.unknownStreak >= 3) seen.unknownStreak++;
            records += want.repeat;
          }
          if (records > 0) {
            if (emptied.delete(run)) seen.rebirths++;
            present.add(run);
          } else if (present.delete(run)) emptied.add(run);
        }
        // The incremental index's own bookkeeping is never smaller than what it indexes.
        if (fast.stateSize() < 2 * fast.size()) throw new Error(`after op ${step}: stateSize ${fast.stateSize()} below twice the ${fast.size()} records`);
        if (oracle.stateSize() !== oracle.size()) throw new Error(`after op ${step}: the oracle's stateSize ${oracle.stateSize()} is not its ${oracle.size()} records`);
      });
      fast.clear();
      oracle.clear();
      expect([fast.size(), fast.stateSize(), oracle.size()]).toEqual([0, 0, 0]);
      expect(fast.countsFor("r1", "a", "a:1")).toEqual(oracle.countsFor("r1", "a", "a:1"));
    }),
    "the incremental window gives the oracle's counts for every key after every operation",
    "properties/historyIndexes.test.ts",
    300,
  );
  // Not vacuous: long streaks, alternations with and without evidence, full windows, and runs that
  // leave the window and come back (on reused indexes) all occur.
  expect(seen.noProgress).toBeGreaterThan(100);
  expect(seen.pingPong).toBeGreaterThan(100);
  expect(seen.evidence).toBeGreaterThan(100);
  expect(seen.unknownStreak).toBeGreaterThan(100);
  expect(seen.evictions).toBeGreaterThan(1000);
  expect(seen.rebirths).toBeGreaterThan(200);
});

it("the incremental window's stateSize counts every structure it holds", () => {
  // window records + per run (1 + its records + its pending list) + per key (1 + live result runs + pending records)
  const h = new IncrementalHistory(10);
  expect(h.stateSize()).toBe(0);
  h.appendCall("r", "a", "a:1", undefined);
  expect(h.stateSize()).toBe(1 + (1 + 1 + 1) + (1 + 0 + 1));
  h.recordOutcome("r", "a", "a:1", undefined, { resultHash: "x" });
  expect(h.stateSize()).toBe(1 + (1 + 1 + 0) + (1 + 1 + 0));
  h.appendCall("r", "a", "a:1", undefined);
  expect(h.stateSize()).toBe(2 + (1 + 2 + 1) + (1 + 1 + 1));
  h.appendCall("s", "b", "b:1", undefined);
  expect(h.stateSize()).toBe(3 + (1 + 2 + 1) + (1 + 1 + 1) + (1 + 1 + 1) + (1 + 0 + 1));
  h.recordOutcome("r", "a", "a:1", undefined, { resultHash: "y" });
  expect(h.stateSize()).toBe(3 + (1 + 2 + 0) + (1 + 2 + 0) + (1 + 1 + 1) + (1 + 0 + 1));
});

it("the incremental window's stateSize after evictions: a key's evicted results and an evicted pending call", () => {
  const h = new IncrementalHistory(2);
  for (const result of ["x", "y"]) {
    h.appendCall("r", "a", "a:1", undefined);
    h.recordOutcome("r", "a", "a:1", undefined, { resultHash: result });
  }
  expect(h.stateSize()).toBe(2 + (1 + 2 + 0) + (1 + 2 + 0));
  h.appendCall("r", "b", "b:1", undefined); // evicts a:1's "x": one result run left live
  expect(h.stateSize()).toBe(2 + (1 + 2 + 1) + (1 + 1 + 0) + (1 + 0 + 1));
  const one = new IncrementalHistory(1);
  one.appendCall("r", "a", "a:1", undefined);
  one.appendCall("r", "b", "b:1", undefined); // evicts a pending call: gone from the run's pending list too
  expect(one.stateSize()).toBe(1 + (1 + 1 + 1) + (1 + 0 + 1));
});

it("a run with no records has every count at zero, in both windows", () => {
  const zero = { noProgress: 0, noProgressResult: undefined, repeat: 0, unknownStreak: 0, unknownName: undefined, pingPong: 0, pingPongEvidence: false, pingPongPartner: undefined };
  for (const history of [new IncrementalHistory(3), new ScanningHistory(3)]) {
    expect(history.countsFor("r", "a", "a:1")).toStrictEqual(zero);
    history.appendCall("other", "a", "a:1", undefined);
    expect(history.countsFor("r", "a", "a:1")).toStrictEqual(zero);
  }
});

it("the incremental window lets go of keys, runs and pending records that leave it", () => {
  // A run that never repeats a call, and calls whose outcomes never come: nothing may pile up.
  for (const outcomes of [false, true]) {
    const h = new IncrementalHistory(4);
    for (let i = 0; i < 2000; i++) {
      const run = i % 3 === 0 ? `run${i}` : "main";
      h.appendCall(run, "a", `a:${i}`, undefined);
      if (outcomes && i % 2 === 0) h.recordOutcome(run, "a", `a:${i}`, undefined, { resultHash: String(i % 5) });
    }
    expect(h.size()).toBe(4);
    expect(h.stateSize()).toBeLessThanOrEqual(4 + 4 * 3 + 4 * 3);
  }
});

it("a key whose result keeps changing keeps a bounded list of result runs", () => {
  // stateSize counts the live runs only; what is held includes the evicted prefix until the list
  // is compacted, so this one looks inside. Without compaction the list would grow by one per change.
  const h = new IncrementalHistory(4);
  for (let i = 0; i < 10_000; i++) {
    h.appendCall("r", "a", "a:1", undefined);
    h.recordOutcome("r", "a", "a:1", undefined, { resultHash: String(i % 2) });
  }
  const inside = h as unknown as { runs: Map<string, { key(argsHash: string): { runs: unknown[] } | undefined }> };
  const held = inside.runs.get("r")?.key("a:1")?.runs.length ?? 0;
  expect(held).toBeGreaterThan(0);
  expect(held).toBeLessThanOrEqual(2 * 4 + 17);
});

it("the spare indexes the window keeps for reuse stay few and small, whatever passes through", () => {
  // Spares are no state (stateSize leaves them out), so their bound is pinned here: at most 32 run
  // and 32 key indexes, no run's queues holding more than 64 slots (its pending calls are among
  // its records, so its record queue's storage bounds both), no key's result list over 16.
  type Spares = { spareRuns: { records: { capacity(): number } }[]; spareKeys: unknown[] };
  const spares = (h: IncrementalHistory) => h as unknown as Spares;

  // 100 one-call runs, then one run that fills the window: 100 runs and keys let go, 32 of each kept.
  const many = new IncrementalHistory(100);
  for (let i = 0; i < 100; i++) many.appendCall(`run${i}`, "a", `a:${i}`, undefined);
  for (let i = 0; i < 100; i++) many.appendCall("main", "b", "b:1", undefined);
  expect([spares(many).spareRuns.length, spares(many).spareKeys.length]).toEqual([32, 32]);

  // A run of 64 records (64 slots) is kept; one of 65 (128 slots) is not.
  for (const [records, kept] of [
    [64, 1],
    [65, 0],
  ] as const) {
    const h = new IncrementalHistory(200);
    for (let i = 0; i < records; i++) h.appendCall("big", "a", `a:${i}`, undefined);
    for (let i = 0; i < 200; i++) h.appendCall("main", "b", "b:1", undefined);
    expect(spares(h).spareRuns.map((r) => r.records.capacity())).toEqual(kept === 1 ? [64] : []);
  }

  // A key's result list is compacted as its records leave: however often its result changed, it
  // holds at most 16 entries when it is let go.
  const changing = new IncrementalHistory(200);
  for (let i = 0; i < 200; i++) changing.recordOutcome("r", "a", "a:1", undefined, { resultHash: String(i) });
  const held: number[] = [];
  const inside = changing as unknown as { runs: Map<string, { key(argsHash: string): { runs: unknown[]; head: number } | undefined }> };
  for (let i = 0; i < 200; i++) {
    const key = inside.runs.get("r")?.key("a:1");
    if (key !== undefined) held.push(key.runs.length);
    changing.appendCall("main", "b", `b:${i}`, undefined);
  }
  expect(held[0]).toBe(200);
  expect(held.at(-1)).toBeLessThanOrEqual(16);
  expect(spares(changing).spareKeys).toHaveLength(1);
});
