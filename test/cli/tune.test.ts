// `loopsim tune` and `loopsim merge` from the outside, on a small sweep: the files, byte-identical
// results for the same seed and for any number of workers, sharding + merging = one run, the
// Markdown and HTML numbers against the JSON, and exit 2 for bad input.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { TuneReport } from "../../src/tune/report.js";
import { rowCells, variedFields } from "../../src/tune/table.js";
import { picksTable } from "../../src/tune/picksTable.js";
import { shareCell } from "../../src/stats/interval.js";
import { existsSync } from "node:fs";
import { loopsim, tempDir } from "./run.js";

const GRID = "warningThreshold=5,10;criticalThreshold=10,20;windowSize=2,3";
const base = ["tune", "--grid", GRID, "--agents", "48", "--seed", "3"];
const read = (dir: string, file: string) => readFileSync(join(dir, file), "utf8");

describe("loopsim tune", () => {
  let one: string;
  let two: string;
  beforeAll(() => {
    one = tempDir();
    two = tempDir();
    expect(loopsim([...base, "--out", one, "--workers", "1"]).code).toBe(0);
    expect(loopsim([...base, "--out", two, "--workers", "2"]).code).toBe(0);
  });

  it("writes report.json, report.md and report.html with the defaults row and the skipped combinations", () => {
    const report = JSON.parse(read(one, "report.json")) as TuneReport;
    expect(report.rows[0]?.label).toBe("OpenClaw defaults");
    expect(report.rows).toHaveLength(1 + 6);
    expect(report.grid.skipped.map((s) => s.label)).toEqual(["warningThreshold=10 criticalThreshold=10 windowSize=2", "warningThreshold=10 criticalThreshold=10 windowSize=3"]);
    expect(report.recommendations.map((r) => r.goal)).toEqual(["strict", "balanced", "lenient"]);
    for (const r of report.recommendations) expect(r.snippet).toMatch(/^\{\n {2}tools: \{\n {4}loopDetection: \{\n {6}enabled: true,/);
    expect(read(one, "report.html")).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
  });

  it("gives byte-identical results for --workers 1 and 2, and for the same seed", () => {
    for (const file of ["report.json", "report.md", "report.html"]) expect(read(two, file)).toBe(read(one, file));
  });

  it("shards and merges into exactly the unsharded report", () => {
    const parts = tempDir();
    expect(loopsim([...base, "--out", parts, "--shard", "1/2"]).code).toBe(0);
    expect(loopsim([...base, "--out", parts, "--shard", "2/2"]).code).toBe(0);
    const merged = tempDir();
    const res = loopsim(["merge", join(parts, "partial-2-of-2.json"), join(parts, "partial-1-of-2.json"), "--out", merged]);
    expect(res.code).toBe(0);
    for (const file of ["report.json", "report.md", "report.html"]) expect(read(merged, file)).toBe(read(one, file));
    const incomplete = loopsim(["merge", join(parts, "partial-1-of-2.json"), "--out", tempDir()]);
    expect(incomplete.code).toBe(2);
    expect(incomplete.stderr).toMatch(/missing shard 2\/2/);
  });

  it("shows in Markdown and HTML the numbers the JSON holds", () => {
    const report = JSON.parse(read(one, "report.json")) as TuneReport;
    const md = read(one, "report.md");
    const html = read(one, "report.html");
    const fields = variedFields(report.rows);
    for (const row of report.rows) {
      const cells = rowCells(row, report.pareto, fields);
      expect(md).toContain(`| ${cells.join(" | ")} |`);
      expect(html).toContain(`<tr${row.index === 0 ? ' class="defaults"' : ""}>${cells.map((c) => `<td>${c}</td>`).join("")}</tr>`);
    }
    // The picks at a glance: one table row per pick beside the defaults, the same cells in both.
    const picks = picksTable(report);
    for (const cells of picks.rows) {
      expect(md).toContain(`| ${cells.join(" | ")} |`);
      expect(html).toContain(`${cells.map((c) => `<td>${c}</td>`).join("")}</tr>`);
    }
    for (const rec of report.recommendations) {
      expect(md).toContain(rec.snippet);
      const row = report.rows.find((r) => r.index === rec.index);
      expect(picks.rows.some((cells) => cells[1] === (rec.index === 0 ? "OpenClaw defaults" : `#${rec.index} ${rec.label}`) && cells[2] === shareCell(rec.numbers.caughtShare, row?.metrics.intervals.caughtShare))).toBe(true);
    }
  });

  it("--json without --out prints the report and writes nothing (twice in a row, so no reports/latest is left to refuse)", () => {
    const cwd = tempDir();
    for (let i = 0; i < 2; i++) {
      const res = loopsim([...base, "--json", "--workers", "1"], undefined, cwd);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toBe(read(one, "report.json"));
    }
    expect(existsSync(join(cwd, "reports"))).toBe(false);
  });

  it("refuses to overwrite a report without --force", () => {
    const res = loopsim([...base, "--out", one]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/report\.json exists; pass --force/);
  });

  it.each([
    ["an unknown grid field", ["--grid", "warnThreshold=5"], /--grid: "warnThreshold": unknown field/],
    ["a bad grid value", ["--grid", "criticalThreshold=0,x"], /criticalThreshold=0: must be a positive integer; criticalThreshold=x/],
    ["an unknown population", ["--population", "nope"], /--population nope: neither a preset/],
  ])("exit 2 for %s", (_name, args, pattern) => {
    const res = loopsim(["tune", "--agents", "4", "--out", tempDir(), ...args]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(pattern);
  });

  it("exit 2 for a bad config or population file, naming the path", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "c.json5"), "{ tools: { loopDetection: { warningThreshold: 0 } } }");
    writeFileSync(join(dir, "p.json5"), "{ members: [{ family: 'nope', model: 'small' }, { family: 'heartbeat', model: 'tiny', weight: -1 }] }");
    const config = loopsim(["tune", "--agents", "4", "--out", dir, "--config", join(dir, "c.json5")]);
    expect(config.code).toBe(2);
    expect(config.stderr).toMatch(/tools\.loopDetection\.warningThreshold: must be a positive integer/);
    const population = loopsim(["tune", "--agents", "4", "--out", dir, "--population", join(dir, "p.json5")]);
    expect(population.code).toBe(2);
    expect(population.stderr).toMatch(/members\[0\]\.family: unknown family "nope"/);
    expect(population.stderr).toMatch(/members\[1\]\.model: must be "small" or "flagship"/);
    expect(population.stderr).toMatch(/members\[1\]\.weight: must be a positive number/);
  });
});

describe("the Reproduce line", () => {
  it("names every input: seed, agents, grid, population file, config, agent and target; in md and html", () => {
    const dir = tempDir();
    const config = join(dir, "openclaw.json5");
    writeFileSync(config, '{ tools: { loopDetection: { enabled: true } }, agents: { list: [{ id: "ops", tools: { loopDetection: { warningThreshold: 8, criticalThreshold: 16 } } }] } }');
    const population = join(dir, "population.json5");
    writeFileSync(population, '{ calls: 40, members: [{ family: "poller-stuck", model: "small", weight: 1 }, { family: "productive", model: "flagship", weight: 1 }] }');
    const out = join(dir, "rep");
    const res = loopsim(["tune", "--grid", "warningThreshold=5,10", "--agents", "8", "--seed", "4", "--population", population, "--config", config, "--agent", "ops", "--target", "zoo:thresholds-ignored", "--out", out]);
    expect(res.code, res.stderr).toBe(0);
    const report = JSON.parse(read(out, "report.json")) as TuneReport;
    const want = `loopsim tune --seed 4 --agents 8 --grid "warningThreshold=5,10" --population ${population} --config ${config} --agent ops --target zoo:thresholds-ignored`;
    expect(report.reproduce).toBe(want);
    expect(read(out, "report.md")).toContain(want);
    expect(read(out, "report.html")).toContain(want.replace(/"/g, "&quot;"));
  });
});
