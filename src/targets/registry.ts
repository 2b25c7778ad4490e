// Loading what a target name names: the built-in targets, every shipped OpenClaw release
// (`openclaw@VERSION`, `openclaw@latest`), a local OpenClaw build (`openclaw@PATH`), every runtime
// that runs here (`gemini-cli@V` in-process; the driven CLIs, whole traces only), and a path to a
// module of one's own that exports a target (see examples/custom-target). The name is parsed once,
// by targetRef.ts; here each kind is loaded, in a switch on it. Built-ins resolve without touching
// the disk or network.
import { inputKind } from "../io/fsErrors.js";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { UserError } from "../io/errors.js";
import { ORACLE_TARGET, REFERENCE_TARGET } from "./reference.js";
import { CONFIG_FIELDS, type Target } from "./target.js";
import { ZOO_TARGETS } from "./zoo/variants.js";
import { PEER_TARGETS, PEER_VARIANTS } from "./peers/index.js";
import { gooseTarget } from "./peers/goose.js";
import { candidateTarget } from "./candidates/index.js";
import { readManifest } from "./openclaw/cache.js";
import { readRuntimeManifest } from "./runtimes/packageCache.js";
import { isDrivenRuntimeCached } from "./runtimes/drivenRuntimes.js";
import { asTargetRef, parseTargetRef, runtimeOfRef, printTargetRef, unknownTargetMessage, versionText, type TargetRef } from "./targetRef.js";

/** The targets that load without the disk or the network: the reference, the oracle, the bug zoo and the peers' models. */
export const BUILT_IN_TARGETS: readonly Target[] = [REFERENCE_TARGET, ORACLE_TARGET, ...ZOO_TARGETS, ...PEER_TARGETS];

export { targetNamesHelp } from "./targetRef.js";

/** The built-in target a reference names, or undefined when it names something to load. */
export function builtInTargetOf(ref: TargetRef): Target | undefined {
  switch (ref.kind) {
    case "reference":
      return REFERENCE_TARGET;
    case "oracle":
      return ORACLE_TARGET;
    case "zoo":
    case "peer": {
      if (ref.kind === "peer" && ref.limit !== undefined) return gooseTarget(ref.limit);
      const name = printTargetRef(ref);
      return [...BUILT_IN_TARGETS, ...PEER_VARIANTS].find((t) => t.name === name);
    }
    case "candidate":
      return candidateTarget(ref.rule, ref.times);
    case "release":
    case "build":
    case "inProcessRuntime":
    case "drivenRuntime":
    case "adapter":
      return undefined;
    default:
      return unreachable(ref);
  }
}

/** A built-in target by name (`goose:N` too); undefined for any other name, parsed or not. */
export function findBuiltInTarget(name: string): Target | undefined {
  const parsed = parseTargetRef(name);
  return parsed.ok ? builtInTargetOf(parsed.ref) : undefined;
}

/**
 * Whether loading the target would fetch something with npm first: a release or runtime that is
 * not in the cache, or `@latest` (which asks the registry which version that is).
 */
export function needsFetch(name: string | TargetRef): boolean {
  const ref = asTargetRef(name);
  switch (ref.kind) {
    case "release":
      return ref.version.kind === "latest" || readManifest(ref.version.version) === undefined;
    case "inProcessRuntime":
      return ref.version.kind === "latest" || readRuntimeManifest(ref.runtime, ref.version.version) === undefined;
    case "drivenRuntime":
      return !isDrivenRuntimeCached(ref);
    case "reference":
    case "oracle":
    case "zoo":
    case "peer":
    case "candidate":
    case "build":
    case "adapter":
      return false;
    default:
      return unreachable(ref);
  }
}

/** Loads the target a name or reference names; an unknown name is a user error (exit 2) here, once. */
export async function resolveTarget(name: string | TargetRef): Promise<Target> {
  const ref = asTargetRef(name);
  switch (ref.kind) {
    case "reference":
    case "oracle":
    case "zoo":
    case "peer":
    case "candidate": {
      const builtIn = builtInTargetOf(ref);
      if (builtIn === undefined) throw new UserError(ref.kind === "candidate" ? `${printTargetRef(ref)}: the candidate guard rules are not in this build` : unknownTargetMessage(printTargetRef(ref)));
      return builtIn;
    }
    case "build": {
      const { loadLocalBuildTarget } = await import("./openclaw/localBuild.js");
      return loadLocalBuildTarget(ref);
    }
    case "release": {
      const { loadReleaseTarget } = await import("./openclaw/releaseTarget.js");
      return loadReleaseTarget(versionText(ref.version));
    }
    case "inProcessRuntime": {
      const { loadGeminiTarget } = await import("./runtimes/geminiCore.js");
      return loadGeminiTarget(versionText(ref.version));
    }
    case "drivenRuntime": {
      const { loadDrivenTarget } = await import("./runtimes/drivenRuntimes.js");
      return loadDrivenTarget(ref);
    }
    case "adapter":
      return loadModuleTarget(ref.path);
    default:
      return unreachable(ref);
  }
}

function unreachable(value: never): never {
  throw new Error(`unhandled target reference ${JSON.stringify(value)}`);
}

/**
 * A target for closed-loop agents (simulate, tune, compare's agents), which need a verdict before
 * their next call: a driven CLI answers whole traces only, and is refused with the reason.
 */
export async function resolveStepwiseTarget(name: string): Promise<Target> {
  const ref = asTargetRef(name);
  const target = await resolveTarget(ref);
  if (target.wholeTrace !== undefined) {
    const { closedLoopRefusal } = await import("./runtimes/drivenTarget.js");
    throw new UserError(closedLoopRefusal(target.name, runtimeOfRef(ref)));
  }
  return target;
}

/** A user's adapter: a module whose default export (or `target` export) is a Target. */
async function loadModuleTarget(path: string): Promise<Target> {
  const file = resolve(path);
  // A folder would reach Node's own ERR_UNSUPPORTED_DIR_IMPORT wording: say what to give instead.
  if (inputKind(file, "target ") === "folder") throw new UserError(`target ${path}: is a folder; give the adapter module itself (a .mjs or .js file whose default or \`target\` export is a target; see examples/custom-target), or openclaw@${path} for an OpenClaw build`);
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

/** What an object lacks to be a target (empty when it is one). */
export function checkTargetShape(t: Partial<Target> | undefined): string[] {
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
