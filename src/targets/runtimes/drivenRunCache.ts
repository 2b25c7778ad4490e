// Driven CLI runs kept and reused. A runtime's CLI driven through a recorded session costs seconds
// to a minute, and `compare` drives each CLI through a hundred sessions or more (about an hour for
// reports/real-loops/compare-driven), although most runs are the same run as last time: a new miner
// rule adds stretches in a few sessions and leaves the others' scripts as they were. With
// LOOPSIM_DRIVEN_RUNS=DIR, a run whose observation is in DIR is not driven again. The key is
// everything the observation depends on: the runtime with its version, the script the scripted
// model serves (every response, call, name and arg, every file written), Node's version, and the
// code the driving child runs (driveTraceMain.js and every module it imports, by content, with the
// versions of the packages it imports), so a change to how loopsim drives or observes a CLI drives
// it again. Only runs that finished are kept (a run that failed, timed out or was interrupted is
// driven again next time), and a file that cannot be read is a miss, never an error. Off by
// default: tests that check a real CLI's behaviour must run the CLI.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { UserError } from "../../io/errors.js";
import { writeFileAtomic } from "../../io/atomicWrite.js";
import type { DrivenObservation, DrivenScript } from "./drivenRuntime.js";

/** The variable that turns reuse on: a folder (made when first written). */
export const DRIVEN_RUNS_VARIABLE = "LOOPSIM_DRIVEN_RUNS";

const SCHEMA = "loopsim/driven-run@1";
const CHILD = fileURLToPath(new URL("./driveTraceMain.js", import.meta.url));

export interface DrivenRunStore {
  readonly dir: string;
  /** The observation of the same run, driven before; undefined when there is none (or it cannot be read). */
  get(runtime: string, script: DrivenScript): DrivenObservation | undefined;
  /** Keeps a finished run's observation; a run that did not finish is not kept. */
  put(runtime: string, script: DrivenScript, observed: DrivenObservation): void;
}

/** The store LOOPSIM_DRIVEN_RUNS names, or undefined when it is unset or empty. */
export function drivenRunStoreFromEnv(env: NodeJS.ProcessEnv = process.env): DrivenRunStore | undefined {
  const dir = env[DRIVEN_RUNS_VARIABLE];
  if (dir === undefined || dir === "") return undefined;
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UserError(`${DRIVEN_RUNS_VARIABLE}=${dir}: exists and is not a folder; name a folder to keep driven runs in`);
  return drivenRunStore(resolve(dir));
}

export function drivenRunStore(dir: string, codeDigest: () => string = drivingCodeDigest): DrivenRunStore {
  const fileOf = (runtime: string, script: DrivenScript) => join(dir, `${runKey(runtime, script, codeDigest())}.json`);
  return {
    dir,
    get(runtime, script) {
      const file = fileOf(runtime, script);
      if (!existsSync(file)) return undefined;
      try {
        const kept = JSON.parse(readFileSync(file, "utf8")) as { schema?: unknown; runtime?: unknown; observed?: DrivenObservation };
        return kept.schema === SCHEMA && kept.runtime === runtime && kept.observed?.ok === true ? kept.observed : undefined;
      } catch {
        return undefined;
      }
    },
    put(runtime, script, observed) {
      if (!observed.ok) return;
      writeFileAtomic(fileOf(runtime, script), `${JSON.stringify({ schema: SCHEMA, runtime, node: process.version, observed })}\n`);
    },
  };
}

/** The file name of a run: a digest of everything its observation depends on. */
export function runKey(runtime: string, script: DrivenScript, codeDigest: string): string {
  return createHash("sha256").update(JSON.stringify([SCHEMA, runtime, process.version, codeDigest, script])).digest("hex");
}

let digestOfThisBuild: string | undefined;

/**
 * The driving child's code by content: driveTraceMain.js and every module it imports, relative
 * paths followed, and for each package it imports its name and version. Read once per process.
 */
export function drivingCodeDigest(): string {
  digestOfThisBuild ??= codeDigestFrom(existsSync(CHILD) ? CHILD : CHILD.replace(/\.js$/, ".ts"));
  return digestOfThisBuild;
}

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g;

export function codeDigestFrom(entry: string): string {
  const root = dirname(entry);
  const files = new Map<string, string>();
  const packages = new Set<string>();
  const visit = (written: string) => {
    // Run from the TypeScript sources (vitest), the modules are .ts beside the .js they import.
    const file = existsSync(written) || !written.endsWith(".js") ? written : `${written.slice(0, -3)}.ts`;
    if (files.has(file)) return;
    const text = readFileSync(file, "utf8");
    files.set(file, text);
    for (const m of text.matchAll(SPECIFIER)) {
      const spec = m[1] as string;
      if (spec.startsWith(".")) visit(resolve(dirname(file), spec));
      else if (!spec.startsWith("node:")) packages.add(spec);
    }
  };
  visit(entry);
  const hash = createHash("sha256");
  for (const file of [...files.keys()].sort()) hash.update(`${relative(root, file)}\0${files.get(file) as string}\0`);
  for (const name of [...packages].sort()) hash.update(`${name}@${packageVersion(name, entry)}\0`);
  return hash.digest("hex");
}

/** A package's installed version, found the way Node finds it (node_modules upwards from `from`). */
function packageVersion(name: string, from: string): string {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    const manifest = join(dir, "node_modules", name, "package.json");
    if (existsSync(manifest)) {
      try {
        return String((JSON.parse(readFileSync(manifest, "utf8")) as { version?: unknown }).version);
      } catch {
        return "unreadable";
      }
    }
    if (dirname(dir) === dir) return "missing";
  }
}
