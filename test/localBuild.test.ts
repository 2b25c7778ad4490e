// `--target openclaw@PATH`: a maintainer's own build. A "local checkout" is made from a cached
// release's files (its package.json, the detector chunk with every chunk it imports, the guard's
// chunk, and its installed packages), conformed on one law, then changed in one threshold
// constant and conformed again: conform must catch the change. The cache the runs are given is an
// empty folder that must stay empty. Runs when the release is in the cache (LOOPSIM_CACHE, as
// .ci/run fetches it); otherwise says SKIPPED.
import { describe, expect, it } from "vitest";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { readManifest } from "../src/targets/openclaw/cache.js";
import { localCheckout as checkoutOf } from "./openclawCheckout.js";
import { loopsim, tempDir } from "./cli/run.js";

const RELEASE = "2026.9.6";
const manifest = readManifest(RELEASE);
if (manifest === undefined) console.log(`SKIPPED: the local OpenClaw build test: openclaw@${RELEASE} is not in the cache (loopsim targets fetch openclaw@${RELEASE})`);

/** The CLI with a fresh, empty cache and tmp: a local build must write to neither. */
function isolated(args: string[]): { code: number; stdout: string; stderr: string; cache: string[]; tmp: string[] } {
  const cache = tempDir();
  const tmp = tempDir();
  const res = loopsim(args, undefined, undefined, { LOOPSIM_CACHE: cache, TMPDIR: tmp });
  return { ...res, cache: readdirSync(cache), tmp: readdirSync(tmp) };
}

describe.skipIf(manifest === undefined)("openclaw@PATH: a local build", () => {
  it("conforms a checkout with a dev version, as that date's generation, writing nothing to the cache; a changed threshold fails conform", { timeout: 300_000 }, () => {
    const build = checkoutOf(RELEASE, "2026.10.0-dev");
    const ok = isolated(["conform", "--target", `openclaw@${build}`, "--law", "warnings-come-first", "--json"]);
    expect(ok.code, ok.stderr).toBe(0);
    const column = JSON.parse(ok.stdout).targets[0];
    expect(column.target).toBe(`openclaw@${build}`);
    expect(column.notes).toContain("Generation: from its package.json version 2026.10.0-dev (as 2026.10.0).");
    expect(column.capabilities.honours).toEqual(["enabled"]);
    expect(column.capabilities.guard).toBe(true);
    expect(ok.cache).toEqual([]);
    expect(ok.tmp).toEqual([]);

    // The generic repeat's critical threshold, 20 in the release, lowered to 10: its block now
    // comes without the warning that must precede it.
    const chunk = join(build, "dist", manifest!.detectorChunk);
    const source = readFileSync(chunk, "utf8");
    expect(source).toContain("const CRITICAL_THRESHOLD = 20;");
    writeFileSync(chunk, source.replace("const CRITICAL_THRESHOLD = 20;", "const CRITICAL_THRESHOLD = 10;"));
    const broken = isolated(["conform", "--target", `openclaw@file:${build}`, "--law", "warnings-come-first"]);
    expect(broken.code, broken.stderr).toBe(1);
    expect(broken.stdout).toMatch(/\| D2 \| detector order and thresholds \| \*\*FAIL\*\* \|/);
    expect(broken.stdout).toContain(`loopsim conform --target openclaw@${build} --law warnings-come-first --seed 20261202 --path `);
    expect(broken.stderr).toContain(`openclaw@file:${build} fails 1 rule`);
    expect(broken.cache).toEqual([]);
  });
});

describe("openclaw@PATH without a detector", () => {
  it("is a user error naming what was looked for, for a folder and for a tarball, whose scratch folder goes", () => {
    const dir = tempDir();
    mkdirSync(join(dir, "package", "dist"), { recursive: true });
    writeFileSync(join(dir, "package", "package.json"), JSON.stringify({ name: "openclaw", version: "2026.10.0" }));
    writeFileSync(join(dir, "package", "dist", "index.js"), "export const nothing = 1;\n");
    const folder = isolated(["trace", "/dev/null", "--target", `openclaw@${join(dir, "package")}`]);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain(`no loop detector found: no .js, .mjs or .cjs file under ${join(dir, "package", "dist")} (outside worker/) defines "function detectToolCallLoop("`);
    expect(folder.stderr).not.toMatch(/\n\s+at /);
    const tarball = join(dir, "openclaw-2026.10.0.tgz");
    expect(spawnSync("tar", ["czf", tarball, "-C", dir, "package"]).status).toBe(0);
    const packed = isolated(["trace", "/dev/null", "--target", `openclaw@${tarball}`]);
    expect(packed.code).toBe(2);
    expect(packed.stderr).toMatch(/no loop detector found: no \.js, \.mjs or \.cjs file under \S+loopsim-openclaw-build-\w+\/package\/dist/);
    expect(packed.tmp).toEqual([]);
    expect(packed.cache).toEqual([]);
    const missing = isolated(["trace", "/dev/null", "--target", `openclaw@${join(dir, "nope")}`]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no such file or folder");
  });
});
