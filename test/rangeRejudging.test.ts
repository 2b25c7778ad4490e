// The held-out stuck ranges read again by the precision criteria (src/realLoops/rangeRejudging.ts):
// the parse refuses a range the held-out reading does not hold, a reader twice and a range with no
// reading, naming the JSON path; the figures split ranges by how the miner covers them and give
// recall against what every reader, and what some reader, confirmed, beside the recall of record.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadJudgements, recallOf, type SessionReading } from "../src/realLoops/judgements.js";
import { rejudgedRecallOf } from "../src/realLoops/rangeRejudging.js";
import { tempDir } from "./cli/run.js";

const stuck = (reader: string) => ({ reader, verdict: "stuck", reason: "the same failure again" });
const work = (reader: string) => ({ reader, verdict: "false-alarm", reason: "a new question each time" });

const heldOut = {
  protocol: ["fixture"],
  sessions: {
    "a.jsonl": { calls: 20, stuck: [{ from: 2, to: 5, reason: "r" }, { from: 10, to: 12, reason: "r" }] },
    "b.jsonl": { calls: 10, stuck: [{ from: 0, to: 3, reason: "r" }] },
  },
};

function judgementsWith(rejudging: unknown): string {
  const file = join(tempDir(), "judgements.json");
  writeFileSync(file, JSON.stringify({ criteria: [], judgements: {}, heldOut: { ...heldOut, rangesByPrecisionCriteria: rejudging } }));
  return file;
}

describe("held-out stuck ranges read again by the precision criteria", () => {
  it("refuses a range the held-out reading does not hold, a reader twice, and a range nobody read, naming each JSON path", () => {
    const file = judgementsWith({
      protocol: [],
      ranges: [
        { session: "a.jsonl", from: 2, to: 6, readings: [stuck("V")] },
        { session: "a.jsonl", from: 10, to: 12, readings: [stuck("V"), work("V")] },
        { session: "b.jsonl", from: 0, to: 3, readings: [] },
      ],
    });
    const message = (() => {
      try {
        loadJudgements(file);
        return "";
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toContain('$.heldOut.rangesByPrecisionCriteria.ranges[0]: calls 2-6 of "a.jsonl" are no stuck range of the held-out reading');
    expect(message).toContain('$.heldOut.rangesByPrecisionCriteria.ranges[1].readings[1]: reader "V" reads this range twice');
    expect(message).toContain("$.heldOut.rangesByPrecisionCriteria.ranges[2].readings: at least one reading");
  });

  it("splits the ranges by the miner's cover and gives recall against what every reader and what some reader confirmed", () => {
    const j = loadJudgements(
      judgementsWith({
        protocol: ["read blind"],
        ranges: [
          { session: "a.jsonl", from: 2, to: 5, readings: [stuck("V"), stuck("W")] },
          { session: "a.jsonl", from: 10, to: 12, readings: [stuck("V"), work("W")] },
          { session: "b.jsonl", from: 0, to: 3, readings: [work("X"), work("W")] },
        ],
      }),
    );
    const rejudging = j.heldOut?.rangesByPrecisionCriteria;
    expect(rejudging?.ranges).toHaveLength(3);
    // The miner covers a.jsonl's first range wholly, its second partly (call 12), b.jsonl's not at all.
    const mined = new Map([
      ["a.jsonl", { calls: 20, flagged: new Set([2, 3, 4, 5, 12]) }],
      ["b.jsonl", { calls: 10, flagged: new Set<number>() }],
    ]);
    const sessions = j.heldOut?.sessions as ReadonlyMap<string, SessionReading>;
    const p = rejudgedRecallOf(rejudging!, sessions, mined);
    expect(p).toMatchObject({ ranges: 3, heldOutRanges: 3, confirmedByAll: 1, confirmedBySome: 2 });
    expect(p.byCoverage.caught).toMatchObject({ ranges: 1, calls: 4, confirmedByAll: 1, confirmedCalls: 4, share: 1 });
    expect(p.byCoverage.partly).toMatchObject({ ranges: 1, calls: 3, confirmedByAll: 0, share: 0 });
    expect(p.byCoverage.missed).toMatchObject({ ranges: 1, calls: 4, confirmedByAll: 0 });
    expect(p.agreement).toMatchObject({ n: 3, agree: 2 });
    // Of record: 5 of 11 stuck calls covered. Confirmed by all: 4 of 4. By some: 5 of 7.
    expect(recallOf(sessions, mined)).toMatchObject({ stuckRead: 11, covered: 5 });
    expect(p.recallConfirmedByAll).toMatchObject({ stuckRead: 4, covered: 4, recall: 1 });
    expect(p.recallConfirmedBySome).toMatchObject({ stuckRead: 7, covered: 5 });
  });

  it("leaves out a session the miner numbered otherwise, as the recall of record does", () => {
    const j = loadJudgements(judgementsWith({ protocol: [], ranges: [{ session: "b.jsonl", from: 0, to: 3, readings: [stuck("V")] }] }));
    const p = rejudgedRecallOf(j.heldOut!.rangesByPrecisionCriteria!, j.heldOut!.sessions, new Map([["b.jsonl", { calls: 11, flagged: new Set<number>() }]]));
    expect(p).toMatchObject({ ranges: 0, heldOutRanges: 0, confirmedByAll: 0 });
  });
});
