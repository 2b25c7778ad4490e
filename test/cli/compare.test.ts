// `loopsim compare` end to end: the same bytes for any number of workers, shards that merge into
// exactly the whole report, the recorded-sessions section with labels, and bad input refused.
import { describe, expect, it } from "vitest";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { loopsim, tempDir } from "./run.js";

const SMALL = ["--targets", "openclaw-default,openclaw-enabled,gemini-cli,roo-code,none", "--agents", "48"];
const FIXTURES = join(import.meta.dirname, "..", "fixtures", "sessions");

describe("loopsim compare", () => {
  it("writes json, md and html; byte-identical for 1 and 3 workers", () => {
    const a = tempDir();
    const b = tempDir();
    expect(loopsim(["compare", ...SMALL, "--workers", "1", "--out", a]).code).toBe(0);
    expect(loopsim(["compare", ...SMALL, "--workers", "3", "--out", b]).code).toBe(0);
    for (const f of ["compare.json", "compare.md", "compare.html"]) expect(readFileSync(join(b, f), "utf8")).toBe(readFileSync(join(a, f), "utf8"));
    const report = JSON.parse(readFileSync(join(a, "compare.json"), "utf8")) as { rows: { name: string; metrics: { stuck: { caughtShare: number } } }[] };
    expect(report.rows.map((r) => r.name)).toEqual(["openclaw-default", "openclaw-enabled", "gemini-cli", "roo-code", "none"]);
    expect(report.rows.find((r) => r.name === "none")?.metrics.stuck.caughtShare).toBe(0);
    expect(readFileSync(join(a, "compare.md"), "utf8")).toContain("There is no user in a simulation");
  });

  it("shards merge into exactly the unsharded report; a wrong or missing part is refused", () => {
    const whole = tempDir();
    const parts = tempDir();
    expect(loopsim(["compare", ...SMALL, "--out", whole]).code).toBe(0);
    for (const i of [1, 2]) expect(loopsim(["compare", ...SMALL, "--shard", `${i}/2`, "--out", parts]).code).toBe(0);
    const merged = tempDir();
    const p1 = join(parts, "compare-partial-1-of-2.json");
    const p2 = join(parts, "compare-partial-2-of-2.json");
    expect(loopsim(["compare", "--merge", p1, p2, "--out", merged]).code).toBe(0);
    expect(readFileSync(join(merged, "compare.json"), "utf8")).toBe(readFileSync(join(whole, "compare.json"), "utf8"));
    const missing = loopsim(["compare", "--merge", p1, "--out", tempDir()]);
    expect(missing.code).toBe(2);
    // The folder the parts came from is named first, then what is missing and what was found.
    expect(missing.stderr).toContain(`loopsim: ${parts}: missing shard 2/2 (found 1/2)`);
    const edited = JSON.parse(readFileSync(p2, "utf8")) as { shard: { index: number } };
    edited.shard.index = 1;
    const forged = join(parts, "forged.json");
    writeFileSync(forged, JSON.stringify(edited));
    const bad = loopsim(["compare", "--merge", p1, forged, "--out", tempDir()]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/not exactly shard 1\/2/);
  });

  it("replays recorded sessions open-loop and reports them by label", () => {
    const dir = tempDir();
    const labels = join(dir, "labels.json");
    writeFileSync(labels, JSON.stringify({ "swe-agent-example": "resolved", "pi-tree": "unresolved" }));
    const sessions = [join(FIXTURES, "swe-agent-example.traj"), join(FIXTURES, "pi-tree.jsonl"), join(FIXTURES, "claude-parallel.jsonl")];
    const result = loopsim(["compare", "--targets", "roo-code,none", "--agents", "24", "--sessions", ...sessions, "--labels", labels, "--label-key", "instance", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { sessions: { count: number; byLabel: Record<string, number> }; rows: { name: string; sessions: { sessions: number; byLabel: Record<string, { sessions: number }> } }[] };
    expect(report.sessions.byLabel.resolved).toBe(1);
    expect(report.sessions.byLabel.unresolved).toBe(1);
    expect(report.sessions.byLabel.unlabelled).toBe(1);
    expect(report.rows[0]?.sessions.sessions).toBe(report.sessions.count);
  });

  it("refuses bad input with exit 2 and one line", () => {
    const cases: [string[], RegExp][] = [
      [["compare", "--targets", "nope"], /^loopsim: unknown target "nope"/],
      [["compare", "--labels", "x.json"], /^loopsim: --labels needs --sessions/],
      [["compare", "--targets", "none", "--sessions", FIXTURES, "--labels", join(FIXTURES, "missing.json")], /^loopsim: --labels .*: no such file/],
      [["compare", "--targets", ",", "--agents", "4"], /^loopsim: --targets: name at least one target/],
      [["compare", "--targets", "none", "--sessions", FIXTURES, "--label-map", "a=maybe", "--labels", join(FIXTURES, "swe-agent-example.traj")], /^loopsim: --label-map a=maybe: each entry is VALUE=resolved, VALUE=unresolved or VALUE=unknown/],
    ];
    for (const [args, message] of cases) {
      const r = loopsim(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(message);
    }
    const key = loopsim(["compare", "--targets", "none", "--sessions", FIXTURES, "--labels", join(FIXTURES, "x.json"), "--label-key", "nope"]);
    expect(key.code).toBe(2);
    expect(key.stderr).toMatch(/^loopsim: .*unknown label key "nope" \(known: id, instance, file\)/);
  });

  it("an unreadable session is reported with its line and skipped; the report covers the rest and the exit code is 1", () => {
    const dir = tempDir();
    const r = loopsim(["compare", "--targets", "none", "--agents", "4", "--sessions", join(FIXTURES, "pi-malformed.jsonl"), join(FIXTURES, "pi-tree.jsonl"), "--out", dir]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/pi-malformed\.jsonl: skipped: .*pi-malformed\.jsonl:3: not valid JSON/);
    const report = JSON.parse(readFileSync(join(dir, "compare.json"), "utf8")) as { sessions: { count: number; unreadable: { file: string }[] } };
    expect(report.sessions.count).toBe(1);
    expect(report.sessions.unreadable.map((b) => b.file)).toEqual([join(FIXTURES, "pi-malformed.jsonl")]);
    const strict = loopsim(["compare", "--targets", "none", "--agents", "4", "--sessions", join(FIXTURES, "pi-malformed.jsonl"), join(FIXTURES, "pi-tree.jsonl"), "--strict"]);
    expect(strict.code).toBe(2);
    expect(strict.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("labels match by id (the path relative to the folder) or by --label-key; odd values and labels that match nothing are reported, never fatal", () => {
    const dir = tempDir();
    const labels = join(dir, "labels.json");
    writeFileSync(labels, JSON.stringify({ "swe-agent-example.traj": "resolved", "pi-tree.jsonl": "empty_patch", "codex-outstanding.jsonl": "maybe", "elsewhere/x.jsonl": "resolved" }));
    const good = [join(FIXTURES, "swe-agent-example.traj"), join(FIXTURES, "pi-tree.jsonl"), join(FIXTURES, "codex-outstanding.jsonl")];
    const folder = join(dir, "sessions");
    mkdirSync(folder);
    for (const f of good) copyFileSync(f, join(folder, basename(f)));
    const r = loopsim(["compare", "--targets", "none", "--agents", "4", "--sessions", folder, "--labels", labels, "--label-map", "empty_patch=unresolved", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { sessions: { byLabel: Record<string, number>; labelKey: string } };
    expect(report.sessions.byLabel).toEqual({ resolved: 1, unresolved: 1, unlabelled: 1 });
    expect(report.sessions.labelKey).toBe("id");
    expect(r.stderr).toMatch(/\$\["codex-outstanding\.jsonl"\]: "maybe" is not resolved or unresolved .*left unlabelled/);
    expect(r.stderr).toMatch(/1 label matched no session by --label-key id \(e\.g\. "elsewhere\/x\.jsonl"\)/);
  });
});
