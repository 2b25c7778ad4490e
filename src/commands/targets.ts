// `loopsim targets`: the built-in targets, the runtimes that run here (pinned and cached
// versions) and the releases in the cache; `loopsim targets fetch openclaw@V...` fetches releases
// and runtimes ahead of time (for CI or an offline machine).
import { UserError } from "../io/errors.js";
import { BUILT_IN_TARGETS, isGeminiName, isReleaseName } from "../targets/registry.js";
import { PEER_VARIANTS } from "../targets/peers/index.js";
import { CANDIDATE_TARGETS } from "../targets/candidates/index.js";
import { runtimeListing } from "../targets/runtimes/runtimeList.js";
import { isDrivenRuntimeName } from "../targets/runtimes/drivenRuntimes.js";
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
  lines.push("", "your own detector: --target ./my-adapter.mjs (see examples/custom-target)");
  process.stdout.write(lines.join("\n") + "\n");
}

export async function targetsFetchCommand(names: readonly string[]): Promise<void> {
  if (names.length === 0) throw new UserError("targets fetch needs at least one openclaw@VERSION, gemini-cli@VERSION or a driven runtime (opencode@V, kilo@V, qwen-code@V)");
  for (const name of names) {
    if (!isReleaseName(name) && !isGeminiName(name) && !isDrivenRuntimeName(name)) throw new UserError(`${name}: only shipped releases and runtimes are fetched (openclaw@VERSION, gemini-cli@VERSION, opencode@VERSION, kilo@VERSION, qwen-code@VERSION, or @latest)`);
  }
  const note = (line: string) => process.stderr.write(line + "\n");
  for (const name of names) {
    if (isGeminiName(name)) {
      const { loadGeminiTarget } = await import("../targets/runtimes/geminiCore.js");
      const target = await loadGeminiTarget(name.slice("gemini-cli@".length), note);
      process.stdout.write(`${target.name}: ready (${target.summary})\n`);
      continue;
    }
    if (isDrivenRuntimeName(name)) {
      const { fetchDrivenRuntime } = await import("../targets/runtimes/drivenRuntimes.js");
      process.stdout.write(`${await fetchDrivenRuntime(name, note)}: ready\n`);
      continue;
    }
    const version = await resolveReleaseSpec(name.slice("openclaw@".length), note);
    await ensureRelease(version, note);
    const target = await loadReleaseTarget(version, note);
    process.stdout.write(`${target.name}: ready (${target.notes.at(-1) ?? ""})\n`);
  }
}
