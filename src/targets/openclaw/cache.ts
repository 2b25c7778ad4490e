// Where shipped releases are kept: one folder per version under the cache root, holding only the
// release's package.json and dist/, the few packages its detector chunk imports, and a manifest
// written last (a folder without it is an interrupted fetch and is fetched again).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { compareReleases } from "./versions.js";

export interface ReleaseManifest {
  readonly schema: "loopsim/openclaw-release@1";
  readonly version: string;
  /** dist-relative paths of the chunks loopsim drives. */
  readonly detectorChunk: string;
  readonly guardChunk: string | null;
  /** Packages installed for the detector chunk, with the versions the release names. */
  readonly packages: Readonly<Record<string, string>>;
}

// Read once: loading a release points HOME into the cache's sandbox (silence.ts).
const USER_CACHE = join(process.env.XDG_CACHE_HOME !== undefined && process.env.XDG_CACHE_HOME !== "" ? process.env.XDG_CACHE_HOME : join(homedir(), ".cache"), "loopsim");

/** LOOPSIM_CACHE, else the user's cache directory (XDG_CACHE_HOME or ~/.cache) + /loopsim. */
export function cacheRoot(): string {
  const explicit = process.env.LOOPSIM_CACHE;
  return explicit !== undefined && explicit !== "" ? explicit : USER_CACHE;
}

export function releaseDir(version: string): string {
  return join(cacheRoot(), "openclaw", version);
}

export const MANIFEST_FILE = "loopsim-release.json";

export function readManifest(version: string): ReleaseManifest | undefined {
  const file = join(releaseDir(version), MANIFEST_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as ReleaseManifest;
    return parsed.schema === "loopsim/openclaw-release@1" && parsed.version === version ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Releases fully fetched into the cache, oldest first. */
export function cachedReleases(): string[] {
  const dir = join(cacheRoot(), "openclaw");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((v) => readManifest(v) !== undefined)
    .sort(compareReleases);
}
