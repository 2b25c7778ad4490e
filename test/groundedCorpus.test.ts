// The "done when", on the real corpus: tuning on real sessions run as agents with
// injected loops gives a catch rate per shape on real backgrounds, and a population fitted to the
// mini-swe-agent sessions is within 0.15 of them on every statistic, read back from its file,
// with the held-out half's distances. Needs ../shared/corpus; says SKIPPED without it.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loopsim, tempDir } from "./cli/run.js";

const CORPUS = join(import.meta.dirname, "..", "..", "shared", "corpus");
const MINI = join(CORPUS, "mini-swe-agent");
const HAVE_CORPUS = existsSync(MINI);
if (!HAVE_CORPUS) console.log(`SKIPPED: the grounded-population corpus tests need ../shared/corpus, which is not here (${CORPUS})`);

describe.skipIf(!HAVE_CORPUS)("populations grounded in the real corpus", () => {
  it("tune --population sessions:CORPUS --inject default reports a catch rate per injected shape on real backgrounds", () => {
    const out = tempDir();
    // The reaction grid is left out: it has its own tests (test/reactionSensitivity.test.ts, test/cli/reactionGrid.test.ts), and this one keeps its cost.
    const r = loopsim(["tune", "--population", `sessions:${MINI}`, "--inject", "default", "--grid", "criticalThreshold=20", "--reaction-grid", "none", "--out", out, "--workers", "1"]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8")) as {
      grounded: { sessions: number; primary: boolean; agents: Record<string, number> };
      rows: { metrics: { byFamily: Record<string, { agents: number; caughtShare: number }>; stuck: { agents: number } } }[];
    };
    expect(report.grounded.primary).toBe(true);
    expect(report.grounded.sessions).toBe(60);
    const shapes = ["repeat", "volatile", "poll", "ping-pong", "unknown-tool", "overflow-relapse", "near-duplicate"];
    for (const row of report.rows) {
      expect(row.metrics.stuck.agents).toBe(60 * shapes.length);
      for (const s of shapes) expect(row.metrics.byFamily[`inject:${s}`]?.agents, s).toBe(60);
    }
    // Detection enabled catches some of every shape it is built for; OpenClaw's defaults (off) only the compaction relapse.
    const enabled = report.rows[1]?.metrics.byFamily as Record<string, { caughtShare: number }>;
    for (const s of ["repeat", "poll", "ping-pong", "unknown-tool", "overflow-relapse"]) expect(enabled[`inject:${s}`]?.caughtShare, s).toBeGreaterThan(0);
    const md = readFileSync(join(out, "report.md"), "utf8");
    expect(md).toContain("## Real sessions as agents, with injected loops");
    expect(md).toMatch(/\| repeat \| .*\d+\.\d% \[\d/);
  });

  it("calibrate --fit on mini-swe-agent, then calibrate --population FILE: every statistic within 0.15, and the held-out half's distances", () => {
    const dir = tempDir();
    const pop = join(dir, "pop.json");
    const fit = loopsim(["calibrate", MINI, "--fit", "--out", pop]);
    expect(fit.code, fit.stderr).toBe(0);
    const check = loopsim(["calibrate", "--population", pop, "--json"], undefined, dir);
    expect(check.code, check.stderr).toBe(0);
    const report = JSON.parse(check.stdout) as { rows: { statistic: string; distanceProgressing: number }[]; heldOut: { rows: { statistic: string; heldOut: number }[]; checkedOn: { runs: number } } };
    for (const row of report.rows) expect(row.distanceProgressing, row.statistic).toBeLessThanOrEqual(0.15);
    expect(report.heldOut.rows.map((h) => h.statistic)).toEqual(report.rows.map((r) => r.statistic));
    expect(report.heldOut.checkedOn.runs).toBe(30);
    expect(fit.stdout).toContain("**Every statistic is within 0.15**");
    expect(fit.stdout).toContain("## Held-out check");
  });
});
