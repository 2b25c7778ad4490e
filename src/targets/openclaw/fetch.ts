// Fetching a shipped release into the cache, once, with the ordinary npm client: `npm pack`, keep
// package.json and dist/, install the few packages the detector chunk imports at the versions the
// release names, check in a child process that the chunk imports, then write the manifest.
// Commands that do not name a release never come here, so they never touch the network.
// A question to the registry runs in the system tmp: the cache folder may not exist yet (npm
// started in a missing folder fails as if npm itself were missing).
import { tmpdir } from "node:os";
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { UserError } from "../../io/errors.js";
import { cachedReleases, cacheRoot, MANIFEST_FILE, readManifest, releaseDir, type ReleaseManifest } from "./cache.js";
import { locateChunks } from "./locate.js";
import { silencingEnv } from "./silence.js";
import { cleanInterrupted, npm } from "../runtimes/packageCache.js";
import { compareReleases, FIRST_DETECTOR_RELEASE, parseReleaseVersion } from "./versions.js";

const run = promisify(execFile);

/** An npm failure as one line a user can act on. */
function npmProblem(release: string, error: unknown): UserError {
  const text = `${(error as { stderr?: string }).stderr ?? ""} ${(error as Error).message ?? ""}`;
  if (/ETARGET|No matching version|E404|404 Not Found/.test(text)) return new UserError(`openclaw@${release}: no such release on the npm registry (list them with: npm view openclaw versions)`);
  if (/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|network|socket hang up/i.test(text)) {
    return new UserError(`openclaw@${release}: the npm registry cannot be reached, and the release is not in the cache (${cacheRoot()}); fetch it where the registry answers with: loopsim targets fetch openclaw@${release}`);
  }
  if (/ENOENT/.test(text) && /spawn npm/.test(text)) return new UserError(`openclaw@${release}: the npm client is not on PATH`);
  return new UserError(`openclaw@${release}: npm failed: ${text.trim().split("\n").slice(-3).join(" ")}`);
}

/**
 * A question to the registry, not a download: one try of at most 20 s, so an unreachable registry
 * is said in seconds (npm's own retries made it 72 s of silence).
 */
export const QUICK_QUESTION = ["--fetch-retries=0", "--fetch-timeout=20000"] as const;

/** `latest` becomes the registry's newest release, or the newest cached one when offline. */
export async function resolveReleaseSpec(spec: string, onNote: (line: string) => void): Promise<string> {
  if (spec !== "latest") {
    const parsed = parseReleaseVersion(spec);
    if (parsed === undefined) throw new UserError(`openclaw@${spec}: not a release version (expected YYYY.M.D, e.g. openclaw@2026.9.6, or openclaw@latest)`);
    if (compareReleases(spec, FIRST_DETECTOR_RELEASE) < 0) throw new UserError(`openclaw@${spec} has no loop detector: the first release with one is ${FIRST_DETECTOR_RELEASE}`);
    return spec;
  }
  onNote("loopsim: asking the npm registry which release openclaw@latest is");
  try {
    const out = await npm(["view", "openclaw", "version", ...QUICK_QUESTION], tmpdir());
    return out.trim();
  } catch (error) {
    const newest = cachedReleases().at(-1);
    if (newest === undefined) throw npmProblem("latest", error);
    onNote(`loopsim: the npm registry did not answer; openclaw@latest is the newest cached release, ${newest}`);
    return newest;
  }
}

/** The release in the cache, fetching it first when it is not there. */
export async function ensureRelease(version: string, onNote: (line: string) => void): Promise<ReleaseManifest> {
  const cached = readManifest(version);
  if (cached !== undefined) return cached;
  mkdirSync(join(cacheRoot(), "openclaw"), { recursive: true });
  // A fetch interrupted earlier (Ctrl-C, a kill) left its folder: the process is gone, so it goes.
  cleanInterrupted(join(cacheRoot(), "openclaw"));
  const tmp = join(cacheRoot(), "openclaw", `.fetch-${version}-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    onNote(`loopsim: fetching openclaw@${version} with npm into ${releaseDir(version)} (once)`);
    let tarball: string;
    try {
      tarball = (await npm(["pack", `openclaw@${version}`, "--loglevel=error"], tmp)).trim().split("\n").at(-1) as string;
    } catch (error) {
      throw npmProblem(version, error);
    }
    await run("tar", ["xzf", tarball, "package/package.json", "package/dist"], { cwd: tmp });
    rmSync(join(tmp, tarball), { force: true });
    const located = locateChunks(join(tmp, "package", "dist"));
    if (located === undefined) throw new UserError(`openclaw@${version}: layout not recognised: no chunk under dist/ defines detectToolCallLoop`);
    const packages = await installImports(version, tmp, located.detectorChunk, located.packages);
    const manifest: ReleaseManifest = { schema: "loopsim/openclaw-release@1", version, detectorChunk: located.detectorChunk, guardChunk: located.guardChunk, packages };
    writeFileSync(join(tmp, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + "\n");
    const final = releaseDir(version);
    rmSync(final, { recursive: true, force: true });
    renameSync(tmp, final);
    return manifest;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Installs what the chunk imports (next to dir/package/); a package found missing on a trial import is added and installed too. */
export async function installImports(version: string, dir: string, chunk: string, found: readonly string[]): Promise<Record<string, string>> {
  const pkg = JSON.parse(readFileSync(join(dir, "package", "package.json"), "utf8")) as { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
  const named = { ...pkg.optionalDependencies, ...pkg.dependencies };
  // A package the static scan finds but the release does not name is a dependency's dependency,
  // installed with it; the trial import says whether anything else is really missing.
  const wanted = new Set(found.filter((name) => named[name] !== undefined));
  for (let attempt = 0; attempt < 8; attempt++) {
    const deps: Record<string, string> = {};
    for (const name of [...wanted].sort()) {
      const range = named[name];
      if (range === undefined) throw new UserError(`openclaw@${version}: layout not recognised: its detector chunk imports ${name}, which its package.json does not name`);
      deps[name] = range;
    }
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `loopsim-openclaw-${version}`, private: true, dependencies: deps }, null, 2) + "\n");
    if (Object.keys(deps).length > 0) {
      try {
        await npm(["install", "--ignore-scripts", "--omit=dev", "--no-package-lock"], dir);
      } catch (error) {
        throw npmProblem(version, error);
      }
    }
    const missing = await trialImport(dir, chunk);
    if (missing === undefined) return deps;
    if (wanted.has(missing)) throw new UserError(`openclaw@${version}: ${missing} was installed but still cannot be imported`);
    wanted.add(missing);
  }
  throw new UserError(`openclaw@${version}: its detector chunk needs more packages than expected; giving up`);
}

/** Imports the chunk in a child process; returns a missing package's name, if that is what failed. */
async function trialImport(dir: string, chunk: string): Promise<string | undefined> {
  const url = pathToFileURL(join(dir, "package", "dist", chunk)).href;
  try {
    await run(process.execPath, ["--input-type=module", "-e", `await import(${JSON.stringify(url)});`], { cwd: dir, env: silencingEnv(), maxBuffer: 16 * 1024 * 1024 });
    return undefined;
  } catch (error) {
    const text = `${(error as { stderr?: string }).stderr ?? ""}`;
    const missing = /Cannot find (?:package|module) '([^']+)'/.exec(text);
    if (missing !== null && !(missing[1] as string).startsWith("/")) return (missing[1] as string).startsWith("@") ? (missing[1] as string).split("/").slice(0, 2).join("/") : (missing[1] as string).split("/")[0];
    // The error's own line, not the stack: the stack names the fetch's scratch folder (a pid in
    // its name), which would make every report that quotes this reason differ from run to run.
    const errorLine = /^\w*Error\b.*$/m.exec(text)?.[0] ?? text.trim().split("\n")[0] ?? "";
    throw new UserError(`openclaw@${chunk}: the detector chunk does not import: ${errorLine.split(pathToFileURL(dir).href).join("").split(dir).join("").trim()}`);
  }
}

export function isFetched(version: string): boolean {
  return existsSync(join(releaseDir(version), MANIFEST_FILE));
}
