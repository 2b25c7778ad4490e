// Other runtimes' published packages in loopsim's cache, fetched once with the ordinary npm client
// and then used offline: one folder per runtime and version, a manifest written last (a folder
// without it is an interrupted fetch, fetched again), npm's own cache kept under ours so nothing
// lands in the user's ~/.npm. Interrupted fetches of earlier processes are cleaned up here.
// A question to the registry runs in the system tmp: the cache folder may not exist yet (npm
// started in a missing folder fails as if npm itself were missing).
import { tmpdir } from "node:os";
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { UserError } from "../../io/errors.js";
import { cacheRoot } from "../openclaw/cache.js";

const run = promisify(execFile);

export interface RuntimeManifest {
  readonly schema: "loopsim/runtime-package@1";
  readonly runtime: string;
  readonly version: string;
  /** What was installed: npm specs, for the report. */
  readonly installed: readonly string[];
}

const MANIFEST = "loopsim-runtime.json";

export function runtimeDir(runtime: string, version: string): string {
  return join(cacheRoot(), "runtimes", runtime, version);
}

export function readRuntimeManifest(runtime: string, version: string): RuntimeManifest | undefined {
  const file = join(runtimeDir(runtime, version), MANIFEST);
  if (!existsSync(file)) return undefined;
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as RuntimeManifest;
    return parsed.schema === "loopsim/runtime-package@1" && parsed.runtime === runtime && parsed.version === version ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Versions of a runtime fully fetched, in cache order (sorted by npm-style version). */
export function cachedRuntimeVersions(runtime: string): string[] {
  const dir = join(cacheRoot(), "runtimes", runtime);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((v) => !v.startsWith(".") && readRuntimeManifest(runtime, v) !== undefined)
    .sort(compareSemver);
}

export function compareSemver(a: string, b: string): number {
  const pa = a.split(/[.-]/).map((x) => (/^\d+$/.test(x) ? Number(x) : x));
  const pb = b.split(/[.-]/).map((x) => (/^\d+$/.test(x) ? Number(x) : x));
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === y) continue;
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (typeof x === "number" && typeof y === "number") return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

export function npmEnv(): NodeJS.ProcessEnv {
  return { ...process.env, npm_config_cache: join(cacheRoot(), "npm-cache"), npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false", npm_config_loglevel: "error" };
}

export async function npm(args: readonly string[], cwd: string): Promise<string> {
  const { stdout } = await run("npm", [...args], { cwd, env: npmEnv(), maxBuffer: 64 * 1024 * 1024, timeout: 15 * 60_000 });
  return stdout;
}

/** An npm failure about `spec` as one line a user can act on. */
export function npmProblem(spec: string, error: unknown): UserError {
  const text = `${(error as { stderr?: string }).stderr ?? ""} ${(error as Error).message ?? ""}`;
  if (/ETARGET|No matching version|E404|404 Not Found/.test(text)) return new UserError(`${spec}: no such version on the npm registry`);
  if (/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|network|socket hang up/i.test(text)) return registryUnreachable(spec);
  return otherNpmProblem(spec, text);
}

/** The registry did not answer about `name` (a runtime as `--target` names it, e.g. kilo@7.8.1). */
export class RegistryUnreachable extends UserError {}

function registryUnreachable(name: string): RegistryUnreachable {
  return new RegistryUnreachable(`${name}: the npm registry cannot be reached, and it is not in the cache (${cacheRoot()}); fetch it where the registry answers with: loopsim targets fetch ${name}`);
}

function otherNpmProblem(spec: string, text: string): UserError {
  if (/ENOENT/.test(text) && /spawn npm/.test(text)) return new UserError(`${spec}: the npm client is not on PATH`);
  return new UserError(`${spec}: npm failed: ${text.trim().split("\n").slice(-3).join(" ")}`);
}

/** The newest published version of a package, or the newest cached one when the registry is silent. */
export async function latestVersion(runtime: string, npmPackage: string, onNote: (line: string) => void): Promise<string> {
  onNote(`loopsim: asking the npm registry which version ${runtime}@latest is`);
  try {
    return (await npm(["view", npmPackage, "version", "--fetch-retries=0", "--fetch-timeout=20000"], tmpdir())).trim();
  } catch (error) {
    const newest = cachedRuntimeVersions(runtime).at(-1);
    if (newest === undefined) throw npmProblem(`${runtime}@latest`, error);
    onNote(`loopsim: the npm registry did not answer; ${runtime}@latest is the newest cached version, ${newest}`);
    return newest;
  }
}

/** Removes fetch folders left by processes that are gone (an interrupted fetch). */
export function cleanInterrupted(parent: string): void {
  if (!existsSync(parent)) return;
  for (const name of readdirSync(parent)) {
    const match = /^\.fetch-.*-(\d+)$/.exec(name);
    if (match === null) continue;
    const pid = Number(match[1]);
    if (pid !== process.pid && !processAlive(pid)) rmSync(join(parent, name), { recursive: true, force: true });
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The runtime's folder, installing it first when it is not cached. `install` fills a fresh
 * folder and returns what it installed; the folder becomes the cache entry only when it succeeds.
 */
export async function ensureRuntime(runtime: string, version: string, install: (dir: string) => Promise<readonly string[]>, onNote: (line: string) => void): Promise<string> {
  const final = runtimeDir(runtime, version);
  if (readRuntimeManifest(runtime, version) !== undefined) return final;
  const parent = join(cacheRoot(), "runtimes", runtime);
  mkdirSync(parent, { recursive: true });
  cleanInterrupted(parent);
  const tmp = join(parent, `.fetch-${version}-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const removeOnExit = () => rmSync(tmp, { recursive: true, force: true });
  process.once("exit", removeOnExit);
  try {
    onNote(`loopsim: fetching ${runtime}@${version} with npm into ${final} (once)`);
    let installed: readonly string[];
    try {
      installed = await install(tmp);
    } catch (error) {
      // npm was asked about a package (e.g. @kilocode/cli-linux-x64@7.7.7); the user names the runtime.
      if (error instanceof RegistryUnreachable) throw registryUnreachable(`${runtime}@${version}`);
      throw error;
    }
    const manifest: RuntimeManifest = { schema: "loopsim/runtime-package@1", runtime, version, installed };
    writeFileSync(join(tmp, MANIFEST), JSON.stringify(manifest, null, 2) + "\n");
    rmSync(final, { recursive: true, force: true });
    renameSync(tmp, final);
    return final;
  } finally {
    process.removeListener("exit", removeOnExit);
    rmSync(tmp, { recursive: true, force: true });
    // A first fetch that failed leaves no empty runtimes/NAME folder behind.
    if (readdirSync(parent).length === 0) rmSync(parent, { recursive: true, force: true });
    // ... nor an empty runtimes/ folder, when it was the first runtime fetched.
    const runtimes = dirname(parent);
    if (existsSync(runtimes) && readdirSync(runtimes).length === 0) rmSync(runtimes, { recursive: true, force: true });
  }
}

/** `npm install` of one package (no scripts, no dev dependencies) into `dir`. */
export async function npmInstallInto(dir: string, spec: string, extra: readonly string[] = []): Promise<void> {
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "loopsim-runtime", private: true }) + "\n");
  try {
    await npm(["install", "--ignore-scripts", "--omit=dev", "--no-package-lock", "--no-audit", "--no-fund", ...extra, spec], dir);
  } catch (error) {
    throw npmProblem(spec, error);
  }
}

/** `npm pack` of one package, unpacked under `dir/package`. */
export async function npmPackInto(dir: string, spec: string): Promise<void> {
  let tarball: string;
  try {
    tarball = (await npm(["pack", spec, "--loglevel=error"], dir)).trim().split("\n").at(-1) as string;
  } catch (error) {
    throw npmProblem(spec, error);
  }
  await run("tar", ["xzf", tarball], { cwd: dir });
  rmSync(join(dir, tarball), { force: true });
}
