// The tuning report's defects found by reading it as an operator, each pinned: stuck agents'
// aborts are catches, not errors; a "stopped" column that tells configs apart; stopped-by-warning
// apart from caught; recommendation names in the order they promise; charts with round ticks and
// the tested thresholds, a log-scale waste chart, legends inside the picture and named after the
// recommendations, the warned share and the families as pictures; a grouped table; one statistic
// (the mean) for the Pareto x-axis and the text; and the recorded-sessions section.
import fc from "fast-check";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { ConfigRow } from "../../src/evaluation/evaluate.js";
import { computeMetrics } from "../../src/evaluation/metrics.js";
import { recommend, sessionsStopped } from "../../src/tune/recommend.js";
import type { TuneReport } from "../../src/tune/report.js";
import type { SimulationSummary } from "../../src/sim/simulate.js";
import { SEED } from "../../properties/support.js";
import { loopsim, tempDir } from "./run.js";

const read = (dir: string, file: string) => readFileSync(join(dir, file), "utf8");
const FIXTURES = join(import.meta.dirname, "..", "fixtures", "sessions");

describe("the tuning report, read as an operator", () => {
  let dir: string;
  let report: TuneReport;
  beforeAll(() => {
    dir = tempDir();
    const labels = join(dir, "labels.json");
    writeFileSync(labels, JSON.stringify({ "swe-agent-example": "resolved", "pi-tree": "unresolved" }));
    const res = loopsim(["tune", "--agents", "120", "--out", dir, "--sessions", join(FIXTURES, "swe-agent-example.traj"), join(FIXTURES, "pi-tree.jsonl"), "--labels", labels, "--label-key", "instance"]);
    expect(res.code, res.stderr).toBe(0);
    report = JSON.parse(read(dir, "report.json")) as TuneReport;
  });

  it("does not count a stuck agent's guard abort as stopping it wrongly (overflow-relapse under the defaults)", () => {
    const relapse = report.rows[0]?.metrics.byFamily["overflow-relapse"];
    expect(relapse?.caughtShare).toBe(1);
    expect(relapse?.wronglyBlockedShare).toBe(0);
  });

  it("replaces 'stuck stopped' (100% everywhere) with columns that tell configs apart, stopped-by-warning apart from caught", () => {
    const md = read(dir, "report.md");
    expect(md).not.toMatch(/\| stuck stopped \|/);
    expect(md).toContain("stuck stopped by a warning");
    const escaped = new Set(report.rows.map((r) => r.metrics.stuck.escapedShare));
    const caught = new Set(report.rows.map((r) => r.metrics.stuck.caughtShare));
    expect(escaped.size).toBeGreaterThan(3);
    expect(caught.size).toBeGreaterThan(3);
  });

  it("names recommendations in the order they promise: lenient <= balanced <= strict on catches and on good work stopped", () => {
    const rowOf = (goal: string) => report.rows.find((r) => r.index === report.recommendations.find((x) => x.goal === goal)?.index) as ConfigRow;
    const stopped = (r: ConfigRow) => r.metrics.overall.falsePositiveRate + (sessionsStopped(r) ?? 0);
    expect(rowOf("lenient").metrics.stuck.caughtShare).toBeLessThanOrEqual(rowOf("balanced").metrics.stuck.caughtShare);
    expect(rowOf("balanced").metrics.stuck.caughtShare).toBeLessThanOrEqual(rowOf("strict").metrics.stuck.caughtShare);
    expect(stopped(rowOf("lenient"))).toBeLessThanOrEqual(stopped(rowOf("balanced")));
    expect(stopped(rowOf("balanced"))).toBeLessThanOrEqual(stopped(rowOf("strict")));
  });

  it("quotes the mean, as the Pareto chart's x-axis does, and says which evidence each number rests on", () => {
    for (const r of report.recommendations) {
      expect(r.tradeOff).toContain(`a mean ${report.rows.find((x) => x.index === r.index)?.metrics.stuck.wastedTokens.mean} tokens`);
      expect(r.evidence).toMatch(/rest on 120 simulated agents/);
      expect(r.evidence).toMatch(/rests on 2 real sessions replayed open-loop \(1 labelled resolved\)/);
    }
    expect(read(dir, "report.html")).toContain(">mean wasted tokens per stuck agent</text>");
  });

  it("draws five charts with round ticks, the tested thresholds, a log-scale waste axis and legends inside the picture named after the recommendations", () => {
    const html = read(dir, "report.html");
    const svgs = html.match(/<svg [^>]*aria-label="[^"]*"/g) ?? [];
    expect(svgs.map((s) => /aria-label="([^"]*)"/.exec(s)?.[1])).toEqual(["Pareto front", "caught against threshold", "wasted tokens", "warned share", "families by config"]);
    const caught = html.slice(html.indexOf('aria-label="caught against threshold"'));
    for (const tested of [10, 16, 20, 30]) expect(caught.slice(0, caught.indexOf("</svg>"))).toContain(`text-anchor="middle">${tested}</text>`);
    const waste = html.slice(html.indexOf('aria-label="wasted tokens"'));
    expect(waste.slice(0, waste.indexOf("</svg>"))).toMatch(/>1k<\/text>.*>10k<\/text>/);
    expect(waste).toContain("(log scale)");
    for (const label of ["Pareto front", "wasted tokens"]) {
      const chart = html.slice(html.indexOf(`aria-label="${label}"`));
      const body = chart.slice(0, chart.indexOf("</svg>"));
      expect(body).toContain(">OpenClaw defaults");
      for (const goal of ["strict", "balanced", "lenient"]) expect(body).toMatch(new RegExp(`>[^<]*${goal}[^<]*</text>`));
      // Every label starts inside the 860-wide picture, with room for it before the edge.
      for (const m of body.matchAll(/<text x="([\d.]+)"[^>]*>([^<]*)<\/text>/g)) expect(Number(m[1]) + 6.5 * (m[2] ?? "").length).toBeLessThanOrEqual(860 + 1);
    }
  });

  it("groups the every-config table, one column per grid field, no long labels", () => {
    const html = read(dir, "report.html");
    expect((html.match(/<tr class="group"><th colspan="\d+">warn = \d+<\/th><\/tr>/g) ?? []).length).toBeGreaterThanOrEqual(3);
    const header = /<h2>Every config<\/h2>\s*<table><thead><tr>(.*?)<\/tr>/s.exec(html)?.[1] ?? "";
    expect(header).toContain("<th>critical</th>");
    expect(header).toContain("<th>window</th>");
  });

  it("adds the recorded-sessions section: warned, blocked, aborted, cut calls and tokens, stops by label", () => {
    const md = read(dir, "report.md");
    expect(md).toContain("## Recorded sessions");
    expect(md).toMatch(/2 recorded sessions \(1 resolved, 1 unresolved\)/);
    expect(report.rows[0]?.sessions?.sessions).toBe(2);
    expect(report.reproduce).toMatch(/--sessions .*swe-agent-example\.traj .*pi-tree\.jsonl --labels .* --label-key instance/);
  });
});

/** Any sweep, not only the default one: the goal names keep their order on arbitrary rows. */
describe("recommendation names", () => {
  const summary = (label: SimulationSummary["label"], caught: boolean, falseBlocks: number, wasted: number): SimulationSummary => ({
    family: label === "stuck" ? "poller-stuck" : "productive", label, model: "small", seed: 1, attempts: 80, executed: 80, loopCalls: 10, wastedCalls: wasted, wastedTokens: wasted * 50, totalTokens: 4000,
    emittedWarnings: 0, warnings: 0, blocks: falseBlocks, falseBlocks, aborts: 0, falseAborts: 0, compactions: 0, firstWarning: -1, firstBlock: -1, firstAbort: -1, caught, escapedAfterWarning: false,
  });
  it("lenient <= balanced <= strict on catches and on false positives, for any set of configs", () => {
    const config = fc.record({ caught: fc.integer({ min: 0, max: 4 }), wrong: fc.integer({ min: 0, max: 4 }), wasted: fc.integer({ min: 0, max: 80 }) });
    fc.assert(
      fc.property(fc.array(config, { minLength: 2, maxLength: 12 }), (configs) => {
        const rows: ConfigRow[] = configs.map((c, index) => ({
          index,
          label: `c${index}`,
          block: {},
          metrics: computeMetrics([
            ...Array.from({ length: 4 }, (_, k) => summary("stuck", k < c.caught, 0, c.wasted)),
            ...Array.from({ length: 4 }, (_, k) => summary("progressing", false, k < c.wrong ? 1 : 0, 0)),
          ]),
        }));
        const recs = recommend(rows, rows[0] as ConfigRow);
        const row = (goal: string) => rows[recs.find((r) => r.goal === goal)?.index ?? 0] as ConfigRow;
        const caught = (g: string) => row(g).metrics.stuck.caughtShare;
        const fp = (g: string) => row(g).metrics.overall.falsePositiveRate;
        return caught("lenient") <= caught("balanced") && caught("balanced") <= caught("strict") && fp("lenient") <= fp("balanced") && fp("balanced") <= fp("strict");
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});
