// `loopsim targets`: the built-in targets, the runtimes that run here (pinned and cached
// versions) and the releases in the cache; `loopsim targets fetch openclaw@V...` fetches releases
// and runtimes ahead of time (for CI or an offline machine). `listTargets` and `fetchTargets` print
// nothing; the command line (src/cli/program.ts) prints what they hand back.
import { UserError } from "../io/errors.js";
import { BUILT_IN_TARGETS } from "../targets/registry.js";
import { PEER_VARIANTS } from "../targets/peers/index.js";
import { CANDIDATE_TARGETS } from "../targets/candidates/index.js";
import { runtimeListing } from "../targets/runtimes/runtimeList.js";
import { candidateFormHelp, fetchableNamesHelp, printTargetRef, targetRefOf, versionText, type TargetRef } from "../targets/targetRef.js";
import { cachedReleases, cacheRoot } from "../targets/openclaw/cache.js";
import { ensureRelease, resolveReleaseSpec } from "../targets/openclaw/fetch.js";
import { loadReleaseTarget } from "../targets/openclaw/releaseTarget.js";

/** What `loopsim targets` lists, as its JSON document and its text. */
export interface TargetListing {
  readonly json: string;
  readonly text: string;
}

/**
 * The targets there are: the built-in ones, the runtimes that run here (pinned and cached
 * versions), the releases in the cache, and the forms of a build's and an adapter's name; prints
 * nothing.
 */
export function listTargets(): TargetListing {
  const releases = cachedReleases();
  const runtimes = runtimeListing();
  const builtIn = [...BUILT_IN_TARGETS, ...PEER_VARIANTS, ...CANDIDATE_TARGETS];
  const json = JSON.stringify({ builtIn: builtIn.map((t) => ({ name: t.name, summary: t.summary, breaks: t.breaks })), runtimes, cache: cacheRoot(), cachedReleases: releases.map((v) => `openclaw@${v}`) }, null, 2) + "\n";
  const width = Math.max(...builtIn.map((t) => t.name.length));
  const lines = ["built-in targets:"];
  for (const t of builtIn) lines.push(`  ${t.name.padEnd(width)}  ${t.summary}`);
  lines.push(`  any candidate setting: ${candidateFormHelp()}`);
  lines.push("", `runtimes that run here (RUNTIME@VERSION, RUNTIME@latest; driven CLIs answer whole traces: trace, scan, replay, conform --against), cache ${cacheRoot()}:`);
  const rw = Math.max(...runtimes.map((r) => r.runtime.length));
  for (const r of runtimes) {
    const cached = r.cached.length === 0 ? "none cached" : `cached ${r.cached.join(", ")}`;
    lines.push(`  ${r.runtime.padEnd(rw)}  ${r.how}, ${r.npmPackage}; reports made with ${r.pinned}; ${cached}${r.unavailable === undefined ? "" : `; n/a here: ${r.unavailable}`}`);
  }
  lines.push("", `shipped OpenClaw releases (openclaw@VERSION, openclaw@latest), cache ${cacheRoot()}:`);
  if (releases.length === 0) lines.push("  none cached yet; the first use of openclaw@V fetches it, or run: loopsim targets fetch openclaw@2026.9.6");
  for (const v of releases) lines.push(`  openclaw@${v}`);
  lines.push("", "your own OpenClaw build: --target openclaw@./my-build (a built checkout, its dist/, an unpacked package) or openclaw@./openclaw.tgz (an npm pack tarball); openclaw@file:PATH too; never cached");
  lines.push("", "your own detector: --target ./my-adapter.mjs (see examples/custom-target)");
  return { json, text: lines.join("\n") + "\n" };
}

/**
 * Fetches releases and runtimes into the cache ahead of time (for CI or an offline machine). Every
 * name is parsed, and one that names nothing to fetch refused, before anything is fetched; `ready`
 * hears each one's line as it is ready, `note` what npm is doing. Prints nothing itself.
 */
export async function fetchTargets(names: readonly string[], ready: (line: string) => void, note: (line: string) => void = () => undefined): Promise<void> {
  if (!Array.isArray(names) || names.length === 0) throw new UserError(`targets fetch needs at least one of ${fetchableNamesHelp()}`);
  // Every name parsed, and refused when it is nothing to fetch, before anything is fetched.
  const refs = names.map((name) => fetchable(targetRefOf(name, "targets fetch")));
  for (const ref of refs) {
    switch (ref.kind) {
      case "inProcessRuntime": {
        const { loadGeminiTarget } = await import("../targets/runtimes/geminiCore.js");
        const target = await loadGeminiTarget(versionText(ref.version), note);
        ready(`${target.name}: ready (${target.summary})`);
        break;
      }
      case "drivenRuntime": {
        const { fetchDrivenRuntime } = await import("../targets/runtimes/drivenRuntimes.js");
        ready(`${await fetchDrivenRuntime(ref, note)}: ready`);
        break;
      }
      case "release": {
        const version = await resolveReleaseSpec(versionText(ref.version), note);
        await ensureRelease(version, note);
        const target = await loadReleaseTarget(version, note);
        ready(`${target.name}: ready (${target.notes.at(-1) ?? ""})`);
        break;
      }
      default: {
        const unhandled: never = ref;
        throw new Error(`unhandled ${JSON.stringify(unhandled)}`);
      }
    }
  }
}

type Fetchable = Extract<TargetRef, { kind: "release" | "inProcessRuntime" | "drivenRuntime" }>;

function fetchable(ref: TargetRef): Fetchable {
  switch (ref.kind) {
    case "release":
    case "inProcessRuntime":
    case "drivenRuntime":
      return ref;
    case "reference":
    case "oracle":
    case "zoo":
    case "peer":
    case "candidate":
    case "build":
    case "adapter":
      throw new UserError(`targets fetch ${printTargetRef(ref)}: only shipped releases and runtimes are fetched (${fetchableNamesHelp()})`);
    default: {
      const unhandled: never = ref;
      throw new Error(`unhandled ${JSON.stringify(unhandled)}`);
    }
  }
}
