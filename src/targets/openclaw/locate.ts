// Finding the detector and the guard inside a release's dist/ by content, not by hashed file
// names: the chunk that defines `function detectToolCallLoop(` and whose static imports do not
// reach the CLI entry chunk (several copies exist in early releases), and the chunk that defines
// `function createPostCompactionLoopGuard(`.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";

const CODE_FILE = /\.(m?js|cjs)$/;

export function codeFiles(dist: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (CODE_FILE.test(entry)) out.push(path);
    }
  };
  walk(dist);
  return out;
}

const STATIC_IMPORT = /(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w*${}\s,]+?\s*from\s*)?["']([^"']+)["']/g;
const REQUIRE_CALL = /\brequire\(\s*["']([^"']+)["']\s*\)/g;

/** Static import specifiers of a chunk (plus require() calls, for createRequire loads). */
export function importsOf(source: string): { relative: string[]; bare: string[] } {
  const specs = new Set<string>();
  for (const m of source.matchAll(STATIC_IMPORT)) specs.add(m[1] as string);
  for (const m of source.matchAll(REQUIRE_CALL)) specs.add(m[1] as string);
  const rel: string[] = [];
  const bare: string[] = [];
  for (const s of specs) {
    if (s.startsWith(".") || s.startsWith("/")) rel.push(s);
    else if (!s.startsWith("node:") && !builtinModules.includes(s.split("/")[0] as string)) bare.push(s);
  }
  return { relative: rel, bare };
}

/** The package a bare specifier names: `@scope/name` or `name`. */
export function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? `${parts[0]}/${parts[1]}` : (parts[0] as string);
}

export interface ImportGraph {
  readonly files: string[];
  readonly packages: string[];
  readonly reachesEntry: boolean;
}

/** Every chunk a chunk loads statically, the packages they import, and whether entry.js is among them. */
export function importGraph(start: string): ImportGraph {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const queue = [start];
  let reachesEntry = false;
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    if (/[/\\]entry\.m?js$/.test(file)) reachesEntry = true;
    const { relative: rel, bare } = importsOf(readFileSync(file, "utf8"));
    for (const b of bare) packages.add(packageOf(b));
    for (const r of rel) queue.push(resolve(dirname(file), r));
  }
  return { files: [...seen], packages: [...packages].sort(), reachesEntry };
}

/** Worker bundles inline their own copies; the chunks the runtime uses live outside worker/. */
const IN_WORKER = /(^|[/\\])worker[/\\]/;
/** Chunk names the detector has shipped under (a tie-breaker only; content decides). */
const DETECTOR_NAME = /tool-loop-detection|before-tool-call\.runtime/;

export interface Located {
  readonly detectorChunk: string;
  readonly guardChunk: string | null;
  readonly packages: string[];
}

/** Chooses the chunks; undefined when the release has no recognisable detector. */
export function locateChunks(dist: string): Located | undefined {
  const files = codeFiles(dist).filter((f) => !IN_WORKER.test(relative(dist, f)));
  // A dist/ holds thousands of chunks (300 MB in 2026.9.6), so files are read as bytes, once, and
  // only as far as the answer needs: the chunks named like the detector first (a named chunk that
  // does not reach the entry sorts before every other candidate, so the rest need not be read),
  // and the guard's chunk is the first that defines it.
  const defines = (file: string, needle: Buffer) => readFileSync(file).includes(needle);
  const detector = Buffer.from("function detectToolCallLoop(");
  const rank = (list: string[]) =>
    list
      .filter((file) => defines(file, detector))
      .map((file) => ({ file, graph: importGraph(file), size: statSync(file).size }))
      .sort((a, b) => Number(a.graph.reachesEntry) - Number(b.graph.reachesEntry) || Number(!DETECTOR_NAME.test(b.file)) - Number(!DETECTOR_NAME.test(a.file)) || a.graph.files.length - b.graph.files.length || a.size - b.size);
  const named = rank(files.filter((f) => DETECTOR_NAME.test(f)));
  const best = named[0] !== undefined && !named[0].graph.reachesEntry ? named[0] : rank(files)[0];
  if (best === undefined) return undefined;
  const guardNeedle = Buffer.from("function createPostCompactionLoopGuard(");
  const guard = files.find((f) => defines(f, guardNeedle));
  return { detectorChunk: relative(dist, best.file), guardChunk: guard === undefined ? null : relative(dist, guard), packages: best.graph.packages };
}
