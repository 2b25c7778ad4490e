// Small things a new user meets first: help with no arguments, -v, every error prefixed
// "loopsim:", and `replay .` reading only scenario files (not node_modules, package.json...).
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { loopsim, tempDir } from "./run.js";

describe("first contact", () => {
  it("no arguments prints the help on stdout and exits 0", () => {
    const res = loopsim([]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Usage: loopsim/);
    expect(res.stderr).toBe("");
  });

  it("-v and --version print the version", () => {
    expect(loopsim(["-v"]).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(loopsim(["--version"]).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("parser errors start with loopsim: and exit 2", () => {
    const res = loopsim(["trace", "--bogus"]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^loopsim: unknown option '--bogus'/);
  });

  it("replay of a folder reads scenario files only, and never node_modules", () => {
    const res = loopsim(["replay", join(import.meta.dirname, "..", "..", "scenarios"), join(import.meta.dirname, "..", "..", "test")]);
    expect(res.code, res.stdout).toBe(0);
    expect(res.stdout).not.toMatch(/INVALID|node_modules/);
  });
});

describe("boundaries", () => {
  it("a seed above 2^53 is refused instead of silently rounded", () => {
    const res = loopsim(["simulate", "--family", "productive", "--seed", "9007199254740993"]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--seed must be at most 9007199254740991/);
  });

  it("an outcome with both a result and an error is refused with its line", () => {
    const line = JSON.stringify({ type: "outcome", tool: "read", params: {}, result: { content: [] }, error: "boom" });
    const res = loopsim(["trace", "-"], line + "\n");
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/<stdin>:1: event: an outcome has a result or an error, not both/);
  });
});

describe("the guide's examples work as written", () => {
  it("the hand-written scenario needs only family and seed, records with --update and then passes", () => {
    const readme = readFileSync(join(import.meta.dirname, "..", "..", "docs", "guide", "replay-a-session.md"), "utf8");
    const block = /cat > \/tmp\/my-scenario\.json <<'EOF'\n([\s\S]*?)\nEOF\n/.exec(readme)?.[1];
    expect(block).toBeDefined();
    const file = join(tempDir(), "my-scenario.json");
    writeFileSync(file, block ?? "");
    const update = loopsim(["replay", "--update", file]);
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).toMatch(/expectation recorded/);
    expect(loopsim(["replay", file]).code).toBe(0);
  });
});

describe("orphan outcomes in a loopsim trace are counted, and the guide's trace has none", () => {
  const orphansOf = (text: string): number => {
    const file = join(tempDir(), "t.jsonl");
    writeFileSync(file, text);
    const r = loopsim(["scan", file, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as { sessions: { stats: { orphanOutcomes: number } }[] }).sessions[0]?.stats.orphanOutcomes ?? -1;
  };

  it("the guide's example trace gives every outcome its call", () => {
    const readme = readFileSync(join(import.meta.dirname, "..", "..", "docs", "guide", "replay-a-session.md"), "utf8");
    const block = /cat > \/tmp\/t\.jsonl <<'EOF'\n([\s\S]*?)\nEOF\n/.exec(readme)?.[1];
    expect(block).toBeDefined();
    expect(orphansOf(`${block ?? ""}\n`)).toBe(0);
  });

  it("an outcome with no call, by callId or (without one) by tool, and a second outcome for one call, are orphans", () => {
    const call = (id: string | undefined, tool = "read") => JSON.stringify({ type: "call", runId: "r", ...(id === undefined ? {} : { callId: id }), tool, params: {} });
    const outcome = (id: string | undefined, tool = "read") => JSON.stringify({ type: "outcome", runId: "r", ...(id === undefined ? {} : { callId: id }), tool, params: {}, result: "x" });
    expect(orphansOf([call("c1"), outcome("c1")].join("\n") + "\n")).toBe(0);
    expect(orphansOf([call("c1"), outcome("c2")].join("\n") + "\n")).toBe(1);
    expect(orphansOf([call("c1"), outcome("c1"), outcome("c1")].join("\n") + "\n")).toBe(1);
    expect(orphansOf([call(undefined), outcome(undefined), outcome(undefined, "write")].join("\n") + "\n")).toBe(1);
    // The same callId in another run is another call.
    expect(orphansOf([call("c1"), JSON.stringify({ type: "outcome", runId: "other", callId: "c1", tool: "read", params: {}, result: "x" })].join("\n") + "\n")).toBe(1);
  });
});

describe("a checkout that has not been built", () => {
  it("says how to build instead of a module-not-found stack (exit 2)", () => {
    const dir = tempDir();
    mkdirSync(join(dir, "bin"));
    copyFileSync(join(import.meta.dirname, "..", "..", "bin", "loopsim.js"), join(dir, "bin", "loopsim.js"));
    const r = spawnSync(process.execPath, [join(dir, "bin", "loopsim.js"), "--version"], { encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe("loopsim: not built yet: run `npm run build` (or `npm test`) in the checkout first\n");
  });
});
