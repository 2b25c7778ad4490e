// Where a runtime under test may write (its HOME, state folder, logs, scratch folders): inside the
// cache when the cache can be written, else a private folder in the system's tmp that goes at
// exit. A cache that is read-only (a shared CI volume, a read-only image layer, another user's
// cache) still runs every release and runtime it holds; only fetching needs to write.
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cacheRoot } from "./openclaw/cache.js";

let fallback: string | undefined;

function privateTmp(): string {
  if (fallback === undefined) {
    const dir = mkdtempSync(join(tmpdir(), "loopsim-sandbox-"));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    fallback = dir;
  }
  return fallback;
}

/** A folder named `name` in the private tmp folder that goes at exit, never in the cache. */
export function privateSandboxDir(name: string): string {
  const dir = join(privateTmp(), name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A writable folder named `name` for runtimes' files: in the cache if it can be written. */
export function sandboxDir(name: string): string {
  const inCache = join(cacheRoot(), name);
  try {
    mkdirSync(inCache, { recursive: true });
    accessSync(inCache, constants.W_OK);
    return inCache;
  } catch {
    return privateSandboxDir(name);
  }
}
