// The development readings split in two halves (src/realLoops/developmentSplit.ts): the half of a
// ref is the parity of its SHA-1, as Python's int(sha1(ref), 16) % 2 computes it (the values below
// were computed that way, so a reader's script and the catalogue agree); the parse names the JSON
// path of what is wrong; the catalogue gives recall on each half, from the same sessions as the
// recall of record.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { halfOf, halfOfReadings } from "../src/realLoops/developmentSplit.js";
import { loadJudgements } from "../src/realLoops/judgements.js";
import { loopsim, tempDir } from "./cli/run.js";

const FIXTURES = "test/fixtures/real-loops";

function judgementsFile(split: unknown): string {
  const file = join(tempDir(), "judgements.json");
  writeFileSync(
    file,
    JSON.stringify({
      criteria: [],
      judgements: {},
      protocol: ["fixture"],
      sessions: {
        "failing-install.jsonl": { calls: 7, stuck: [{ from: 1, to: 5, reason: "the same install failing" }] },
        "progressing.jsonl": { calls: 12, stuck: [{ from: 0, to: 2, reason: "a range the miner misses" }] },
        "javac-loop.jsonl": { calls: 10, stuck: [{ from: 3, to: 8, reason: "the same javac error" }] },
      },
      developmentSplit: split,
    }),
  );
  return file;
}

describe("the development readings in two halves", () => {
  it("puts a ref in the half Python's int(sha1(ref), 16) % 2 gives (0 fit, 1 test)", () => {
    expect(halfOf("a.jsonl")).toBe("test");
    expect(halfOf("d.jsonl")).toBe("fit");
    expect(halfOf("failing-install.jsonl")).toBe("fit");
    expect(halfOf("progressing.jsonl")).toBe("fit");
    expect(halfOf("javac-loop.jsonl")).toBe("test");
    expect(halfOf("mini-swe-agent-gpt-5-cam/run_results/cam-test2-output/django__django-11964/django__django-11964.traj.json.gz")).toBe("fit");
  });

  it("parses a split into its scheme and protocol, and reads without one as no split", () => {
    const j = loadJudgements(judgementsFile({ scheme: "sha1-parity", protocol: ["round N", "its figures before"] }));
    expect(j.developmentSplit).toEqual({ scheme: "sha1-parity", protocol: ["round N", "its figures before"] });
    const file = join(tempDir(), "judgements.json");
    writeFileSync(file, JSON.stringify({ criteria: [], judgements: {} }));
    expect(loadJudgements(file).developmentSplit).toBeUndefined();
  });

  it("names only what is wrong: a bad scheme alone, or a bad protocol alone", () => {
    const message = (split: unknown) => {
      try {
        loadJudgements(judgementsFile(split));
        return "";
      } catch (error) {
        return (error as Error).message;
      }
    };
    const scheme = message({ scheme: "md5", protocol: [] });
    expect(scheme).toContain('$.developmentSplit.scheme: one of sha1-parity (got "md5")');
    expect(scheme).not.toContain("$.developmentSplit.protocol");
    const protocol = message({ scheme: "sha1-parity", protocol: ["a line", 2] });
    expect(protocol).toContain("$.developmentSplit.protocol: a list of strings");
    expect(protocol).not.toContain("$.developmentSplit.scheme");
  });

  it("keeps the readings of one half, in their order", () => {
    const readings = new Map([["javac-loop.jsonl", 1], ["failing-install.jsonl", 2], ["d.jsonl", 3], ["a.jsonl", 4]]);
    expect([...halfOfReadings(readings, "fit")]).toEqual([["failing-install.jsonl", 2], ["d.jsonl", 3]]);
    expect([...halfOfReadings(readings, "test")]).toEqual([["javac-loop.jsonl", 1], ["a.jsonl", 4]]);
  });

  it("refuses an unknown scheme and a protocol that is no list of lines, naming each JSON path", () => {
    expect(() => loadJudgements(judgementsFile({ scheme: "md5", protocol: "one line" }))).toThrow(/\$\.developmentSplit\.scheme: one of sha1-parity \(got "md5"\)[\s\S]*\$\.developmentSplit\.protocol: a list of strings/);
    expect(() => loadJudgements(judgementsFile([]))).toThrow(/\$\.developmentSplit: \{scheme: "sha1-parity"/);
  });

  it("gives recall on each half in the catalogue, its two halves adding up to the recall of record", () => {
    const out = tempDir();
    const r = loopsim(["loops", FIXTURES, "--judgements", judgementsFile({ scheme: "sha1-parity", protocol: ["round N written with the fit half in view"] }), "--out", out]);
    expect(r.code).toBe(0);
    const c = JSON.parse(readFileSync(join(out, "real-loops.json"), "utf8")) as { recall: { stuckRead: number; covered: number }; recallBySplit: { fit: { sessions: number; stuckRead: number; covered: number }; test: { sessions: number; stuckRead: number; covered: number } } };
    // Fit: failing-install (1-5, mined whole) and progressing (0-2, not mined): 5 of 8. Test: javac-loop (3-8, mined whole): 6 of 6.
    expect(c.recallBySplit.fit).toMatchObject({ sessions: 2, stuckRead: 8, covered: 5 });
    expect(c.recallBySplit.test).toMatchObject({ sessions: 1, stuckRead: 6, covered: 6 });
    expect(c.recallBySplit.fit.stuckRead + c.recallBySplit.test.stuckRead).toBe(c.recall.stuckRead);
    expect(r.stdout).toContain("| fit | 2 | 19 | 8 | 5 | 62.5% (30.6-86.3%, n=8) | 0 |");
    expect(r.stdout).toContain("| test | 1 | 10 | 6 | 6 | 100.0% (61.0-100.0%, n=6) | 0 |");
    expect(r.stdout).toContain("- round N written with the fit half in view");
  });

  it("leaves the section out when the reading does not split", () => {
    const out = tempDir();
    const file = join(tempDir(), "judgements.json");
    writeFileSync(file, JSON.stringify({ criteria: [], judgements: {}, protocol: [], sessions: { "javac-loop.jsonl": { calls: 10, stuck: [] } } }));
    const r = loopsim(["loops", FIXTURES, "--judgements", file, "--out", out]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain("in two halves");
  });
});
