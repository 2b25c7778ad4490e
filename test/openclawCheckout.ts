// A "local checkout" of a cached OpenClaw release, for tests of `--target openclaw@PATH`: the
// release's package.json, the detector chunk with every chunk it imports and the guard's chunk,
// and its installed packages (linked). Not all of dist/ (300 MB, 7,000 chunks, most of a minute
// to copy): those chunks are all that loopsim reads or loads, so the locator still searches a
// dist/ of hundreds of chunks.
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { readManifest, releaseDir } from "../src/targets/openclaw/cache.js";
import { importGraph } from "../src/targets/openclaw/locate.js";
import { tempDir } from "./cli/run.js";

/** The checkout's folder; `version` replaces the package.json version when given. */
export function localCheckout(release: string, version?: string): string {
  const manifest = readManifest(release);
  if (manifest === undefined) throw new Error(`openclaw@${release} is not in the cache`);
  const from = join(releaseDir(release), "package");
  const dist = join(from, "dist");
  const root = join(tempDir(), "openclaw");
  const files = new Set(importGraph(join(dist, manifest.detectorChunk)).files);
  if (manifest.guardChunk !== null) files.add(join(dist, manifest.guardChunk));
  for (const file of files) {
    const to = join(root, "dist", relative(dist, file));
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(file, to);
  }
  const pkg = JSON.parse(readFileSync(join(from, "package.json"), "utf8")) as Record<string, unknown>;
  writeFileSync(join(root, "package.json"), JSON.stringify(version === undefined ? pkg : { ...pkg, version }, null, 2));
  // A checkout has its dependencies installed; the release's cached packages stand in for them.
  symlinkSync(join(releaseDir(release), "node_modules"), join(root, "node_modules"));
  return root;
}
