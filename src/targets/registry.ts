// Names a user can pass to `--target`: the built-in targets, every shipped OpenClaw release
// (`openclaw@VERSION`, `openclaw@latest`), a local OpenClaw build (`openclaw@PATH`), every runtime
// that runs here (`gemini-cli@V` in-process; `qwen-code@V`, `opencode@V`, `kilo@V` driven through
// their CLIs, whole traces only), and a path to a module of one's own that exports a target (see
// examples/custom-target). Built-ins resolve without touching the disk or network.
import { inputKind } from "../io/fsErrors.js";
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { UserError } from "../io/errors.js";
import { ORACLE_TARGET, REFERENCE_TARGET } from "./reference.js";
import { CONFIG_FIELDS, type Target } from "./target.js";
import { ZOO_TARGETS } from "./zoo/variants.js";
import { parameterisedPeer, PEER_TARGETS } from "./peers/index.js";
import { candidateTarget } from "./candidates/index.js";
import { readManifest } from "./openclaw/cache.js";
import { isLocalBuildSpec } from "./openclaw/localBuildSpec.js";
import { readRuntimeManifest } from "./runtimes/packageCache.js";
import { DRIVEN_RUNTIME_NAMES, isDrivenRuntimeCached, isDrivenRuntimeName } from "./runtimes/drivenRuntimes.js";

export const BUILT_IN_TARGETS: readonly Target[] = [REFERENCE_TARGET, ORACLE_TARGET, ...ZOO_TARGETS, ...PEER_TARGETS];

export function findBuiltInTarget(name: string): Target | undefined {
  return BUILT_IN_TARGETS.find((t) => t.name === name) ?? parameterisedPeer(name) ?? candidateTarget(name);
}

export function isReleaseName(name: string): boolean {
  return name.startsWith("openclaw@");
}

/** `openclaw@PATH` or `openclaw@file:PATH`: a local build, never fetched, never cached. */
export function isLocalBuildName(name: string): boolean {
  return isReleaseName(name) && isLocalBuildSpec(name.slice("openclaw@".length));
}

export function isGeminiName(name: string): boolean {
  return name.startsWith("gemini-cli@");
}

/** A runtime that runs here, by RUNTIME@VERSION: in-process or driven. */
export function isRuntimeName(name: string): boolean {
  return isGeminiName(name) || isDrivenRuntimeName(name);
}

export function isModulePath(name: string): boolean {
  return name.startsWith(".") || isAbsolute(name) || /\.(m?js|cjs)$/.test(name);
}

/** Every name `--target` accepts, for help texts and error messages. */
export function targetNamesHelp(): string {
  return `${BUILT_IN_TARGETS.map((t) => t.name).join(", ")}, goose:N, qwen-code:heuristics, candidate:failure-signature:N, candidate:no-effect:N, openclaw@VERSION, openclaw@latest, openclaw@./my-build, gemini-cli@VERSION, gemini-cli@latest, ${DRIVEN_RUNTIME_NAMES.map((r) => `${r}@VERSION`).join(", ")} (or @latest), or ./my-adapter.mjs`;
}

/**
 * Whether loading the target would fetch something with npm first: a release or runtime that is
 * not in the cache, or `@latest` (which asks the registry which version that is).
 */
export function needsFetch(name: string): boolean {
  if (findBuiltInTarget(name) !== undefined) return false;
  const version = name.slice(name.indexOf("@") + 1);
  if (isLocalBuildName(name)) return false;
  if (isReleaseName(name)) return version === "latest" || readManifest(version) === undefined;
  if (isGeminiName(name)) return version === "latest" || readRuntimeManifest("gemini-cli", version) === undefined;
  if (isDrivenRuntimeName(name)) return !isDrivenRuntimeCached(name);
  return false;
}

export async function resolveTarget(name: string): Promise<Target> {
  const builtIn = findBuiltInTarget(name);
  if (builtIn !== undefined) return builtIn;
  if (isLocalBuildName(name)) {
    const { loadLocalBuildTarget } = await import("./openclaw/localBuild.js");
    return loadLocalBuildTarget(name.slice("openclaw@".length));
  }
  if (isReleaseName(name)) {
    const { loadReleaseTarget } = await import("./openclaw/releaseTarget.js");
    return loadReleaseTarget(name.slice("openclaw@".length));
  }
  if (isGeminiName(name)) {
    const { loadGeminiTarget } = await import("./runtimes/geminiCore.js");
    return loadGeminiTarget(name.slice("gemini-cli@".length));
  }
  if (isDrivenRuntimeName(name)) {
    const { loadDrivenTarget } = await import("./runtimes/drivenRuntimes.js");
    return loadDrivenTarget(name);
  }
  if (isModulePath(name)) return loadModuleTarget(name);
  throw new UserError(`unknown target "${name}" (known: ${targetNamesHelp()})`);
}

/**
 * A target for closed-loop agents (simulate, tune, compare's agents), which need a verdict before
 * their next call: a driven CLI answers whole traces only, and is refused with the reason.
 */
export async function resolveStepwiseTarget(name: string): Promise<Target> {
  const target = await resolveTarget(name);
  if (target.wholeTrace !== undefined) {
    const { closedLoopRefusal } = await import("./runtimes/drivenTarget.js");
    throw new UserError(closedLoopRefusal(target.name));
  }
  return target;
}

/** A user's adapter: a module whose default export (or `target` export) is a Target. */
async function loadModuleTarget(path: string): Promise<Target> {
  const file = resolve(path);
  inputKind(file, "target ");
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    throw new UserError(`target ${path}: cannot be loaded (${(error as Error).message.split("\n")[0]})`);
  }
  return targetFromObject(loaded.default ?? loaded.target, path, file);
}

/**
 * An adapter object checked and completed as a target (summary, notes and breaks may be left
 * out); `label` names it in errors, `loadedFrom` is what `--target` loads it again by.
 */
export function targetFromObject(candidate: unknown, label: string, loadedFrom?: string): Target {
  const problems = checkTargetShape(candidate as Partial<Target> | undefined);
  if (problems.length > 0) throw new UserError(`target ${label}: not a loopsim target: ${problems.join("; ")}`);
  const t = candidate as Target;
  return { ...t, summary: t.summary ?? `adapter ${label}`, notes: t.notes ?? [], breaks: t.breaks ?? [], ...(loadedFrom === undefined ? {} : { loadedFrom }) };
}

function checkTargetShape(t: Partial<Target> | undefined): string[] {
  if (t === undefined || t === null || typeof t !== "object") return ["export a target object as `default` or `target`"];
  const problems: string[] = [];
  if (typeof t.name !== "string" || t.name === "") problems.push("name must be a non-empty string");
  if (typeof t.start !== "function") problems.push("start(config) must be a function returning { step(event) }");
  const c = t.capabilities;
  if (c === undefined || typeof c !== "object") problems.push("capabilities must be an object");
  else {
    for (const key of ["rollingDetectors", "warningLevel", "warningPolicy", "guard", "counts", "stateSize"] as const) {
      if (typeof c[key] !== "boolean") problems.push(`capabilities.${key} must be a boolean`);
    }
    if (!Array.isArray(c.honours) || !c.honours.every((f) => (CONFIG_FIELDS as readonly string[]).includes(f))) problems.push(`capabilities.honours must list fields of ${CONFIG_FIELDS.join(", ")}`);
    if (!Array.isArray(c.detectors)) problems.push("capabilities.detectors must be an array of names");
  }
  if (t.notes !== undefined && !Array.isArray(t.notes)) problems.push("notes must be an array of strings");
  return problems;
}
