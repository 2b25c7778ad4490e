// `loopsim calibrate`: the seven statistics side by side with their distances, deterministic,
// and the distance itself checked on known distributions.
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { ksDistance, runStats } from "../../src/calibrate/runStats.js";
import { loopsim } from "./run.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "sessions");
const SESSIONS = [join(FIXTURES, "swe-agent-example.traj"), join(FIXTURES, "pi-tree.jsonl"), join(FIXTURES, "claude-parallel.jsonl")];

describe("loopsim calibrate", () => {
  it("prints every statistic with recorded, simulated and progressing columns and a distance, the same bytes twice", () => {
    const a = loopsim(["calibrate", ...SESSIONS, "--agents", "48", "--json"]);
    expect(a.code, a.stderr).toBe(0);
    expect(loopsim(["calibrate", ...SESSIONS, "--agents", "48", "--json"]).stdout).toBe(a.stdout);
    const report = JSON.parse(a.stdout) as { rows: { statistic: string; distance: number; distanceProgressing: number }[]; gapProgressing: number };
    expect(report.rows.map((r) => r.statistic)).toEqual(["callsPerRun", "distinctTools", "repeatedArgsShare", "longestSameArgsStreak", "identicalResultRepeats", "pingPongShare", "errorRate"]);
    for (const r of report.rows) {
      expect(r.distance).toBeGreaterThanOrEqual(0);
      expect(r.distance).toBeLessThanOrEqual(1);
    }
    const md = loopsim(["calibrate", ...SESSIONS, "--agents", "48"]).stdout;
    expect(md).toMatch(/\*\*The gap that remains\*\*: a mean distance of [\d.]+ between the progressing families and recorded work/);
  });

  it("refuses a path with no sessions, with exit 2 and one line", () => {
    const r = loopsim(["calibrate", join(FIXTURES, "nothing-here")]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });
});

describe("the statistics", () => {
  it("Kolmogorov-Smirnov: 0 for the same sample, 1 for disjoint ones, the largest CDF gap otherwise", () => {
    expect(ksDistance([1, 2, 3], [3, 2, 1])).toBe(0);
    expect(ksDistance([1, 2], [5, 6])).toBe(1);
    expect(ksDistance([1, 2, 3, 4], [3, 4, 5, 6])).toBe(0.5);
  });
  it("counts repeats, streaks, identical results, alternation and errors in a run", () => {
    const call = (i: number, path: string) => ({ type: "call" as const, runId: "r", callId: `c${i}`, tool: "read", params: { path } });
    const done = (i: number, path: string, result: string) => ({ type: "outcome" as const, runId: "r", callId: `c${i}`, tool: "read", params: { path }, result });
    const paths = ["a", "a", "a", "b", "a", "b"];
    const events = paths.flatMap((p, i) => [call(i, p), done(i, p, "same")]);
    const [stats] = runStats(events);
    expect(stats).toMatchObject({ callsPerRun: 6, distinctTools: 1, longestSameArgsStreak: 3, identicalResultRepeats: 4, errorRate: 0 });
    expect(stats?.repeatedArgsShare).toBeCloseTo(4 / 6);
    expect(stats?.pingPongShare).toBeCloseTo(2 / 6);
  });
});
