// Every runtime that runs here, for `loopsim targets` and `targets outdated`: how it runs, the npm
// package its versions are published as, the version the committed reports were made with, and
// the versions in the cache. Gemini CLI runs in-process; the others are driven through their CLIs.
import { GEMINI_PACKAGE_NAME, GEMINI_PINNED } from "./geminiPin.js";
import { cachedRuntimeVersions } from "./packageCache.js";
import { drivenRuntimeVersions } from "./drivenRuntimes.js";

export interface RuntimeListing {
  readonly runtime: string;
  readonly how: "in-process" | "driven CLI";
  readonly npmPackage: string;
  readonly pinned: string;
  readonly cached: readonly string[];
  /** Why it cannot run on this machine, if it cannot. */
  readonly unavailable?: string;
}

export function runtimeListing(): RuntimeListing[] {
  return [
    { runtime: "gemini-cli", how: "in-process", npmPackage: GEMINI_PACKAGE_NAME, pinned: GEMINI_PINNED, cached: cachedRuntimeVersions("gemini-cli") },
    ...drivenRuntimeVersions().map((r) => ({ runtime: r.runtime, how: "driven CLI" as const, npmPackage: r.npmPackage, pinned: r.pinned, cached: r.cached, ...(r.unavailable === undefined ? {} : { unavailable: r.unavailable }) })),
  ];
}
