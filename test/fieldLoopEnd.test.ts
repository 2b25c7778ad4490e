// Issue 37: the field matrix judges a loop to its end (a block that lets the loop go on is its own
// class, "let-through", never "fixed"), names regressions ("fixed in X, back in Y"), judges every
// OpenClaw report with the default config and with loop detection enabled, and says what ran in
// each cell and whose rule its verdict rests on. Small observations and scenario files, the
// reference and peer models only; the one check on a real release says SKIPPED without it.
import { describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loopsim, tempDir } from "./cli/run.js";
import { judge } from "../src/field/judge.js";
import type { Observation, ObservedCall } from "../src/field/observe.js";
import { compareReleaseOrder, lastingFixAfter, regressionsOf, regressionText, type TimelinePoint } from "../src/field/timeline.js";
import { configVariants } from "../src/field/configVariants.js";
import { defaultFieldTargets, threadReleases } from "../src/field/lineup.js";
import { productOf, restsOn } from "../src/field/product.js";
import { realCodeOf } from "../src/field/run.js";
import { buildFieldReport, isCached } from "../src/field/matrix.js";
import { loadFieldScenario } from "../src/field/load.js";
import { cacheRoot } from "../src/targets/openclaw/cache.js";
import type { FieldCell, FieldReport } from "../src/field/report.js";
import { readFileSync } from "node:fs";

const ROOT = join(import.meta.dirname, "..");

const ran: ObservedCall = { fate: "ran", told: false, keptFromModel: false, runEndedAfter: false };
const blocked: ObservedCall = { fate: "blocked", told: true, keptFromModel: false, detector: "unknown_tool_repeat", runEndedAfter: false };
const observe = (...calls: ObservedCall[]): Observation => ({ calls });

describe("judging the loop to its end", () => {
  it("a block in time that lets the next calls run is let-through, not fixed", () => {
    const j = judge({ stopsBy: 3 }, observe(ran, ran, blocked, ran, blocked, ran));
    expect(j.status).toBe("let-through");
    expect(j.loop).toEqual({ firstStop: 3, ranAfterStop: 2, ranAfterEnd: 2, ended: false });
    expect(j.observed).toContain("2 later calls ran");
  });

  it("a soft block before the scenario's bound is fixed when nothing runs past the bound", () => {
    expect(judge({ stopsBy: 4 }, observe(blocked, ran, ran, ran, blocked, blocked)).status).toBe("fixed");
    expect(judge({ stopsBy: 4 }, observe(blocked, ran, ran, ran, blocked, ran)).status).toBe("let-through");
  });

  it("a block that holds is fixed; a late block is a failure, whatever runs after it", () => {
    expect(judge({ stopsBy: 3 }, observe(ran, ran, blocked, blocked, blocked)).status).toBe("fixed");
    expect(judge({ stopsBy: 2 }, observe(ran, ran, blocked, ran)).status).toBe("failure");
    expect(judge({ stopsBy: 2 }, observe(ran, ran, ran)).status).toBe("failure");
  });

  it("under runsNothingAfter the loop must be over after that call: calls before it may run", () => {
    expect(judge({ runsNothingAfter: 4 }, observe(ran, blocked, ran, ran, blocked, blocked)).status).toBe("fixed");
    const j = judge({ runsNothingAfter: 4 }, observe(ran, blocked, ran, ran, blocked, ran));
    expect(j.status).toBe("let-through");
    expect(j.broken).toEqual(["1 call ran after call 4"]);
  });

  it("a scenario that expects no stop is never let-through", () => {
    expect(judge({ neverStops: true }, observe(ran, blocked, ran)).status).toBe("failure");
  });
});

describe("timelines and regressions", () => {
  const t = (status: TimelinePoint["status"], v: string): TimelinePoint => ({ target: `openclaw@${v}`, status });
  // The shape of openclaw-64500 under the reporter's thresholds.
  const timeline = [t("failure", "2026.4.14"), t("fixed", "2026.4.26"), t("let-through", "2026.5.4"), t("failure", "2026.5.12"), t("fixed", "2026.6.5"), t("fixed", "2026.7.35"), t("let-through", "2026.8.1"), t("failure", "2026.9.6")];

  it("names each fix a later version lost: fixed in X, back in Y", () => {
    expect(regressionsOf(timeline).map(regressionText)).toEqual(["fixed in openclaw@2026.4.26, back in openclaw@2026.5.4 (blocked, then let through)", "fixed in openclaw@2026.6.5, back in openclaw@2026.8.1 (blocked, then let through)"]);
  });

  it("a fix counts only when every later version keeps it", () => {
    expect(lastingFixAfter(timeline, "openclaw@2026.4.14")).toBeUndefined();
    expect(lastingFixAfter([t("failure", "2026.4.14"), t("fixed", "2026.5.4"), t("fixed", "2026.9.6")], "openclaw@2026.4.14")).toBe("openclaw@2026.5.4");
  });

  it("orders a pre-release before its release and a correction after it", () => {
    expect(["2026.8.1", "2026.7.1-2", "2026.8.1-beta.3", "2026.7.1", "2026.7.1-beta.5"].sort(compareReleaseOrder)).toEqual(["2026.7.1-beta.5", "2026.7.1", "2026.7.1-2", "2026.8.1-beta.3", "2026.8.1"]);
  });

  it("the real code of a report: nearest version, a lasting fix, the regressions; a not-run reason from the nearest column", () => {
    const cell = (status: FieldCell["status"], reason?: string): FieldCell => ({ status, replay: "", ...(reason === undefined ? {} : { reason }) });
    const columns = ["reference", "openclaw@2026.2.17", "openclaw@2026.4.26", "openclaw@2026.5.4", "openclaw@2026.9.6"];
    const rc = realCodeOf({ runtime: "openclaw", reportedVersion: "2026.4.21", cells: { reference: cell("fixed"), "openclaw@2026.2.17": cell("failure"), "openclaw@2026.4.26": cell("fixed"), "openclaw@2026.5.4": cell("let-through"), "openclaw@2026.9.6": cell("failure") } }, columns);
    expect(rc).toMatchObject({ target: "openclaw@2026.2.17", status: "failure", regressions: [{ fixedIn: "openclaw@2026.4.26", backIn: "openclaw@2026.5.4", backAs: "let-through" }] });
    expect(rc.laterFix).toBeUndefined();
    const na = realCodeOf({ runtime: "openclaw", reportedVersion: "2026.7.1-2", cells: { "openclaw@2026.2.17": cell("n/a", "old"), "openclaw@2026.7.1-2": cell("n/a", "nearest"), "openclaw@2026.9.6": cell("n/a", "newest") } }, ["openclaw@2026.2.17", "openclaw@2026.7.1-2", "openclaw@2026.9.6"]);
    expect(na.why).toBe("openclaw@2026.7.1-2: nearest");
  });
});

describe("configs and products", () => {
  it("an OpenClaw report has default and enabled rows, and its own config when that is neither; the thread's is marked", () => {
    expect(configVariants({ runtime: "openclaw", config: {}, configStated: "left at its default" }).map((v) => [v.name, v.stated, v.primary])).toEqual([["default", true, true], ["enabled", false, false]]);
    const own = configVariants({ runtime: "openclaw", config: { tools: { loopDetection: { enabled: true, criticalThreshold: 5 } } } });
    expect(own.map((v) => v.name)).toEqual(["default", "enabled", "scenario"]);
    expect(own[2]?.label).toContain("the config the scenario assumes");
    expect(configVariants({ runtime: "gemini-cli", config: {} }).map((v) => v.name)).toEqual(["scenario"]);
  });

  it("releases the threads name become columns; a writer's era estimate does not", () => {
    const named = threadReleases([
      { runtime: "openclaw", reportedVersion: "2026.7.1-2", reportedAs: "2026.7.1-2; a comment corroborates it 'on OpenClaw 2026.9.4'", reported: "r" },
      { runtime: "openclaw", reportedVersion: "2026.4.14", reportedAs: "not stated; filed 2026-04-15 (the 2026.4.12 to 2026.4.14 era)", reported: "on v2026.3.2 and 2026.8.1-beta.3." },
      { runtime: "gemini-cli", reportedVersion: "0.29.5", reportedAs: "0.29.5", reported: "r" },
    ]);
    expect(named).toEqual(["2026.3.2", "2026.7.1-2", "2026.8.1-beta.3", "2026.9.4"]);
    expect(defaultFieldTargets(named).filter((t) => t.startsWith("openclaw@")).slice(0, 3)).toEqual(["openclaw@2026.2.17", "openclaw@2026.3.2", "openclaw@2026.3.13"]);
  });

  it("a CLI standing in for a VS Code extension says so, and a fix PR's rule is named as the verdict's basis", () => {
    const scenario = { runtime: "cline", reportedProduct: "Cline VS Code extension 3.75", ruleFrom: "PR cline/cline#9933: warn at 3" };
    const cli = productOf("cline@3.0.65", scenario);
    expect(cli.ran).toBe("Cline CLI 3.0.65 from npm, driven through its CLI, standing in for the Cline VS Code extension 3.75 the thread reports");
    expect(restsOn(scenario, cli, { firstStop: 5, ranAfterStop: 0, ranAfterEnd: 0, ended: true })).toBe("a rule taken from PR cline/cline#9933: warn at 3, not the product's own behaviour (its own stop: at call 5)");
    expect(productOf("openclaw@2026.9.6", { runtime: "openclaw" })).toEqual({ ran: "OpenClaw 2026.9.6 from npm (its own detector, in-process; the caller around it emulated)", ownCode: true });
    expect(productOf("goose", { runtime: "openclaw" }).ran).toContain("loopsim's model of goose");
  });

  it("a small matrix: rows per config, the let-through class in its cells and totals", async () => {
    const dir = tempDir();
    const file = join(dir, "unknown-tool.json");
    writeFileSync(file, JSON.stringify({ schema: "loopsim/field@1", id: "openclaw-1", title: "t", url: "https://example.org/1", runtime: "openclaw", reportedVersion: "2026.9.6", reportedAs: "2026.9.6", fixedIn: null, kind: "counter-reset", reported: "r", config: {}, configStated: "default", trace: { description: "d", steps: [{ tool: "nope", args: {}, error: "Unknown tool: nope", repeat: 14 }] }, expected: { text: "refused from the 11th on", runsNothingAfter: 11 }, confidence: "test" }));
    const loaded = loadFieldScenario(file);
    if (!loaded.ok) throw new Error(loaded.problems.join("\n"));
    const report = await buildFieldReport([{ loaded: loaded.loaded, shownFile: "unknown-tool.json" }], ["reference", "goose"], "test", { fetch: false, driven: "none" });
    expect(report.rows.map((r) => [r.key, r.config.stated])).toEqual([["openclaw-1:default", true], ["openclaw-1:enabled", false]]);
    // Goose's model blocks at its 4th repeated error, then lets the next ones through.
    expect(report.rows[1]?.cells.goose).toMatchObject({ status: "let-through", loop: { firstStop: 4, ended: false }, replay: "loopsim field replay unknown-tool.json --target goose" });
    // The reference reads the OpenClaw config, so its cell is judged per row; a peer model's is not.
    expect(report.rows[1]?.cells.reference?.replay).toBe("loopsim field replay unknown-tool.json --target reference --config enabled");
    expect(report.rows[0]?.cells.reference?.status).toBe("failure");
    expect(report.rows[1]?.cells.reference?.status).toBe("fixed");
    expect(report.totals.goose?.letThrough).toBe(1);
    expect(report.headline.letThroughCells).toBe(2);
  });

  it("field replay --config enabled judges with loop detection on; a config the report is not judged with is exit 2", () => {
    const file = join(ROOT, "scenarios/field/openclaw-141743.json");
    const run = loopsim(["field", "replay", file, "--target", "reference", "--config", "enabled", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const cell = JSON.parse(run.stdout) as { config: string; replay: string; ran: string };
    expect(cell.config).toBe("enabled");
    expect(cell.replay).toContain("--config enabled");
    expect(cell.ran).toContain("reference guard");
    // --config scenario on a report whose own config is default or enabled judges with that one.
    expect(loopsim(["field", "replay", file, "--target", "reference", "--config", "scenario"]).code).toBe(0);
    const gem = loopsim(["field", "replay", join(ROOT, "scenarios/field/gemini-cli-5873.json"), "--target", "reference", "--config", "enabled"]);
    expect(gem.code).toBe(2);
    expect(gem.stderr).toContain("this report is judged with scenario");
  });
});

describe("the regression under loop detection enabled, on the real release", () => {
  const release = "openclaw@2026.9.6";
  const have = isCached(release);
  if (!have) console.log(`SKIPPED: openclaw-141743 with loop detection enabled on ${release}: not in the cache (${cacheRoot()}); fetch it with: loopsim targets fetch ${release}`);
  it.skipIf(!have)("openclaw-141743 with loop detection enabled is let through on 2026.9.6, not fixed", () => {
    const run = loopsim(["field", "replay", join(ROOT, "scenarios/field/openclaw-141743.json"), "--target", release, "--config", "enabled", "--no-fetch", "--expect", "let-through"]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain("let through: blocked in time, then the loop went on");
  });

  it("the committed matrix names the regressions: 141743 with loop detection enabled, and 64500", () => {
    const committed = JSON.parse(readFileSync(join(ROOT, "reports/field/field.json"), "utf8")) as FieldReport;
    expect(committed.headline.regressions["openclaw-141743:enabled"]).toContain("back in openclaw@2026.8.1 (blocked, then let through)");
    expect(committed.headline.regressions["openclaw-64500:scenario"]).toContain("fixed in openclaw@2026.4.26, back in openclaw@2026.5.4");
    expect(committed.headline.laterFixes["openclaw-64500"]).toBeUndefined();
    const enabled = committed.rows.find((r) => r.key === "openclaw-141743:enabled");
    expect(enabled?.cells[release]?.status).toBe("let-through");
    for (const id of new Set(committed.rows.filter((r) => r.runtime === "openclaw").map((r) => r.id))) {
      expect(committed.rows.filter((r) => r.id === id).map((r) => r.config.name).slice(0, 2), id).toEqual(["default", "enabled"]);
    }
  });
});
