// Bad input never crashes: file-system mistakes, text that is not UTF-8, runaway lines, unbounded
// runs, grids with nothing to tune and edited shard files all get exit 2 and one line naming the
// place, before any long work starts.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_LINE_CHARS } from "../../src/io/lines.js";
import { loopsim, tempDir, tempFile } from "./run.js";

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

describe("inputs behind a folder without permission", () => {
  // Root reads through any permission, so as root the CLI is run as nobody (uid 65534); as anyone
  // else, as that user. Either way a locked folder must read as "permission denied", never as a
  // missing file, and a refused write must name the file asked for, not a temporary one.
  const dir = tempDir();
  chmodSync(dir, 0o755);
  const locked = join(dir, "locked");
  mkdirSync(locked);
  writeFileSync(join(locked, "t.jsonl"), TRACE);
  writeFileSync(join(locked, "c.json"), "{}");
  chmodSync(locked, 0o000);
  const open = join(dir, "open");
  mkdirSync(open);
  chmodSync(open, 0o777);
  const readOnly = join(dir, "read-only");
  mkdirSync(readOnly);
  chmodSync(readOnly, 0o555);
  const asRoot = process.getuid?.() === 0;
  const as = asRoot ? { uid: 65534, gid: 65534 } : {};
  const run = (args: string[]) => spawnSync(process.execPath, [join(import.meta.dirname, "../../bin/loopsim.js"), ...args], { encoding: "utf8", ...as });
  const probe = run(["--version"]);
  const usable = probe.status === 0;
  if (!usable) console.log(`SKIPPED: the CLI cannot run as uid 65534 here (the clone is not readable by nobody): ${probe.stderr.split("\n")[0] ?? ""}`);
  it.skipIf(!usable).each([
    [["trace", join(locked, "t.jsonl")], "t.jsonl: permission denied"],
    [["config", join(locked, "c.json")], "c.json: permission denied"],
    [["trace", "-", "--config", join(locked, "c.json")], "c.json: permission denied"],
    [["replay", locked], "locked: permission denied"],
    [["scan", join(locked, "t.jsonl")], "t.jsonl: permission denied"],
    [["import", join(locked, "t.jsonl")], "t.jsonl: permission denied"],
    [["tune", "--population", join(locked, "p.json"), "--out", join(open, "out-p")], "p.json: permission denied"],
    [["trace", "-", "--target", join(locked, "a.mjs")], "a.mjs: permission denied"],
    [["simulate", "--family", "pager", "--seed", "1", "--emit-trace", join(locked, "e.jsonl")], "e.jsonl: cannot write: permission denied"],
    // Output folders: refused before the sweep starts (a sweep would take seconds; these take none).
    [["tune", "--out", join(locked, "out")], "out: cannot create the output folder: permission denied"],
    [["tune", "--out", readOnly], "read-only: the output folder is not writable"],
    [["compare", "--out", join(readOnly, "sub")], "sub: cannot create the output folder: permission denied"],
  ])("%j", (args, message) => {
    const r = run(args);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr.trim().split("\n"), r.stderr).toHaveLength(1);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(/no such file|\.tmp/);
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
  });
});

describe("numbers that lose precision", () => {
  it("config thresholds above 2^53 are refused with their path", () => {
    const dir = tempDir();
    const config = join(dir, "big.json5");
    writeFileSync(config, "{tools:{loopDetection:{enabled:true,criticalThreshold:90071992547409930,globalCircuitBreakerThreshold:900719925474099300}}}");
    const r = loopsim(["config", config]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/tools\.loopDetection\.criticalThreshold: must be at most 9007199254740991 \(2\^53 - 1\)/);
  });
});

describe("replay lines carry every setting the failure depends on", () => {
  it("a property failure's replay command names LOOPSIM_STRICT when it was set", async () => {
    const { failureReport } = await import("../../properties/support.js");
    const failure = { law: "some-law", seed: 7, path: "1:2", events: 3, message: "broken", scenarioFile: undefined };
    const before = process.env.LOOPSIM_STRICT;
    process.env.LOOPSIM_STRICT = "A1,A5";
    try {
      expect(failureReport(failure, "properties/x.test.ts")).toContain("replay the property: LOOPSIM_STRICT=A1,A5 FC_SEED=7 FC_PATH=1:2 npx vitest run properties/x.test.ts");
    } finally {
      if (before === undefined) delete process.env.LOOPSIM_STRICT;
      else process.env.LOOPSIM_STRICT = before;
    }
  });
});

describe("friction", () => {
  it("config --json writes numbers and booleans as JSON types", () => {
    const dir = tempDir();
    const config = join(dir, "c.json");
    writeFileSync(config, JSON.stringify({ tools: { loopDetection: { enabled: true, warningThreshold: 8, criticalThreshold: 16 } } }));
    const report = JSON.parse(loopsim(["config", config, "--json"]).stdout) as Record<string, unknown> & { effective: Record<string, unknown> };
    expect(report.enabled).toBe(true);
    expect(report.rollingDetectors).toBe(true);
    expect(report.effective.warningThreshold).toBe(8);
    const unset = join(dir, "u.json");
    writeFileSync(unset, "{}");
    expect((JSON.parse(loopsim(["config", unset, "--json"]).stdout) as { enabled: unknown }).enabled).toBeNull();
  });
  it("replay writes INVALID details to stderr, and --update says which facts changed", () => {
    const dir = tempDir();
    const bad = join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ schema: "loopsim/scenario@1", id: "x" }));
    const r = loopsim(["replay", bad]);
    expect(r.code).toBe(2);
    expect(r.stdout).not.toMatch(/INVALID/);
    expect(r.stderr).toMatch(/INVALID .*bad\.json\n {2}.*title: must be a non-empty string/);
    const scenario = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "scenarios", "families", "poller-stuck-small.json"), "utf8")) as { expected: { facts: { blocks: number } } };
    scenario.expected.facts.blocks += 5;
    const file = join(dir, "edited.json");
    writeFileSync(file, JSON.stringify(scenario));
    const u = loopsim(["replay", file, "--update"]);
    expect(u.code).toBe(0);
    expect(u.stdout).toMatch(/facts changed: blocks: \d+ -> \d+/);
  });
  it("trace ends with a summary on stderr; simulate --json ends with its summary object", () => {
    const dir = tempDir();
    const trace = join(dir, "t.jsonl");
    writeFileSync(trace, TRACE);
    const t = loopsim(["trace", trace, "--json"]);
    expect(t.stdout.trim().split("\n")).toHaveLength(1);
    expect(t.stderr).toMatch(/t\.jsonl: 1 event, 1 call: 0 warnings \(0 emitted\), 0 blocks, 0 aborts/);
    const s = loopsim(["simulate", "--family", "poller-stuck", "--seed", "1", "--json"]);
    const last = JSON.parse(s.stdout.trim().split("\n").at(-1) ?? "{}") as { type: string; family: string; attempts: number };
    expect(last).toMatchObject({ type: "summary", family: "poller-stuck", attempts: 80 });
  });
});

describe("a captured counterexample fails again when replayed", () => {
  it("records the law, seed and path, and replay checks the law on the subject", async () => {
    const { runLaw } = await import("../../properties/support.js");
    const { freshRunStartsFromZero } = await import("../../properties/laws/runScoping.js");
    const { findBuiltInTarget } = await import("../../src/targets/registry.js");
    const subject = findBuiltInTarget("zoo:no-run-scoping");
    expect(subject).toBeDefined();
    const failure = runLaw(freshRunStartsFromZero, subject as NonNullable<typeof subject>);
    expect(failure?.scenarioFile).toBeDefined();
    const scenario = JSON.parse(readFileSync(failure?.scenarioFile as string, "utf8")) as { target: string; law: { name: string; seed: number; path: string } };
    expect(scenario.target).toBe("zoo:no-run-scoping");
    expect(scenario.law).toMatchObject({ name: "fresh-run-starts-from-zero", seed: failure?.seed, path: failure?.path });
    const replay = loopsim(["replay", failure?.scenarioFile as string]);
    expect(replay.code).toBe(1);
    expect(replay.stdout).toMatch(/law fresh-run-starts-from-zero still fails on zoo:no-run-scoping/);
  });
});

describe("the holes a new user found (issue 23), each fixed", () => {
  it("count flags name their real limit, before any work", () => {
    for (const [args, limit] of [[["tune", "--agents", "99999999999", "--out", tempDir()], "--agents must be at most 100000"], [["compare", "--agents", "99999999999"], "--agents must be at most 100000"], [["simulate", "--family", "heartbeat", "--seed", "1", "--calls", "99999999999999999999"], "--calls must be at most 100000"], [["conform", "--depth", "5000"], "--depth must be at most 1000"], [["tune", "--workers", "100000", "--out", tempDir()], "--workers must be at most 256"]] as const) {
      const r = loopsim([...args]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toContain(limit);
    }
  });
  it("params nested beyond the stated depth are refused with exit 2, never a crash", () => {
    const deep = "{\"a\":".repeat(5000) + "1" + "}".repeat(5000);
    const file = tempFile("deep.jsonl", `{"type":"call","runId":"r","tool":"read","params":${deep}}\n`);
    for (const target of ["reference", "gemini-cli"]) {
      const r = loopsim(["trace", file, "--target", target]);
      expect(r.code, target).toBe(2);
      expect(r.stderr).toMatch(/deep\.jsonl:1: event\.params: nests deeper than 1000 levels/);
    }
  });
  it("tools named constructor and __proto__ stay themselves, in the timeline and the JSON", () => {
    const file = tempFile("proto.jsonl", ['{"type":"call","runId":"r","tool":"constructor","params":{"__proto__":{"x":1}}}', '{"type":"call","runId":"r","tool":"__proto__","params":{}}'].join("\n") + "\n");
    const timeline = loopsim(["trace", file]);
    expect(timeline.stdout).toMatch(/call\s+constructor\s+allow/);
    expect(timeline.stdout).toMatch(/call\s+__proto__\s+allow/);
    const json = loopsim(["trace", file, "--json"]).stdout.trim().split("\n").map((l) => JSON.parse(l) as { tool: string });
    expect(json.map((o) => o.tool)).toEqual(["constructor", "__proto__"]);
  });
  it("trace on a folder names the folder", () => {
    const dir = tempDir();
    const r = loopsim(["trace", dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`loopsim: ${dir}: is a directory, expected a trace or session file (scan and import take folders)\n`);
  });
  it("an unknown law is exit 2 with a did-you-mean, not 0 checks passing", () => {
    const r = loopsim(["conform", "--law", "no-blok-without-evidence"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown law "no-blok-without-evidence" \(did you mean "no-block-without-evidence"\?/);
  });
  it("bare `loopsim scenario` is exit 2, naming its subcommand", () => {
    const r = loopsim(["scenario"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/scenario needs a subcommand: record/);
  });
  it("every command that writes a folder keeps what is there unless --force", () => {
    const dir = tempDir();
    expect(loopsim(["compare", "--targets", "none", "--agents", "4", "--out", dir]).code).toBe(0);
    const again = loopsim(["compare", "--targets", "none", "--agents", "4", "--out", dir]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/compare\.json exists; pass --force to overwrite it/);
    expect(loopsim(["compare", "--targets", "none", "--agents", "4", "--out", dir, "--force"]).code).toBe(0);
    const fixtures = join(import.meta.dirname, "..", "fixtures", "sessions", "pi-tree.jsonl");
    expect(loopsim(["scan", fixtures, "--out", dir]).code).toBe(0);
    expect(loopsim(["scan", fixtures, "--out", dir]).stderr).toMatch(/scan\.json exists; pass --force/);
    expect(loopsim(["calibrate", fixtures, "--agents", "4", "--out", dir]).code).toBe(0);
    expect(loopsim(["calibrate", fixtures, "--agents", "4", "--out", dir]).stderr).toMatch(/calibration\.json exists; pass --force/);
  });
  it("counts are written in good English: 1 call, 1 event", () => {
    const file = tempFile("one.jsonl", '{"type":"call","runId":"r","tool":"read","params":{}}\n');
    expect(loopsim(["trace", file]).stderr).toMatch(/one\.jsonl: 1 event, 1 call: 0 warnings/);
  });
});

describe("fetching releases (issue 23)", () => {
  it("an interrupted fetch's folder is cleaned up by the next fetch, and an unreachable registry is said in one line", () => {
    const cache = tempDir();
    const stale = join(cache, "openclaw", ".fetch-2026.1.1-999999");
    mkdirSync(stale, { recursive: true });
    writeFileSync(join(stale, "junk"), "x".repeat(1024));
    const file = join(cache, "one.jsonl");
    writeFileSync(file, '{"type":"call","runId":"r","tool":"read","params":{}}\n');
    const r = loopsim(["trace", file, "--target", "openclaw@2026.9.6"], undefined, undefined, { LOOPSIM_CACHE: cache, npm_config_registry: "http://127.0.0.1:9/", npm_config_fetch_retries: "0", npm_config_fetch_timeout: "2000" });
    expect(r.code).toBe(2);
    expect(existsSync(stale)).toBe(false);
    expect(r.stderr.trim().split("\n").at(-1)).toMatch(/^loopsim: openclaw@2026\.9\.6: (the npm registry cannot be reached|npm failed)/);
  });
});
