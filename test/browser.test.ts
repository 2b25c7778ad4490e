// The HTML reports of `conform`, `field`, `scan`, `compare` and `tune` (simulated, and with real
// sessions as agents), opened in a real browser (Debian's headless Chromium, driven by
// playwright-core: one browser for the file, a page per report): the page loads from the file
// alone with no script error and no request beyond it, every chart is laid out at a real size,
// the matrix and the strips are there, and a screenshot is taken. Skipped, saying so, where
// Chromium is not installed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFileSync, existsSync, statSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { loopsim, tempDir } from "./cli/run.js";
import { FAMILIES } from "../src/sim/families.js";

const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));
if (CHROMIUM === undefined) console.log("SKIPPED: the browser checks need Debian's chromium (apt-get install chromium)");

let browser: Browser | undefined;

/** The page as the browser built it: its DOM (serialized, like --dump-dom) and its charts' sizes. */
async function view(url: string, width = 1200, height = 1400, screenshot?: string): Promise<{ stdout: string; status: number; charts: { width: number; height: number }[] }> {
  const page = await (browser as Browser).newPage({ viewport: { width, height } });
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`script error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  page.on("request", (request) => {
    if (request.url() !== url) problems.push(`request beyond the file: ${request.url()}`);
  });
  try {
    await page.goto(url, { waitUntil: "load", timeout: 60_000 });
    const charts = await page.$$eval("svg", (svgs) => svgs.map((svg) => ({ width: svg.getBoundingClientRect().width, height: svg.getBoundingClientRect().height })));
    if (screenshot !== undefined) await page.screenshot({ path: screenshot });
    expect(problems, url).toEqual([]);
    for (const c of charts) expect(c.width > 0 && c.height > 0, `${url}: a chart laid out at ${c.width}x${c.height}`).toBe(true);
    return { stdout: await page.content(), status: 0, charts };
  } finally {
    await page.close();
  }
}

/** Every error bar's lines inside its chart's viewBox: an interval longer than the axes would be cut off. */
function errorBarsInside(dom: string): number {
  let checked = 0;
  for (const chart of dom.match(/<svg [^>]*viewBox="0 0 \d+ \d+"[\s\S]*?<\/svg>/g) ?? []) {
    const [w, h] = (/viewBox="0 0 (\d+) (\d+)"/.exec(chart) ?? []).slice(1).map(Number) as [number, number];
    for (const bar of chart.match(/<g class="error-bar"[\s\S]*?<\/g>/g) ?? []) {
      for (const m of bar.matchAll(/x1="([-\d.]+)" y1="([-\d.]+)" x2="([-\d.]+)" y2="([-\d.]+)"/g)) {
        const [x1, y1, x2, y2] = m.slice(1).map(Number) as [number, number, number, number];
        for (const x of [x1, x2]) expect(x, bar).toBeGreaterThanOrEqual(0), expect(x, bar).toBeLessThanOrEqual(w);
        for (const y of [y1, y2]) expect(y, bar).toBeGreaterThanOrEqual(0), expect(y, bar).toBeLessThanOrEqual(h);
        checked++;
      }
    }
  }
  return checked;
}

describe.skipIf(CHROMIUM === undefined)("HTML reports in headless Chromium", () => {
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, chromiumSandbox: false, args: ["--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"], timeout: 60_000 });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("conformance.html shows the matrix with a coloured cell per rule and target", async () => {
    const out = tempDir();
    loopsim(["conform", "--target", "reference", "--target", "zoo:warning-buckets-of-10", "--out", out]);
    const page = `file://${join(out, "conformance.html")}`;
    const shot = join(out, "conformance.png");
    const dom = await view(page, 1200, 1400, shot);
    expect(dom.status).toBe(0);
    expect((dom.stdout.match(/<td class="fail"/g) ?? []).length).toBeGreaterThan(0);
    expect((dom.stdout.match(/<td class="pass"/g) ?? []).length).toBeGreaterThan(30);
    expect(statSync(shot).size).toBeGreaterThan(20_000);
  });

  it("field.html shows the field matrix with a coloured cell per reported failure and target", async () => {
    const out = tempDir();
    loopsim(["field", "--target", "reference", "--target", "roo-code", "--target", "qwen-code", "--out", out]);
    const page = `file://${join(out, "field.html")}`;
    const shot = join(out, "field.png");
    const dom = await view(page, 1200, 1400, shot);
    expect(dom.status).toBe(0);
    expect((dom.stdout.match(/<td class="failure"/g) ?? []).length).toBeGreaterThan(5);
    expect((dom.stdout.match(/<td class="fixed"/g) ?? []).length).toBeGreaterThan(5);
    expect((dom.stdout.match(/<section id=/g) ?? []).length).toBeGreaterThanOrEqual(25);
    expect(statSync(shot).size).toBeGreaterThan(20_000);
  });

  it("scan.html draws one strip per session with its verdict marks", async () => {
    const out = tempDir();
    const fixtures = join(import.meta.dirname, "fixtures", "sessions");
    const strict = join(out, "strict.json5");
    spawnSync("sh", ["-c", `echo '{ tools: { loopDetection: { enabled: true, warningThreshold: 2, criticalThreshold: 3, globalCircuitBreakerThreshold: 4 } } }' > ${strict}`]);
    const loop = join(out, "loop.jsonl");
    const lines = Array.from({ length: 6 }, (_, i) => [
      JSON.stringify({ type: "call", runId: "r", callId: `c${i}`, tool: "read", params: { path: "a" } }),
      JSON.stringify({ type: "outcome", runId: "r", callId: `c${i}`, tool: "read", params: { path: "a" }, result: { content: [{ type: "text", text: "same" }] } }),
    ]).flat();
    writeFileSync(loop, lines.join("\n") + "\n");
    expect(loopsim(["scan", join(fixtures, "swe-agent-example.traj"), loop, "--config", strict, "--out", out]).code).toBe(0);
    const page = `file://${join(out, "scan.html")}`;
    const shot = join(out, "scan.png");
    const dom = await view(page, 1000, 600, shot);
    expect((dom.stdout.match(/<svg /g) ?? []).length).toBe(2);
    expect(dom.stdout).toMatch(/<title>(warning|block) at event \d+<\/title>/);
    expect(statSync(shot).size).toBeGreaterThan(5_000);
  });

  it("compare.html draws every guard on the waste/false-positive plane and a family-by-guard heatmap", async () => {
    const out = tempDir();
    expect(loopsim(["compare", "--targets", "openclaw-enabled,roo-code,kilo,none", "--agents", "60", "--out", out]).code).toBe(0);
    const page = `file://${join(out, "compare.html")}`;
    const shot = join(out, "compare.png");
    const dom = await view(page, 1200, 1800, shot);
    expect(dom.status).toBe(0);
    expect((dom.stdout.match(/<svg /g) ?? []).length).toBe(2);
    for (const name of ["openclaw-enabled", "roo-code", "kilo", "none"]) expect(dom.stdout).toContain(`>${name}</text>`);
    // One cell per family of the default population (opt-in families such as text-loop are not in it) and guard.
    expect((dom.stdout.match(/<rect /g) ?? []).length).toBe(FAMILIES.filter((f) => f.optIn !== true).length * 4);
    // Every guard's point carries its 95% intervals as error bars.
    expect((dom.stdout.match(/<g class="error-bar"/g) ?? []).length).toBe(4);
    expect(errorBarsInside(dom.stdout)).toBeGreaterThan(0);
    expect(statSync(shot).size).toBeGreaterThan(20_000);
  });

  it("compare.html with --loops real shows each guard's row on the real stretches beside the injected loops", async () => {
    const out = tempDir();
    expect(loopsim(["compare", "--population", "sessions:test/fixtures/real-loops", "--loops", "real", "--labels", "test/fixtures/real-loops-labels.json", "--inject", "repeat", "--targets", "openclaw-enabled,candidate:no-effect:3,none", "--out", out]).code).toBe(0);
    const dom = await view(`file://${join(out, "compare.html")}`);
    expect(dom.status).toBe(0);
    expect(dom.stdout).toContain("<h2>Real stuck stretches</h2>");
    expect(dom.stdout).toMatch(/<tr><td>none<\/td><td>0\.0% \[0\.0-65\.8\] \(n=2\)<\/td>/);
    // The Pareto charts of real outcomes: stretches caught, and stuck calls saved, against resolved runs stopped, every error bar inside them.
    expect(dom.stdout).toContain('aria-label="stuck stretches caught against resolved runs stopped"');
    expect(dom.stdout).toContain('aria-label="stuck calls saved against resolved runs stopped"');
    expect(errorBarsInside(dom.stdout)).toBeGreaterThan(0);
  });

  it("report.html of tune lays out its five charts and the grouped table", async () => {
    const out = tempDir();
    expect(loopsim(["tune", "--agents", "60", "--out", out]).code).toBe(0);
    const page = `file://${join(out, "report.html")}`;
    const shot = join(out, "report.png");
    const dom = await view(page, 1200, 3000, shot);
    expect(dom.status).toBe(0);
    expect((dom.stdout.match(/<svg /g) ?? []).length).toBe(5);
    expect(dom.stdout).toMatch(/<tr class="group">/);
    // The picks at a glance: the defaults and one row per distinct pick, before the prose.
    const picks = dom.stdout.slice(dom.stdout.indexOf('<table class="picks">'));
    expect(picks.slice(0, picks.indexOf("</table>")).match(/<tr[ >]/g)?.length ?? 0).toBeGreaterThanOrEqual(1 + 1 + 1);
    expect(dom.stdout.indexOf('<table class="picks">')).toBeLessThan(dom.stdout.indexOf('<section class="rec">'));
    // The defaults and each recommended config carry error bars on the Pareto chart.
    expect((dom.stdout.match(/<g class="error-bar"/g) ?? []).length).toBeGreaterThanOrEqual(2);
    expect(errorBarsInside(dom.stdout)).toBeGreaterThan(0);
    expect(statSync(shot).size).toBeGreaterThan(50_000);
  });

  it("report.html with real sessions as agents shows the grounded table, the per-shape table and where the evidences disagree", async () => {
    const out = tempDir();
    const sessions = tempDir();
    for (const f of ["swe-agent-example.traj", "pi-tree.jsonl", "mini-timeouts.traj.json"]) copyFileSync(join(import.meta.dirname, "fixtures", "sessions", f), join(sessions, f));
    const r = loopsim(["tune", "--agents", "48", "--grid", "criticalThreshold=10,20", "--sessions", sessions, "--inject", "default@5-12", "--out", out]);
    expect(r.code, r.stderr).toBe(0);
    const page = `file://${join(out, "report.html")}`;
    const shot = join(out, "grounded.png");
    const dom = await view(page, 1200, 4000, shot);
    expect(dom.status).toBe(0);
    expect(dom.stdout).toContain("<h2>Real sessions as agents, with injected loops</h2>");
    expect(errorBarsInside(dom.stdout)).toBeGreaterThan(0);
    expect(dom.stdout).toMatch(/<caption>Every config on real sessions/);
    expect(dom.stdout).toMatch(/<caption>By injected shape: /);
    expect(dom.stdout).toContain("<h2>Where they disagree</h2>");
    // One row per config in the grounded table (the defaults and criticalThreshold=10: 20 is the default), one per shape in the per-shape table (7).
    const grounded = dom.stdout.slice(dom.stdout.indexOf("<caption>Every config on real sessions"));
    expect((grounded.slice(0, grounded.indexOf("</table>")).match(/<tr>/g) ?? []).length).toBe(1 + 2);
    const shapes = dom.stdout.slice(dom.stdout.indexOf("<caption>By injected shape"));
    expect((shapes.slice(0, shapes.indexOf("</table>")).match(/<tr>/g) ?? []).length).toBe(1 + 7);
    // The reaction-sensitivity section: one heatmap per goal, 5 x 5 cells of picks.
    const sensitivity = dom.stdout.slice(dom.stdout.indexOf('<section class="sensitivity"'));
    expect(sensitivity).toContain("<h2>Reaction sensitivity</h2>");
    expect((sensitivity.match(/<table class="heat">/g) ?? []).length).toBe(3);
    expect((sensitivity.match(/<td class="(same|differs)">#\d+<\/td>/g) ?? []).length).toBe(3 * 25);
    expect(statSync(shot).size).toBeGreaterThan(50_000);
  });
});
