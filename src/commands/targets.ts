// `loopsim targets`: the built-in targets, the runtimes that run here (pinned and cached
// versions) and the releases in the cache; `loopsim targets fetch openclaw@V...` fetches releases
// and runtimes ahead of time (for CI or an offline machine).
import { UserError } from "../io/errors.js";
import { BUILT_IN_TARGETS } from "../targets/registry.js";
import { PEER_VARIANTS } from "../targets/peers/index.js";
import { CANDIDATE_TARGETS } from "../targets/candidates/index.js";
import { runtimeListing } from "../targets/runtimes/runtimeList.js";
import { fetchableNamesHelp, printTargetRef, targetRefOf, versionText, type TargetRef } from "../targets/targetRef.js";
import { cachedReleases, cacheRoot } from "../targets/openclaw/cache.js";
import { ensureRelease, resolveReleaseSpec } from "../targets/openclaw/fetch.js";
import { loadReleaseTarget } from "../targets/openclaw/releaseTarget.js";

export function targetsListCommand(json: boolean): void {
  const releases = cachedReleases();
  const runtimes = runtimeListing();
  const builtIn = [...BUILT_IN_TARGETS, ...PEER_VARIANTS, ...CANDIDATE_TARGETS];
  if (json) {
    process.stdout.write(JSON.stringify({ builtIn: builtIn.map((t) => ({ name: t.name, summary: t.summary, breaks: t.breaks })), runtimes, cache: cacheRoot(), cachedReleases: releases.map((v) => `openclaw@${v}`) }, null, 2) + "\n");
    return;
  }
  const width = Math.max(...builtIn.map((t) => t.name.length));
  const lines = ["built-in targets:"];
  for (const t of builtIn) lines.push(`  ${t.name.padEnd(width)}  ${t.summary}`);
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
  process.stdout.write(lines.join("\n") + "\n");
}

export async function targetsFetchCommand(names: readonly string[]): Promise<void> {
  if (names.length === 0) throw new UserError(`targets fetch needs at least one of ${fetchableNamesHelp()}`);
  // Every name parsed, and refused when it is nothing to fetch, before anything is fetched.
  const refs = names.map((name) => fetchable(targetRefOf(name, "targets fetch")));
  const note = (line: string) => process.stderr.write(line + "\n");
  for (const ref of refs) {
    switch (ref.kind) {
      case "inProcessRuntime": {
        const { loadGeminiTarget } = await import("../targets/runtimes/geminiCore.js");
        const target = await loadGeminiTarget(versionText(ref.version), note);
        process.stdout.write(`${target.name}: ready (${target.summary})\n`);
        break;
      }
      case "drivenRuntime": {
        const { fetchDrivenRuntime } = await import("../targets/runtimes/drivenRuntimes.js");
        process.stdout.write(`${await fetchDrivenRuntime(ref, note)}: ready\n`);
        break;
      }
      case "release": {
        const version = await resolveReleaseSpec(versionText(ref.version), note);
        await ensureRelease(version, note);
        const target = await loadReleaseTarget(version, note);
        process.stdout.write(`${target.name}: ready (${target.notes.at(-1) ?? ""})\n`);
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
