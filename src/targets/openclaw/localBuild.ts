// `--target openclaw@PATH` (or `openclaw@file:PATH`): a maintainer's own OpenClaw build, located the
// way a shipped release is (locate.ts), driven the way a release is (releaseTarget.ts). PATH is a
// built checkout (the folder holding dist/), its dist/ itself, an unpacked package, or an `npm
// pack` tarball. Nothing is written to the cache: a tarball is unpacked, and the packages its
// detector imports installed, into a scratch folder removed at exit; the release's logging goes to
// a private sandbox. Worker threads load the target again by its path; the unpacked folder and the
// located chunks are handed to them in the environment, so a tarball is unpacked once per run.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { isMainThread } from "node:worker_threads";
import { UserError } from "../../io/errors.js";
import { inputKind } from "../../io/fsErrors.js";
import type { Target } from "../target.js";
import { generationOfBuild, featuresOf } from "./buildGeneration.js";
import { installImports } from "./fetch.js";
import { codeFiles, importGraph, locateChunks } from "./locate.js";
import { isTarballPath, printTargetRef, type TargetRef } from "../targetRef.js";
import { killDescendants } from "../../io/childProcesses.js";
import { targetFromDist } from "./releaseTarget.js";

const run = promisify(execFile);

/** Where a build was found: its package folder, its dist/, the chunks, and a scratch folder if unpacked. */
interface FoundBuild {
  readonly root: string;
  readonly dist: string;
  readonly detectorChunk: string;
  readonly guardChunk: string | null;
}

/** Located builds by absolute path, shared with worker threads through the environment. */
const SHARED = "LOOPSIM_OPENCLAW_BUILDS";

function sharedBuilds(): Record<string, FoundBuild> {
  try {
    return JSON.parse(process.env[SHARED] ?? "{}") as Record<string, FoundBuild>;
  } catch {
    return {};
  }
}

function share(path: string, found: FoundBuild): void {
  process.env[SHARED] = JSON.stringify({ ...sharedBuilds(), [path]: found });
}

const loaded = new Map<string, Promise<Target>>();

/** A build by its parsed reference (`openclaw@PATH` or `openclaw@file:PATH`), loaded once per path. */
export function loadLocalBuildTarget(ref: Extract<TargetRef, { kind: "build" }>): Promise<Target> {
  const path = resolve(ref.path);
  let promise = loaded.get(path);
  if (promise === undefined) {
    promise = load(printTargetRef(ref), ref.path, path);
    loaded.set(path, promise);
  }
  return promise;
}

async function load(name: string, spec: string, path: string): Promise<Target> {
  const known = sharedBuilds()[path];
  const found = known !== undefined && existsSync(join(known.dist, known.detectorChunk)) ? known : await find(name, path);
  if (known === undefined) share(path, found);
  const pkg = readPackage(name, found.root);
  const detectorSource = readFileSync(join(found.dist, found.detectorChunk), "utf8");
  const chosen = generationOfBuild(pkg.version, featuresOf(detectorSource, found.guardChunk !== null));
  return targetFromDist({
    name,
    loadedFrom: `openclaw@${path}`,
    label: `the OpenClaw build at ${spec}${pkg.version === undefined ? "" : ` (${pkg.version})`}`,
    dist: found.dist,
    detectorChunk: found.detectorChunk,
    guardChunk: found.guardChunk,
    generation: chosen.generation,
    extraNotes: chosen.notes,
    privateSandbox: true,
    notLoading: (why) =>
      /Cannot find (package|module) '[^./]/.test(why)
        ? `${name}: its detector chunk ${found.detectorChunk} imports a package that is not installed (${why}); install the build's dependencies first (npm install --omit=dev in ${found.root}), or give its npm pack tarball, whose packages loopsim installs in a scratch folder`
        : `${name}: its detector chunk ${found.detectorChunk} does not load (${why})`,
  });
}

/**
 * The build's package.json version. No package.json, or one without a version, is a build of no
 * known version (its generation is read from its code); a package.json that is not JSON is the
 * user's to fix, not "no version".
 */
function readPackage(name: string, root: string): { version?: string } {
  const file = join(root, "package.json");
  if (!existsSync(file)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new UserError(`${name}: ${file} is not valid JSON (${(error as Error).message.split("\n")[0]}); fix it, or remove it to load the build without a version`);
  }
  const version = (parsed as { version?: unknown } | null)?.version;
  if (version !== undefined && (typeof version !== "string" || version === "")) throw new UserError(`${name}: ${file}: "version" must be a non-empty string (got ${JSON.stringify(version)})`);
  return version === undefined ? {} : { version };
}

async function find(name: string, path: string): Promise<FoundBuild> {
  const kind = inputKind(path, `${name}: `);
  if (kind === "file") {
    if (!isTarballPath(path)) throw new UserError(`${name}: ${path} is a file but not a package tarball (.tgz, .tar.gz or .tar); give a built checkout, its dist/ folder, an unpacked package or an npm pack tarball`);
    return unpack(name, path);
  }
  const { root, dist } = distOf(name, path);
  return { root, dist, ...locateOrExplain(name, dist) };
}

/** The folder holding dist/, or dist/ itself (its parent's package.json then names the version). */
function distOf(name: string, path: string): { root: string; dist: string } {
  if (existsSync(join(path, "dist")) && inputKind(join(path, "dist")) === "folder") return { root: path, dist: join(path, "dist") };
  if (basename(path) === "dist" || codeFiles(path).length > 0) return { root: dirname(path), dist: path };
  throw new UserError(`${name}: ${path} has no dist/ folder and no code files: build the checkout first (pnpm build), or give its dist/, an unpacked package or an npm pack tarball`);
}

function locateOrExplain(name: string, dist: string): { detectorChunk: string; guardChunk: string | null } {
  const located = locateChunks(dist);
  if (located === undefined) {
    throw new UserError(`${name}: no loop detector found: no .js, .mjs or .cjs file under ${dist} (outside worker/) defines "function detectToolCallLoop(" (is it an OpenClaw build, and built?)`);
  }
  return { detectorChunk: located.detectorChunk, guardChunk: located.guardChunk };
}

/**
 * A tarball is unpacked (package.json and dist/ only, as a fetched release) into a scratch folder
 * that goes at exit, and the packages its detector chunk imports are installed next to it with npm.
 */
async function unpack(name: string, tarball: string): Promise<FoundBuild> {
  const scratch = mkdtempSync(join(tmpdir(), "loopsim-openclaw-build-"));
  removeAtExit(scratch);
  try {
    await run("tar", ["xf", tarball, "-C", scratch, "package/package.json", "package/dist"]);
  } catch (error) {
    throw new UserError(`${name}: cannot unpack ${tarball} (${((error as { stderr?: string }).stderr ?? (error as Error).message).trim().split("\n")[0]}); an npm pack tarball holds package/package.json and package/dist/`);
  }
  const root = join(scratch, "package");
  const dist = join(root, "dist");
  const chunks = locateOrExplain(name, dist);
  const packages = importGraph(join(dist, chunks.detectorChunk)).packages;
  if (packages.length > 0) await installImports(name, scratch, chunks.detectorChunk, packages);
  return { root, dist, ...chunks };
}

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * The scratch folder goes when the process (or, in a worker, the thread) ends, also on Ctrl-C or
 * SIGTERM. On a signal, tar and npm may still be writing into it: they (and whatever they
 * started) are stopped and waited for first, or the removal races them (ENOTEMPTY) and they go on
 * filling a folder no one will remove.
 */
function removeAtExit(dir: string): void {
  const remove = (): void => {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch (error) {
      process.stderr.write(`loopsim: could not remove the scratch folder ${dir}: ${(error as Error).message.split("\n")[0]}\n`);
    }
  };
  process.once("exit", remove);
  if (!isMainThread) return;
  for (const s of SIGNALS) {
    process.once(s, (signal: NodeJS.Signals) => {
      killDescendants();
      remove();
      process.exit(signal === "SIGINT" ? 130 : signal === "SIGHUP" ? 129 : 143);
    });
  }
}
