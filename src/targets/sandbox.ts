// Where a runtime under test may write (its HOME, state folder, logs, scratch folders): inside the
// cache when the cache can be written, else a private folder in the system's tmp that goes at
// exit. A cache that is read-only (a shared CI volume, a read-only image layer, another user's
// cache) still runs every release and runtime it holds; only fetching needs to write.
import { accessSync, constants, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isMainThread } from "node:worker_threads";
import { cacheRoot } from "./openclaw/cache.js";

let fallback: string | undefined;

/**
 * Worker threads share the process id, so every private folder of this process, a worker's too,
 * is named after it. The MAIN thread removes them all when the process exits: a worker that is
 * terminated (tune and compare end theirs with worker.terminate()) never fires its own 'exit'.
 */
const PREFIX = `loopsim-sandbox-${process.pid}-`;

function removeThisProcessFolders(): void {
  let entries: string[];
  try {
    entries = readdirSync(tmpdir());
  } catch {
    return;
  }
  for (const entry of entries) if (entry.startsWith(PREFIX)) rmSync(join(tmpdir(), entry), { recursive: true, force: true, maxRetries: 3 });
}

// Registered when the module loads in the main thread: it loads the target (and so this module)
// before it starts any worker that could make a folder.
if (isMainThread) process.once("exit", removeThisProcessFolders);

function privateTmp(): string {
  if (fallback === undefined) {
    const dir = mkdtempSync(join(tmpdir(), PREFIX));
    // A worker that ends on its own (not terminated) removes its folder at once.
    if (!isMainThread) process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
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
