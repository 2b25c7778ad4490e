// Uncertainty on every rate: the Wilson interval against known values, the seeded bootstrap's
// determinism, intervals in the reports (md, json), and recommendations that are never dominated
// (a fast-check property, and a check over every committed report).
import { describe, expect, it } from "vitest";
import { fc, test as fcTest } from "@fast-check/vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { bootstrap, overlaps, wilson } from "../src/stats/interval.js";
import { dominates, operatorFront, recommend, withoutIgnored } from "../src/tune/recommend.js";
import type { ConfigRow } from "../src/evaluation/evaluate.js";
import { computeMetrics } from "../src/evaluation/metrics.js";
import { loopsim, tempDir } from "./cli/run.js";

describe("Wilson intervals", () => {
  it("match the published values", () => {
    expect(wilson(0, 10)).toEqual({ low: 0, high: 0.2775, n: 10 });
    expect(wilson(5, 10)).toEqual({ low: 0.2366, high: 0.7634, n: 10 });
    expect(wilson(10, 10)).toEqual({ low: 0.7225, high: 1, n: 10 });
    expect(wilson(0, 0)).toEqual({ low: 0, high: 1, n: 0 });
  });
  fcTest.prop([fc.integer({ min: 1, max: 5000 }).chain((n) => fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n)))])("always hold the observed share, inside [0, 1]", ([k, n]) => {
    const i = wilson(k, n);
    expect(i.low).toBeGreaterThanOrEqual(0);
    expect(i.high).toBeLessThanOrEqual(1);
    expect(i.low).toBeLessThanOrEqual(k / n + 1e-4);
    expect(i.high).toBeGreaterThanOrEqual(k / n - 1e-4);
  });
});

describe("the bootstrap", () => {
  it("is the same for the same seed, holds the estimate, and narrows with more data", () => {
    const values = Array.from({ length: 200 }, (_, i) => (i * 37) % 101);
    const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
    expect(bootstrap(values, median, "s")).toEqual(bootstrap(values, median, "s"));
    const i = bootstrap(values, median, "s");
    expect(i.low).toBeLessThanOrEqual(median(values));
    expect(i.high).toBeGreaterThanOrEqual(median(values));
    const wide = bootstrap(values.slice(0, 20), median, "s");
    expect(wide.high - wide.low).toBeGreaterThan(i.high - i.low);
    expect(overlaps(i, wide)).toBe(true);
  });
});

/** A row with the four numbers the front is made of. */
function row(index: number, caught: number, fp: number, falseAborts: number, waste: number): ConfigRow {
  const base = computeMetrics([]);
  return {
    index,
    label: `r${index}`,
    block: { enabled: true, warningThreshold: 5 + index, criticalThreshold: 30 + index },
    metrics: {
      ...base,
      stuck: { ...base.stuck, agents: 100, caughtShare: caught, wastedTokens: { mean: waste, median: waste, p90: waste } },
      recovering: { agents: 50, falseAbortShare: falseAborts },
      overall: { ...base.overall, agents: 300, falsePositiveRate: fp },
    },
  };
}

const share = fc.integer({ min: 0, max: 20 }).map((x) => x / 20);
const rowsArb = fc.array(fc.tuple(share, share, share, fc.integer({ min: 0, max: 5000 })), { minLength: 2, maxLength: 40 }).map((xs) => xs.map(([c, f, a, w], i) => row(i, c, f, a, w)));

describe("recommendations an operator would pick", () => {
  fcTest.prop([rowsArb])("no recommended config is dominated by another row of the same report", (rows) => {
    for (const rec of recommend(rows, rows[0] as ConfigRow)) {
      const picked = rows.find((r) => r.index === rec.index) as ConfigRow;
      const beaten = rows.filter((o) => dominates(o, picked)).map((o) => o.index);
      expect(beaten, `goal ${rec.goal} picked #${picked.index}`).toEqual([]);
    }
  });
  it("strict prefers the row that stops less good work when catches tie (the report's rows 58 and 71)", () => {
    const defaults = row(0, 0.14, 0, 0, 12000);
    const r58 = row(58, 0.674, 0.057, 0.267, 7991);
    const r71 = row(71, 0.674, 0.004, 0, 9270);
    const [strict] = recommend([defaults, r58, r71], defaults);
    expect(strict?.index).toBe(71);
    expect(operatorFront([defaults, r58, r71]).map((r) => r.index)).toEqual([0, 58, 71]);
    expect(strict?.alternatives.map((a) => a.index)).toContain(58);
    expect(strict?.alternatives.find((a) => a.index === 58)?.trades).toMatch(/\+0\.0 points caught, \+5\.3 points good work stopped, \+26\.7 points false aborts, -1279 tokens mean waste/);
  });
  it("fields the guard ignores never reach a recommendation", () => {
    const rows = [row(0, 0.1, 0, 0, 100), row(1, 0.5, 0.01, 0, 50)];
    const [strict] = recommend(rows, rows[0] as ConfigRow, ["warningThreshold"]);
    expect(strict?.snippet).not.toMatch(/warningThreshold/);
    expect(strict?.ignoredFields).toEqual(["warningThreshold"]);
    expect(withoutIgnored({ detectors: { pingPong: false }, historySize: 3 }, ["detectors.pingPong"]).block).toEqual({ detectors: {}, historySize: 3 });
  });
});

describe("the committed reports", () => {
  for (const dir of ["reports/example", "reports/example-sessions"]) {
    it(`${dir}: every rate carries its interval, and no recommendation is dominated`, () => {
      const report = JSON.parse(readFileSync(join(import.meta.dirname, "..", dir, "report.json"), "utf8")) as { rows: ConfigRow[]; recommendations: { index: number; goal: string }[] };
      for (const r of report.rows) expect(r.metrics.intervals.caughtShare.n).toBe(r.metrics.stuck.agents);
      for (const rec of report.recommendations) {
        const picked = report.rows.find((r) => r.index === rec.index) as ConfigRow;
        expect(report.rows.filter((o) => dominates(o, picked)).map((o) => o.index), `${dir} ${rec.goal}`).toEqual([]);
      }
    });
  }
  it("reports/compare: every guard's rates carry intervals and sample sizes", () => {
    const report = JSON.parse(readFileSync(join(import.meta.dirname, "..", "reports", "compare", "compare.json"), "utf8")) as { rows: { metrics: ConfigRow["metrics"]; sessions?: { intervals: { stoppedShare: { n: number } }; sessions: number } }[] };
    for (const r of report.rows) {
      expect(r.metrics.intervals.stoppedWronglyShare.n).toBe(r.metrics.progressing.agents);
      expect(r.sessions?.intervals.stoppedShare.n).toBe(r.sessions?.sessions);
    }
  });
});

describe("report text", () => {
  it("tune writes intervals and sample sizes in the tables, says whether intervals overlap, and writes coinciding goals once", () => {
    const out = tempDir();
    expect(loopsim(["tune", "--agents", "60", "--grid", "warningThreshold=5,8", "--out", out]).code).toBe(0);
    const md = readFileSync(join(out, "report.md"), "utf8");
    expect(md).toMatch(/Sample sizes per config: 60 simulated agents \(\d+ stuck, \d+ progressing, \d+ recovering\)/);
    expect(md).toMatch(/\d+\.\d% \[\d+\.\d-\d+\.\d\]/);
    expect(md).toMatch(/intervals (do not )?overlap/);
    const headings = md.split("\n").filter((l) => l.startsWith("### "));
    const goals = headings.flatMap((h) => (/^### ([a-z= ]+):/.exec(h)?.[1] ?? "").split(" = "));
    expect(goals.sort()).toEqual(["balanced", "lenient", "strict"]);
  });
});
