// A target name (what `--target`, `--targets`, `--against`, `api.loadTarget`, a scenario file or a
// report key says) parsed ONCE into a typed reference. Everything below dispatches on `kind`
// (a switch with a `never` default); no other file tests a name's form. An unknown or malformed
// name fails here, with one message that says what to write instead. `printTargetRef` turns a
// reference back into its text (replay lines, report keys); parse(print(x)) = x is a property.
import { isAbsolute } from "node:path";
import { UserError } from "../io/errors.js";
import { closest } from "../format/didYouMean.js";
import { ORACLE_TARGET, REFERENCE_TARGET } from "./reference.js";
import { ZOO_TARGETS } from "./zoo/variants.js";
import { PEER_TARGETS, PEER_VARIANTS } from "./peers/index.js";
import { DRIVEN_RUNTIME_NAMES } from "./runtimes/drivenRuntimes.js";
import { versionText, type DrivenRuntimeRef, type VersionSpec } from "./versionSpec.js";

export { versionText, type DrivenRuntimeRef, type VersionSpec };

export type TargetRef =
  | { readonly kind: "reference" }
  | { readonly kind: "oracle" }
  /** `zoo:NAME`: a bug-zoo variant (NAME without the prefix). */
  | { readonly kind: "zoo"; readonly variant: string }
  /** A peer's model by its name; `goose:N` is Goose with its limit set. */
  | { readonly kind: "peer"; readonly peer: string; readonly limit?: number }
  /** `candidate:RULE:N`: a candidate guard rule no runtime ships (branch guards, src/targets/candidates/). */
  | { readonly kind: "candidate"; readonly rule: CandidateRule; readonly times: number }
  /** `openclaw@VERSION`, `openclaw@latest`: a shipped release, fetched into the cache once. */
  | { readonly kind: "release"; readonly version: VersionSpec }
  /** `openclaw@PATH` or `openclaw@file:PATH`: a local build (folder or tarball), never cached. */
  | { readonly kind: "build"; readonly path: string; readonly via: "path" | "file" }
  /** `gemini-cli@V`: a runtime whose detector runs in this process. */
  | { readonly kind: "inProcessRuntime"; readonly runtime: InProcessRuntime; readonly version: VersionSpec }
  /** `opencode@V`, `kilo@V`, `qwen-code@V`...: a runtime driven through its CLI, whole traces only. */
  | { readonly kind: "drivenRuntime"; readonly runtime: string; readonly version: VersionSpec }
  /** A module of one's own that exports a target (a path). */
  | { readonly kind: "adapter"; readonly path: string };

export type TargetRefKind = TargetRef["kind"];

/** The candidate rules, by the names `candidate:RULE:N` takes, and the bounds of N. */
export const CANDIDATE_RULES = ["failure-signature", "no-effect", "recheck", "no-new-fact"] as const;
export type CandidateRule = (typeof CANDIDATE_RULES)[number];
export const CANDIDATE_TIMES_BOUNDS = { min: 2, max: 50 } as const;

export const IN_PROCESS_RUNTIMES = ["gemini-cli"] as const;
export type InProcessRuntime = (typeof IN_PROCESS_RUNTIMES)[number];

/** The form every runtime's exact version takes (a prerelease suffix allowed). */
const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;
const TARBALL = /\.(tgz|tar\.gz|tar)$/;
const ADAPTER_MODULE = /\.(m?js|cjs)$/;
const TYPESCRIPT_MODULE = /\.(m?ts|cts|tsx)$/;
const GOOSE_LIMIT = /^goose:([1-9]\d{0,5})$/;
const ZOO_PREFIX = "zoo:";
const CANDIDATE = /^candidate:([a-z-]+):(\d{1,3})$/;
const OPENCLAW = "openclaw";

export type TargetRefResult = { readonly ok: true; readonly ref: TargetRef } | { readonly ok: false; readonly problem: string };

/** Every driven runtime by the name before `@` (one table: drivenRuntimes.ts KINDS). */
export function drivenRuntimeNames(): readonly string[] {
  return DRIVEN_RUNTIME_NAMES;
}

/** The peers' model names (`goose:N` aside), in listing order. */
function peerNames(): string[] {
  return [...PEER_TARGETS, ...PEER_VARIANTS].map((t) => t.name);
}

/**
 * The fixed names must not overlap the forms (as zod refuses a discriminated union whose options
 * claim the same value when it is defined): a built-in name with "@", a path's leading "." or
 * "/", or a "goose:"/"candidate:" prefix would be read as another kind depending on the order of
 * the tests, and two built-ins with one name would shadow each other. Checked once, at load.
 */
function refuseOverlaps(): void {
  const fixed = [REFERENCE_TARGET.name, ORACLE_TARGET.name, ...ZOO_TARGETS.map((t) => t.name), ...peerNames()];
  const seen = new Set<string>();
  for (const name of fixed) {
    if (seen.has(name)) throw new Error(`targetRef: two built-in targets are named ${name}`);
    seen.add(name);
    if (name.includes("@") || isModulePathText(name) || GOOSE_LIMIT.test(name) || CANDIDATE.test(name)) throw new Error(`targetRef: the built-in name ${name} overlaps another form of target name`);
  }
  for (const family of [OPENCLAW, ...IN_PROCESS_RUNTIMES, ...drivenRuntimeNames()]) if (family.includes("@")) throw new Error(`targetRef: runtime ${family} has "@" in its name`);
}

/** Every name `--target` accepts, for help texts and error messages. */
/** The candidate rules' name form, built from CANDIDATE_RULES (help texts name every rule, defaults or not). */
export function candidateFormHelp(): string {
  return `candidate:RULE:N (RULE ${CANDIDATE_RULES.join(", ")}; N ${CANDIDATE_TIMES_BOUNDS.min}-${CANDIDATE_TIMES_BOUNDS.max})`;
}

export function targetNamesHelp(): string {
  const builtIn = [REFERENCE_TARGET.name, ORACLE_TARGET.name, ...ZOO_TARGETS.map((t) => t.name), ...PEER_TARGETS.map((t) => t.name)];
  return `${builtIn.join(", ")}, goose:N, ${CANDIDATE_RULES.map((r) => `candidate:${r}:N`).join(", ")}, ${PEER_VARIANTS.map((t) => t.name).join(", ")}, openclaw@VERSION, openclaw@latest, openclaw@./my-build (a folder or an npm pack tarball), ${IN_PROCESS_RUNTIMES.map((r) => `${r}@VERSION`).join(", ")}, ${drivenRuntimeNames().map((r) => `${r}@VERSION`).join(", ")} (or @latest), or ./my-adapter.mjs`;
}

/** The names `targets fetch` and `conform --against` take (releases and runtimes). */
export function fetchableNamesHelp(): string {
  return `openclaw@VERSION, ${runtimeNamesHelp()}`;
}

/** The runtimes that run here, by RUNTIME@VERSION (in-process first, then driven). */
export function runtimeNamesHelp(): string {
  return `${[...IN_PROCESS_RUNTIMES, ...drivenRuntimeNames()].map((r) => `${r}@VERSION`).join(", ")} (or @latest)`;
}

/** What a name that parses to nothing may have meant: every fixed name and each family at @latest. */
function suggestions(): string[] {
  return [REFERENCE_TARGET.name, ORACLE_TARGET.name, ...ZOO_TARGETS.map((t) => t.name), ...peerNames(), `${OPENCLAW}@latest`, ...IN_PROCESS_RUNTIMES.map((r) => `${r}@latest`), ...drivenRuntimeNames().map((r) => `${r}@latest`)];
}

/** The one message for a name that is no target. */
export function unknownTargetMessage(text: string): string {
  const families = [OPENCLAW, ...IN_PROCESS_RUNTIMES, ...drivenRuntimeNames()];
  const at = text.indexOf("@");
  // A misspelt runtime keeps its version: opencod@1.0.0 -> opencode@1.0.0.
  const family = at > 0 ? closest(text.slice(0, at), families) : undefined;
  const guess = at > 0 ? (family === undefined ? undefined : `${family}@${text.slice(at + 1)}`) : text === OPENCLAW ? `${OPENCLAW}@latest` : closest(text, suggestions());
  return `unknown target "${text}" (${guess === undefined ? "" : `did you mean "${guess}"? `}known: ${targetNamesHelp()})`;
}

function versionSpec(family: string, spec: string, example: string): VersionSpec | string {
  if (spec === "latest") return { kind: "latest" };
  if (VERSION.test(spec)) return { kind: "exact", version: spec };
  if (spec === "") return `${family}@ needs a version: ${family}@${example} or ${family}@latest`;
  return `${family}@${spec}: not a version (expected e.g. ${family}@${example}, or ${family}@latest)`;
}

/** What follows `openclaw@`: a release, or a build by path; a bare word or `~` is refused with what to write. */
function openclawRef(spec: string): TargetRef | string {
  const write = "write openclaw@VERSION (e.g. openclaw@2026.9.6), openclaw@latest, or a build's path: openclaw@./my-build (a checkout, its dist/ or an unpacked package) or openclaw@./openclaw-2026.9.6.tgz";
  if (spec === "") return `openclaw@ needs a release or a path: ${write}`;
  if (spec === "latest" || /^\d/.test(spec)) {
    const version = versionSpec(OPENCLAW, spec, "2026.9.6");
    if (typeof version !== "string") return { kind: "release", version };
    if (!isPathLike(spec)) return `openclaw@${spec}: not a release version (expected YYYY.M.D, e.g. openclaw@2026.9.6, or openclaw@latest); for a build, write its path: openclaw@./${spec}`;
  }
  if (spec.startsWith("file:")) {
    const path = spec.slice("file:".length);
    if (path === "") return `openclaw@file: names no path; write openclaw@file:./my-build for a folder, or openclaw@file:./openclaw-2026.9.6.tgz for an npm pack tarball`;
    if (path.startsWith("~")) return tildeProblem(spec, path);
    return { kind: "build", path, via: "file" };
  }
  if (spec.startsWith("~")) return tildeProblem(spec, spec);
  if (isPathLike(spec)) return { kind: "build", path: spec, via: "path" };
  return `openclaw@${spec}: not a release version (YYYY.M.D) and not a path; for a build in the folder ${spec} write openclaw@./${spec}; for a release write openclaw@VERSION (e.g. openclaw@2026.9.6) or openclaw@latest`;
}

/**
 * Node 20 cannot strip TypeScript's types, and loopsim bundles no compiler: a guard written in
 * TypeScript is built to JavaScript first, or handed over as an object through the library.
 */
function typeScriptProblem(path: string): string {
  const built = path.replace(TYPESCRIPT_MODULE, (ext) => (ext === ".cts" ? ".cjs" : ext === ".mts" ? ".mjs" : ".js"));
  return `${path}: a TypeScript module cannot be loaded by path (Node 20 does not strip types); build it first (npx tsc) and pass the built ${built}, or import it in your own test and pass the object to asTarget (see docs/guide/check-your-detector.md)`;
}

function tildeProblem(spec: string, path: string): string {
  return `openclaw@${spec}: "~" is not expanded inside a name (a shell expands it only at the start of a word); write the path out: openclaw@$HOME${path.slice(1)} (the shell expands $HOME) or an absolute path`;
}

/** An npm pack tarball by its extension (a build's path may name one). */
export function isTarballPath(path: string): boolean {
  return TARBALL.test(path);
}

function isPathLike(spec: string): boolean {
  return spec.includes("/") || spec.includes("\\") || spec.startsWith(".") || TARBALL.test(spec);
}

function isModulePathText(text: string): boolean {
  return text.startsWith(".") || isAbsolute(text) || ADAPTER_MODULE.test(text) || TYPESCRIPT_MODULE.test(text);
}

refuseOverlaps();

/** Parses a target name; never throws. */
export function parseTargetRef(text: unknown): TargetRefResult {
  if (typeof text !== "string") return { ok: false, problem: `a target name must be a string (got ${text === null ? "null" : typeof text})` };
  const ref = classify(text);
  return typeof ref === "string" ? { ok: false, problem: ref } : { ok: true, ref };
}

function classify(text: string): TargetRef | string {
  if (text.trim() === "") return `a target name is empty (known: ${targetNamesHelp()})`;
  if (text === REFERENCE_TARGET.name) return { kind: "reference" };
  if (text === ORACLE_TARGET.name) return { kind: "oracle" };
  if (text.startsWith(ZOO_PREFIX) && ZOO_TARGETS.some((t) => t.name === text)) return { kind: "zoo", variant: text.slice(ZOO_PREFIX.length) };
  if (peerNames().includes(text)) return { kind: "peer", peer: text };
  const goose = GOOSE_LIMIT.exec(text);
  if (goose !== null) return { kind: "peer", peer: "goose", limit: Number(goose[1]) };
  const candidate = CANDIDATE.exec(text);
  if (candidate !== null) {
    const rule = CANDIDATE_RULES.find((r) => r === candidate[1]);
    const times = Number(candidate[2]);
    if (rule === undefined) return `${text}: no candidate rule "${candidate[1]}" (known: ${CANDIDATE_RULES.join(", ")})`;
    if (times < CANDIDATE_TIMES_BOUNDS.min || times > CANDIDATE_TIMES_BOUNDS.max || candidate[2]?.startsWith("0") === true) return `${text}: N must be a whole number from ${CANDIDATE_TIMES_BOUNDS.min} to ${CANDIDATE_TIMES_BOUNDS.max}`;
    return { kind: "candidate", rule, times };
  }
  const at = text.indexOf("@");
  if (at > 0) {
    const family = text.slice(0, at);
    const spec = text.slice(at + 1);
    if (family === OPENCLAW) return openclawRef(spec);
    const inProcess = IN_PROCESS_RUNTIMES.find((r) => r === family);
    if (inProcess !== undefined) {
      const version = versionSpec(family, spec, "0.61.0");
      return typeof version === "string" ? version : { kind: "inProcessRuntime", runtime: inProcess, version };
    }
    if (drivenRuntimeNames().includes(family)) {
      const version = versionSpec(family, spec, "1.0.0");
      return typeof version === "string" ? version : { kind: "drivenRuntime", runtime: family, version };
    }
  }
  if (TYPESCRIPT_MODULE.test(text)) return typeScriptProblem(text);
  if (isModulePathText(text)) return { kind: "adapter", path: text };
  return unknownTargetMessage(text);
}

/**
 * Parses a target name or throws the user error; `where` names the place it came from
 * (`--target`, `loadTarget: name`, a scenario file) in front of the message.
 */
export function targetRefOf(text: unknown, where?: string): TargetRef {
  const parsed = parseTargetRef(text);
  if (!parsed.ok) throw new UserError(where === undefined ? parsed.problem : `${where}: ${parsed.problem}`);
  return parsed.ref;
}

/** A parsed name as it is passed around: the reference, or the text parsed first. */
export function asTargetRef(name: string | TargetRef, where?: string): TargetRef {
  return typeof name === "string" ? targetRefOf(name, where) : name;
}

/** The text of a reference: what `--target` takes back (replay lines, report keys). */
export function printTargetRef(ref: TargetRef): string {
  switch (ref.kind) {
    case "reference":
      return REFERENCE_TARGET.name;
    case "oracle":
      return ORACLE_TARGET.name;
    case "zoo":
      return `${ZOO_PREFIX}${ref.variant}`;
    case "peer":
      return ref.limit === undefined ? ref.peer : `${ref.peer}:${ref.limit}`;
    case "candidate":
      return `candidate:${ref.rule}:${ref.times}`;
    case "release":
      return `${OPENCLAW}@${versionText(ref.version)}`;
    case "build":
      return `${OPENCLAW}@${ref.via === "file" ? "file:" : ""}${ref.path}`;
    case "inProcessRuntime":
    case "drivenRuntime":
      return `${ref.runtime}@${versionText(ref.version)}`;
    case "adapter":
      return ref.path;
    default:
      return unreachable(ref);
  }
}

/**
 * The runtime a reference is, or models, as scenario files name runtimes: openclaw for a release
 * or a build, goose for goose:N, crewai for crewai-react. loopsim's own engines (the reference, the
 * oracle, a zoo variant) are no runtime's code: their own name, which no scenario names.
 */
export function runtimeOfRef(ref: TargetRef): string {
  switch (ref.kind) {
    case "reference":
    case "oracle":
    case "zoo":
    case "candidate":
      return printTargetRef(ref);
    case "release":
    case "build":
      return OPENCLAW;
    case "peer":
      return ref.peer === "crewai-react" ? "crewai" : ref.peer;
    case "inProcessRuntime":
    case "drivenRuntime":
      return ref.runtime;
    case "adapter":
      return ref.path;
    default:
      return unreachable(ref);
  }
}

/** The version a release or a runtime names (undefined for the others, and for @latest). */
export function versionOfRef(ref: TargetRef): string | undefined {
  switch (ref.kind) {
    case "release":
    case "inProcessRuntime":
    case "drivenRuntime":
      return ref.version.kind === "exact" ? ref.version.version : undefined;
    case "reference":
    case "oracle":
    case "zoo":
    case "peer":
    case "candidate":
    case "build":
    case "adapter":
      return undefined;
    default:
      return unreachable(ref);
  }
}

/**
 * The order targets load in: releases oldest first, after everything else (a newer release's
 * global singletons can break an older one loaded after it in the same process, never the other
 * way round seen); the others keep the order given.
 */
export function releaseLoadOrder<T>(items: readonly T[], nameOf: (item: T) => string, compareVersions: (a: string, b: string) => number): T[] {
  const releaseVersion = (item: T): string | undefined => {
    const parsed = parseTargetRef(nameOf(item));
    return parsed.ok && parsed.ref.kind === "release" ? versionText(parsed.ref.version) : undefined;
  };
  const releases = items.filter((i) => releaseVersion(i) !== undefined).sort((a, b) => compareVersions(releaseVersion(a) as string, releaseVersion(b) as string));
  return [...items.filter((i) => releaseVersion(i) === undefined), ...releases];
}

/**
 * The runtime family a name asks for before its `@` (openclaw, gemini-cli, a driven runtime),
 * whether or not what follows parses: a message about a bad version names the family.
 */
export function runtimeFamilyOf(text: string): string | undefined {
  const at = text.indexOf("@");
  if (at <= 0) return undefined;
  const family = text.slice(0, at);
  return [OPENCLAW, ...IN_PROCESS_RUNTIMES, ...drivenRuntimeNames()].includes(family) ? family : undefined;
}

/** A driven runtime's name parsed (`RUNTIME@VERSION`); any other name is a user error. */
export function drivenRuntimeRefOf(text: unknown, where?: string): Extract<TargetRef, { kind: "drivenRuntime" }> {
  const ref = targetRefOf(text, where);
  if (ref.kind !== "drivenRuntime") throw new UserError(`${where === undefined ? "" : `${where}: `}${printTargetRef(ref)}: not a driven runtime (known: ${drivenRuntimeNames().map((r) => `${r}@VERSION`).join(", ")})`);
  return ref;
}

/**
 * What follows `@` in a release's, a build's or a runtime's name (the version, `latest`, or the
 * build's path as written); the whole name for the others, and for a name that does not parse.
 */
export function versionLabelOf(name: string | TargetRef): string {
  const parsed: TargetRefResult = typeof name === "string" ? parseTargetRef(name) : { ok: true, ref: name };
  if (!parsed.ok) return name as string;
  const ref = parsed.ref;
  switch (ref.kind) {
    case "release":
    case "inProcessRuntime":
    case "drivenRuntime":
      return versionText(ref.version);
    case "build":
      return `${ref.via === "file" ? "file:" : ""}${ref.path}`;
    case "reference":
    case "oracle":
    case "zoo":
    case "peer":
    case "candidate":
    case "adapter":
      return printTargetRef(ref);
    default:
      return unreachable(ref);
  }
}

/** The shipped code a reference runs: whose runtime (a driven runtime's mode apart), and which version or build. */
export interface ShippedCode {
  /** As scenario files name runtimes: openclaw, gemini-cli, qwen-code... */
  readonly runtime: string;
  /** A driven runtime run in a mode of its own (`heuristics` of `qwen-code:heuristics`). */
  readonly mode?: string;
  /** What follows `@`: the version, `latest`, or a build's path. */
  readonly version: string;
}

/** The runtime's own code a reference runs; undefined for loopsim's models and engines and for a user's adapter. */
export function shippedCodeOf(ref: TargetRef): ShippedCode | undefined {
  switch (ref.kind) {
    case "release":
    case "build":
      return { runtime: OPENCLAW, version: versionLabelOf(ref) };
    case "inProcessRuntime":
      return { runtime: ref.runtime, version: versionLabelOf(ref) };
    case "drivenRuntime": {
      const colon = ref.runtime.indexOf(":");
      return colon < 0 ? { runtime: ref.runtime, version: versionLabelOf(ref) } : { runtime: ref.runtime.slice(0, colon), mode: ref.runtime.slice(colon + 1), version: versionLabelOf(ref) };
    }
    case "reference":
    case "oracle":
    case "zoo":
    case "peer":
    case "candidate":
    case "adapter":
      return undefined;
    default:
      return unreachable(ref);
  }
}

/** Whether a name (parsed) is of one of these kinds; false for a name that does not parse. */
/** The labels of compare's two OpenClaw rows: the reference with SPEC defaults and with loop detection enabled. */
export const OPENCLAW_ROW_LABELS = ["openclaw-default", "openclaw-enabled"] as const;

/** Whether a report row's label is OpenClaw's own (one of its two reference rows, a release or a local build): drawn in OpenClaw's colour. */
export function isOpenClawLabel(label: string): boolean {
  return (OPENCLAW_ROW_LABELS as readonly string[]).includes(label) || isRefKind(label, "release", "build");
}

export function isRefKind(name: string, ...kinds: readonly TargetRefKind[]): boolean {
  const parsed = parseTargetRef(name);
  return parsed.ok && kinds.includes(parsed.ref.kind);
}

function unreachable(value: never): never {
  throw new Error(`unhandled target reference ${JSON.stringify(value)}`);
}
