// Bad input never crashes: file-system mistakes, text that is not UTF-8, runaway lines, unbounded
// runs, grids with nothing to tune and edited shard files all get exit 2 and one line naming the
// place, before any long work starts.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_LINE_CHARS } from "../../src/io/lines.js";
import { loopsim, tempDir } from "./run.js";

function refused(args: string[], message: RegExp): void {
  const r = loopsim(args);
  expect(r.code, `${args.join(" ")}\n${r.stderr}`).toBe(2);
  expect(r.stderr.trim().split("\n"), r.stderr).toHaveLength(1);
  expect(r.stderr).toMatch(/^loopsim: /);
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

const TRACE = '{"type":"call","runId":"r","callId":"c1","tool":"read","params":{"path":"a"}}\n';

describe("file-system mistakes", () => {
  const dir = tempDir();
  const file = join(dir, "a-file");
  writeFileSync(file, "x");
  const trace = join(dir, "t.jsonl");
  writeFileSync(trace, TRACE);

  it("--config naming a directory, for config, trace, simulate and tune", () => {
    refused(["config", dir], /is a directory, not a config file/);
    refused(["trace", trace, "--config", dir], /is a directory, not a config file/);
    refused(["simulate", "--family", "productive", "--seed", "1", "--config", dir], /is a directory, not a config file/);
    refused(["tune", "--agents", "4", "--config", dir, "--out", tempDir()], /is a directory, not a config file/);
  });

  it("simulate --emit-trace naming a directory", () => {
    refused(["simulate", "--family", "productive", "--seed", "1", "--emit-trace", dir], /is a directory; give a file path to write/);
  });

  it("tune --out naming a file, or a folder under a file: refused before the sweep", () => {
    refused(["tune", "--out", file], /a file is in the way/);
    refused(["tune", "--out", join(file, "sub")], /a file is in the way/);
  });
});

describe("one rule for text: UTF-8, a leading BOM allowed, invalid bytes refused with file and line", () => {
  const dir = tempDir();
  it("accepts a BOM in a trace, a config and a scenario", () => {
    const trace = join(dir, "bom.jsonl");
    writeFileSync(trace, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(TRACE)]));
    expect(loopsim(["trace", trace]).code).toBe(0);
    const config = join(dir, "bom.json5");
    writeFileSync(config, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("{tools:{loopDetection:{enabled:true}}}")]));
    expect(loopsim(["config", config]).code).toBe(0);
    const scenario = join(dir, "bom.json");
    const original = readFileSync(join(import.meta.dirname, "..", "..", "scenarios", "spec", "default-boundaries.json"));
    writeFileSync(scenario, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), original]));
    expect(loopsim(["replay", scenario]).code).toBe(0);
  });
  it("refuses invalid UTF-8 in a trace, a config and a scenario, naming the line", () => {
    const trace = join(dir, "bad.jsonl");
    writeFileSync(trace, Buffer.concat([Buffer.from(TRACE), Buffer.from('{"type":"call","tool":"re'), Buffer.from([0xff]), Buffer.from('ad"}\n')]));
    refused(["trace", trace], /bad\.jsonl:2: not valid UTF-8/);
    const config = join(dir, "bad.json5");
    writeFileSync(config, Buffer.concat([Buffer.from("{\ntools: '"), Buffer.from([0xc3, 0x28]), Buffer.from("'}")]));
    refused(["config", config], /bad\.json5:2: not valid UTF-8/);
    const scenario = join(dir, "bad.json");
    writeFileSync(scenario, Buffer.concat([Buffer.from('{"id": "'), Buffer.from([0xfe]), Buffer.from('"}')]));
    const r = loopsim(["replay", scenario]);
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toMatch(/bad\.json:1: not valid UTF-8/);
  });
});

describe("bounds", () => {
  it(`a line longer than ${MAX_LINE_CHARS} characters is refused with its line, not a crash`, () => {
    const dir = tempDir();
    const trace = join(dir, "huge.jsonl");
    writeFileSync(trace, TRACE + `{"type":"call","tool":"read","params":{"p":"${"x".repeat(MAX_LINE_CHARS + 16)}"}}\n`);
    refused(["trace", trace], /huge\.jsonl:2: line longer than 67108864 characters/);
  });
  it("--calls and a scenario's calls are bounded", () => {
    // A command-line parse error is commander's line plus its usage hint.
    const calls = loopsim(["simulate", "--family", "poller-stuck", "--seed", "1", "--calls", "100000000"]);
    expect(calls.code).toBe(2);
    expect(calls.stderr.split("\n")[0]).toMatch(/^loopsim: .*--calls must be at most 100000/);
    const dir = tempDir();
    const scenario = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "scenarios", "families", "poller-stuck-small.json"), "utf8")) as { source: { simulation: { calls: number } } };
    scenario.source.simulation.calls = 100_000_000;
    const file = join(dir, "huge.json");
    writeFileSync(file, JSON.stringify(scenario));
    const r = loopsim(["replay", file]);
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toMatch(/source\.simulation\.calls: must be a positive integer of at most 100000/);
  });
  it("a grid whose every point is skipped is refused with the reason", () => {
    refused(["tune", "--grid", "warningThreshold=30;criticalThreshold=10", "--out", tempDir()], /every point is skipped \(1 of 1\).*warningThreshold 30 must be below criticalThreshold 10/);
  });
});

describe("merge checks the parts, not their headers", () => {
  it("an edited shard header or a malformed row is refused", () => {
    const parts = tempDir();
    const base = ["tune", "--grid", "warningThreshold=5,8;criticalThreshold=10,20", "--agents", "12", "--out", parts];
    expect(loopsim([...base, "--shard", "1/2"]).code).toBe(0);
    expect(loopsim([...base, "--shard", "2/2"]).code).toBe(0);
    const p1 = join(parts, "partial-1-of-2.json");
    const p2 = join(parts, "partial-2-of-2.json");
    const forged = JSON.parse(readFileSync(p2, "utf8")) as { shard: { index: number; of: number }; rows: unknown[] };
    forged.shard = { index: 1, of: 1 };
    const f1 = join(parts, "forged.json");
    writeFileSync(f1, JSON.stringify(forged));
    refused(["merge", f1, "--out", tempDir()], /not exactly shard 1\/1's \d+ configs/);
    const broken = JSON.parse(readFileSync(p2, "utf8")) as { rows: unknown[] };
    broken.rows[0] = "nonsense";
    const f2 = join(parts, "broken.json");
    writeFileSync(f2, JSON.stringify(broken));
    refused(["merge", p1, f2, "--out", tempDir()], /rows\[0\]: not a result row/);
    const out = tempDir();
    expect(loopsim(["merge", p1, p2, "--out", out]).code).toBe(0);
    expect(existsSync(join(out, "report.json"))).toBe(true);
    mkdirSync(join(out, "x"), { recursive: true });
  });
});
