// `loopsim simulate` from the outside: byte-identical output for the same command, the emitted
// trace reproduces the same verdicts through `trace`, and bad options exit 2.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loopsim, tempDir, tempFile } from "./run.js";

describe("loopsim simulate", () => {
  const config = tempFile("on.json5", "{ tools: { loopDetection: { enabled: true } } }");
  it("prints byte-identical output for the same command, in both formats", () => {
    for (const format of [[], ["--json"]]) {
      const args = ["simulate", "--family", "ping-pong-stuck", "--seed", "7", "--config", config, ...format];
      const a = loopsim(args);
      expect(a.code).toBe(0);
      expect(loopsim(args).stdout).toBe(a.stdout);
    }
  });

  it("writes a trace that `loopsim trace` turns into the same verdicts", () => {
    const out = join(tempDir(), "t.jsonl");
    const sim = loopsim(["simulate", "--family", "overflow-relapse", "--seed", "2", "--config", config, "--json", "--emit-trace", out]);
    expect(sim.code).toBe(0);
    expect(readFileSync(out, "utf8").split("\n")[0]).toMatch(/^\{"type":"call"/);
    // simulate --json ends with its summary object; the event lines before it are trace's.
    const events = sim.stdout.trimEnd().split("\n");
    expect(JSON.parse(events.pop() ?? "{}")).toMatchObject({ type: "summary", family: "overflow-relapse" });
    expect(loopsim(["trace", out, "--json", "--config", config]).stdout).toBe(events.join("\n") + "\n");
    expect(sim.stdout).toMatch(/"type":"abort"/);
  });

  it.each([
    [["--family", "nope", "--seed", "1"], /unknown family "nope"/],
    [["--family", "heartbeat", "--seed", "-1"], /--seed must be a whole number/],
    [["--family", "heartbeat", "--seed", "1", "--model", "huge"], /unknown model "huge"/],
    [["--family", "heartbeat", "--seed", "1", "--calls", "0"], /--calls must be a positive integer/],
  ])("exit 2 for %j", (args, pattern) => {
    const res = loopsim(["simulate", ...args]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(pattern);
  });
});
