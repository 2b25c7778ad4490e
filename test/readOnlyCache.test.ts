// A cache another user owns, or one on a read-only volume, still runs every release and runtime it
// holds: loading writes nothing into the cache (the runtimes' HOME and state go to a private tmp
// folder then). Run as the unprivileged user `nobody` against loopsim's own cache, which that user
// can read but not write; SKIPPED when the tests do not run as root (no other user to become) or
// the cache lacks the releases.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { cacheRoot, readManifest } from "../src/targets/openclaw/cache.js";
import { readRuntimeManifest } from "../src/targets/runtimes/packageCache.js";

const RELEASE = "2026.9.6";
const GEMINI = "0.61.0";
const NOBODY = 65534;
const root = process.getuid?.() === 0;
const haveRelease = readManifest(RELEASE) !== undefined;
const haveGemini = readRuntimeManifest("gemini-cli", GEMINI) !== undefined;
/**
 * Whether another user can reach the cache at all: every folder above it must let others through.
 * The default cache lives in HOME, and root's HOME (/root) is private, so as root without
 * LOOPSIM_CACHE the premise of these tests (a cache nobody can read but not write) does not hold.
 */
function privateParent(path: string): string | undefined {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    if (existsSync(dir) && (statSync(dir).mode & 0o001) === 0) return dir;
    if (dir === dirname(dir)) return undefined;
  }
}
const hidden = privateParent(cacheRoot());
const why = !root
  ? "the tests do not run as root, so there is no other user to read the cache as"
  : !haveRelease && !haveGemini
    ? `neither openclaw@${RELEASE} nor gemini-cli@${GEMINI} is in the cache (${cacheRoot()})`
    : hidden !== undefined
      ? `the cache (${cacheRoot()}) is inside ${hidden}, which no other user may enter; LOOPSIM_CACHE set to a folder outside it (as .ci/run does) runs these tests`
      : undefined;
if (why !== undefined) console.log(`SKIPPED: the read-only cache tests: ${why}`);

const EXAMPLE = join(import.meta.dirname, "..", "examples", "six-identical-reads.jsonl");

function traceAsNobody(target: string): { code: number | null; stdout: string; stderr: string } {
  const res = spawnSync(process.execPath, [join(import.meta.dirname, "..", "bin", "loopsim.js"), "trace", EXAMPLE, "--json", "--target", target], {
    encoding: "utf8",
    uid: NOBODY,
    gid: NOBODY,
    // A HOME nobody can write either: nothing may depend on it.
    env: { PATH: process.env.PATH ?? "", HOME: "/nonexistent", LOOPSIM_CACHE: cacheRoot(), npm_config_registry: "http://127.0.0.1:9/" },
    cwd: "/",
    timeout: 120_000,
  });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

describe.skipIf(why !== undefined)("a cache the user cannot write", () => {
  const before = existsSync(cacheRoot()) ? readdirSync(cacheRoot()).sort() : [];

  it.skipIf(!haveRelease)(`runs openclaw@${RELEASE} from it`, () => {
    const r = traceAsNobody(`openclaw@${RELEASE}`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split("\n").length).toBeGreaterThan(6);
  });

  it.skipIf(!haveGemini)(`runs gemini-cli@${GEMINI} from it`, () => {
    const r = traceAsNobody(`gemini-cli@${GEMINI}`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/"verdict":"critical"/);
  });

  it("and nothing new appears in it", () => {
    expect(existsSync(cacheRoot()) ? readdirSync(cacheRoot()).sort() : []).toEqual(before);
  });
});
