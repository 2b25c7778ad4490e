// `--target` and `loopsim targets`: names are checked at the boundary, with exit 2 and one line
// that says what is wrong, before any network or disk work.
import { describe, expect, it } from "vitest";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loopsim, tempDir, tempFile } from "./run.js";

const loop = Array.from({ length: 12 }, (_, i) => [
  JSON.stringify({ type: "call", runId: "r", callId: `c${i}`, tool: "read", params: { path: "a" } }),
  JSON.stringify({ type: "outcome", runId: "r", callId: `c${i}`, tool: "read", params: { path: "a" }, result: { content: [{ type: "text", text: "same" }] } }),
]).flat().join("\n") + "\n";

describe("targets", () => {
  it("lists the built-in targets and the cache", () => {
    const res = loopsim(["targets"], undefined, undefined);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/reference/);
    expect(res.stdout).toMatch(/zoo:contiguous-streak/);
    expect(res.stdout).toMatch(/openclaw@VERSION/);
    // Every runtime that runs here, with the version the reports were made with.
    for (const line of [/gemini-cli\s+in-process, @google\/gemini-cli-core; reports made with 0\.61\.0/, /qwen-code\s+driven CLI, @qwen-code\/qwen-code; reports made with 0\.24\.4/, /opencode\s+driven CLI/, /kilo\s+driven CLI/, /qwen-code:heuristics/]) expect(res.stdout).toMatch(line);
  });

  // A stub npm on PATH answers `npm view PKG versions --json`: no network in tests.
  const stubNpm = (script: string): Record<string, string> => {
    const dir = tempDir();
    writeFileSync(join(dir, "npm"), `#!/bin/sh\n${script}\n`);
    chmodSync(join(dir, "npm"), 0o755);
    return { PATH: `${dir}:${process.env.PATH ?? ""}` };
  };
  const registry = (newer: boolean): Record<string, string> =>
    stubNpm(`case "$2" in
  @google/gemini-cli-core) echo '["0.24.0","0.61.0"${newer ? ',"0.62.0","0.63.0-preview.1"' : ""}]';;
  openclaw) echo '["2026.9.6"${newer ? ',"2026.10.1"' : ""}]';;
  @qwen-code/qwen-code) echo '["0.24.4"]';;
  opencode-linux-x64) echo '"1.18.33"';;
  *) echo '["7.7.7"]';;
esac`);
  it("targets outdated names each runtime version and OpenClaw release newer than the committed reports (exit 1), after saying it asks", () => {
    const res = loopsim(["targets", "outdated"], undefined, undefined, registry(true));
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toMatch(/asking the npm registry \(npm view PACKAGE versions, 60 s timeout\)/);
    expect(res.stdout).toMatch(/gemini-cli \(@google\/gemini-cli-core\): reports\/peers covers 0\.24\.0, 0\.44\.1, 0\.61\.0; newer on the registry: 0\.62\.0$/m);
    expect(res.stdout).toMatch(/openclaw \(openclaw\): reports\/conformance covers .*2026\.9\.6; newer on the registry: 2026\.10\.1$/m);
    expect(res.stdout).toMatch(/qwen-code, qwen-code:heuristics \(@qwen-code\/qwen-code\): .*nothing newer on the registry/);
  });

  it.each([
    [["trace", "-", "--target", "nope"], /unknown target "nope"/],
    [["trace", "-", "--target", "openclaw@2026.1.29"], /has no loop detector: the first release with one is 2026\.2\.17/],
    [["trace", "-", "--target", "openclaw@banana"], /not a release version/],
    [["trace", "-", "--target", "./missing-adapter.mjs"], /no such file/],
  ])("%j exits 2 with one line", (args, message) => {
    const res = loopsim(args as string[], loop);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
    expect(res.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("a module that is not a target is refused with what it lacks", () => {
    const bad = tempFile("bad-adapter.mjs", "export default { name: 'x' };\n");
    const res = loopsim(["trace", "-", "--target", bad], loop);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/not a loopsim target: start\(config\) must be a function/);
  });

  it("trace, simulate, replay and tune take --target (a zoo variant here)", () => {
    const on = tempFile("on.json5", "{ tools: { loopDetection: { enabled: true, warningThreshold: 5 } } }");
    const ref = loopsim(["trace", "-", "--config", on, "--json"], loop);
    const zoo = loopsim(["trace", "-", "--config", on, "--json", "--target", "zoo:warning-buckets-of-10"], loop);
    expect(ref.stdout).not.toBe(zoo.stdout);
    expect(loopsim(["simulate", "--family", "poller-stuck", "--seed", "1", "--target", "zoo:thresholds-ignored"]).code).toBe(0);
    const out = tempDir();
    const tune = loopsim(["tune", "--grid", "warningThreshold=5,10", "--agents", "24", "--target", "zoo:thresholds-ignored", "--out", out, "--workers", "1"]);
    expect(tune.code, tune.stderr).toBe(0);
  });
});
