// Target names and values at the command line's edge: an unknown or unloadable target in `field`
// and `field replay` exits 2 (never a column of "not run"); a field scenario whose args or result
// nest thousands of levels deep is refused with its JSON path (exit 2), not a RangeError (exit 3);
// `conform --against bogus` suggests nothing that fails again; `targets` lists openclaw@PATH.
import { chmodSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loopsim, tempDir } from "./cli/run.js";

const ROOT = join(import.meta.dirname, "..");
const SCENARIO = join(ROOT, "scenarios", "field", "cline-9916.json");

function nested(depth: number): unknown {
  let value: unknown = "bottom";
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe("field and field replay at the edge", () => {
  it("refuses args or a result nested 4,000 deep with the JSON path, exit 2, in replay and in a folder run", () => {
    const dir = tempDir();
    const scenario = JSON.parse(readFileSync(SCENARIO, "utf8")) as { trace: { steps: Record<string, unknown>[] } };
    const step = scenario.trace.steps[0] as Record<string, unknown>;
    step.args = nested(4000);
    step.result = nested(3000);
    const file = join(dir, "deep.json");
    writeFileSync(file, JSON.stringify(scenario));
    const replay = loopsim(["field", "replay", file, "--target", "reference", "--no-fetch"]);
    expect(replay.code, replay.stderr).toBe(2);
    expect(replay.stderr).toContain("trace.steps[0].args: nests deeper than 1000 levels");
    expect(replay.stderr).toContain("trace.steps[0].result: nests deeper than 1000 levels");
    expect(replay.stderr).not.toMatch(/RangeError|\n\s+at /);
    const folder = loopsim(["field", dir, "--target", "reference", "--no-fetch"]);
    expect(folder.code, folder.stderr).toBe(2);
    expect(folder.stderr).toContain("nests deeper than 1000 levels");
  });

  it("an unknown target exits 2 with one did-you-mean, in field and in field replay", () => {
    const field = loopsim(["field", SCENARIO, "--target", "referense", "--no-fetch"]);
    expect(field.code, field.stdout).toBe(2);
    expect(field.stderr).toMatch(/--target: unknown target "referense" \(did you mean "reference"\?/);
    const replay = loopsim(["field", "replay", SCENARIO, "--target", "openclaw@mybuild", "--no-fetch"]);
    expect(replay.code, replay.stdout).toBe(2);
    expect(replay.stderr).toContain("write openclaw@./mybuild");
  });

  it("a build or an adapter that does not load exits 2 in field (the user's own files), not a 'not run' column", () => {
    const dir = tempDir();
    mkdirSync(join(dir, "build"));
    const build = loopsim(["field", SCENARIO, "--target", `openclaw@${join(dir, "build")}`, "--no-fetch"]);
    expect(build.code, build.stdout).toBe(2);
    expect(build.stderr).toContain("has no dist/ folder");
    const adapter = loopsim(["field", "replay", SCENARIO, "--target", join(dir, "missing.mjs"), "--no-fetch"]);
    expect(adapter.code, adapter.stdout).toBe(2);
  });
});

describe("--against and targets", () => {
  it("conform --against bogus names the runtimes, and suggests no bogus@latest", () => {
    const res = loopsim(["conform", "--against", "bogus"]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--against bogus: not a real runtime loopsim can run \(known: gemini-cli@VERSION, .*cline@VERSION.*crush@VERSION/);
    expect(res.stderr).not.toContain("bogus@latest");
    const model = loopsim(["conform", "--against", "qwen-code"]);
    expect(model.code).toBe(2);
    expect(model.stderr).toContain("e.g. qwen-code@latest");
  });

  it("targets lists the openclaw@PATH form; targets fetch refuses a built-in before fetching anything", () => {
    const list = loopsim(["targets"], undefined, undefined, { LOOPSIM_CACHE: tempDir() });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain("--target openclaw@./my-build");
    const fetch = loopsim(["targets", "fetch", "openclaw@2026.9.6", "reference"], undefined, undefined, { LOOPSIM_CACHE: tempDir() });
    expect(fetch.code).toBe(2);
    expect(fetch.stderr).toMatch(/targets fetch reference: only shipped releases and runtimes are fetched/);
  });
});

describe("loading and fetching leave no wrong reading and no litter", () => {
  it("a build whose package.json is not JSON is a user error, not a build of no version", () => {
    const dir = tempDir();
    mkdirSync(join(dir, "dist"));
    writeFileSync(join(dir, "dist", "detector.js"), "export function detectToolCallLoop() { return { stuck: false }; }\n");
    writeFileSync(join(dir, "package.json"), '{ "name": "openclaw", "version": ');
    const res = loopsim(["trace", "/dev/null", "--target", `openclaw@${dir}`], undefined, undefined, { LOOPSIM_CACHE: tempDir() });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`${join(dir, "package.json")} is not valid JSON`);
  });

  it("a failed runtime fetch leaves no empty runtimes/ folder in the cache", () => {
    const bin = tempDir();
    writeFileSync(join(bin, "npm"), "#!/bin/sh\necho 'npm ERR! code E404' >&2\necho 'npm ERR! 404 Not Found' >&2\nexit 1\n");
    chmodSync(join(bin, "npm"), 0o755);
    const cache = tempDir();
    const res = loopsim(["targets", "fetch", "qwen-code@0.24.4"], undefined, undefined, { LOOPSIM_CACHE: cache, PATH: `${bin}:${process.env.PATH ?? ""}` });
    expect(res.code, res.stderr).toBe(2);
    expect(readdirSync(cache)).not.toContain("runtimes");
  });
});
