// `loopsim replay` from the outside: passing, failing with a diff, --update, --variant, and
// broken scenario files (exit 2 naming the file and the JSON path).
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loopsim, tempDir } from "./run.js";

const corpus = join(import.meta.dirname, "..", "..", "scenarios");
const boundaries = join(corpus, "spec", "default-boundaries.json");

function copyOf(file: string, edit?: (s: Record<string, unknown>) => void): string {
  const path = join(tempDir(), "s.json");
  copyFileSync(file, path);
  if (edit !== undefined) {
    const s = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
    edit(s);
    writeFileSync(path, JSON.stringify(s, null, 2));
  }
  return path;
}

describe("loopsim replay", () => {
  it("replays the whole corpus and exits 0, byte-identical across runs", () => {
    const a = loopsim(["replay", corpus, "--json"]);
    const b = loopsim(["replay", corpus, "--json"]);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(JSON.parse(a.stdout)).toMatchObject({ failed: 0, invalid: 0 });
  });

  it("shows an event-by-event diff and exits 1 on a mismatch; --update rewrites it", () => {
    const path = copyOf(boundaries, (s) => {
      (s.config as { tools: { loopDetection: Record<string, unknown> } }).tools.loopDetection.criticalThreshold = 15;
    });
    const res = loopsim(["replay", path]);
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/^FAIL /m);
    expect(res.stdout).toMatch(/- 30 call r1 read warning generic_repeat 15 suppressed\n {2}\+ 30 call r1 read critical generic_repeat 15/);
    const upd = loopsim(["replay", path, "--update"]);
    expect(upd.stdout).toMatch(/UPDATED .*expectation changed/);
    expect(loopsim(["replay", path]).code).toBe(0);
  });

  it("--variant shows how a bug-zoo variant departs from the reference", () => {
    const res = loopsim(["replay", "--variant", "warning-buckets-of-10", join(corpus, "upstream", "k5-safe-runner-warns-at-8.json")]);
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/DIFFERS .*against zoo:warning-buckets-of-10/);
    expect(res.stdout).toMatch(/- 16 call r1 read warning generic_repeat 8\n {2}\+ 16 call r1 read warning generic_repeat 8 suppressed/);
  });

  it.each([
    ["bad JSON", (p: string) => writeFileSync(p, '{"schema": "loopsim/scenario@1",\n  "id": oops}'), /s\.json:2:\d+: not valid JSON/],
    ["an unknown family", (p: string) => edit(p, (s) => ((s.source as Record<string, unknown>).simulation = { family: "nope", seed: 1, calls: 10, model: "small" })), /s\.json: source\.simulation\.family: unknown family "nope"/],
    ["a threshold of 0", (p: string) => edit(p, (s) => ((s.config as { tools: { loopDetection: Record<string, unknown> } }).tools.loopDetection.warningThreshold = 0)), /s\.json: config\.tools\.loopDetection\.warningThreshold: must be a positive integer \(got 0\)/],
    ["an unknown key", (p: string) => edit(p, (s) => (s.extra = 1)), /s\.json: extra: unknown key/],
    ["a bad event", (p: string) => edit(p, (s) => ((s.source as { events: unknown[] }).events[3] = { type: "call" })), /s\.json: source\.events\[3\]\.tool: missing/],
  ])("exit 2 for %s, naming the file and the JSON path", (_name, breakIt, pattern) => {
    const path = copyOf(boundaries);
    breakIt(path);
    const res = loopsim(["replay", path]);
    expect(res.code).toBe(2);
    expect(res.stdout + res.stderr).toMatch(pattern);
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });
});

function edit(path: string, change: (s: Record<string, unknown>) => void): void {
  const s = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  change(s);
  writeFileSync(path, JSON.stringify(s));
}

describe("a replay that would fetch a release says so first, and --no-fetch skips instead", () => {
  // A release no cache holds; the registry is a closed port, so nothing is ever downloaded here.
  const env = { LOOPSIM_CACHE: tempDir(), npm_config_registry: "http://127.0.0.1:9/" };
  const naming = () => copyOf(boundaries, (s) => (s.target = "openclaw@2026.1.99"));

  it("--no-fetch: the scenario is SKIPPED with why, the others replay, exit 0", () => {
    const file = naming();
    const r = loopsim(["replay", "--no-fetch", file, boundaries], undefined, undefined, env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`SKIPPED ${file}: needs openclaw@2026.1.99, which is not in the cache (--no-fetch)`);
    expect(r.stdout).toContain(`PASS ${boundaries}`);
    expect(r.stdout).toMatch(/1 passed, 0 failed, 1 skipped \(--no-fetch\)/);
    expect(r.stderr).toMatch(/--no-fetch: skipping 1 scenario that names openclaw@2026\.1\.99/);
  });

  it("without it, the note comes before npm is asked", () => {
    const r = loopsim(["replay", naming()], undefined, undefined, env);
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split("\n");
    expect(lines[0]).toMatch(/^loopsim: 1 scenario names openclaw@2026\.1\.99, not in the cache \(.*\): fetching it with npm once .*--no-fetch skips that scenario instead$/);
  });
});
