// `loopsim replay PATH...`: replays scenario files (or folders of them) and compares each
// timeline with the file's expectation. --update rewrites expectations, visibly; --target replays
// against another target (a bug-zoo variant, a shipped release) to show how it departs. A
// scenario recorded from a target other than the reference names it (`target`), and replays
// against it unless --target says otherwise.
import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { CheckFailed, UserError } from "../io/errors.js";
import { writeFileAtomic } from "../io/atomicWrite.js";
import { recheckLaw } from "../conform/lawReplay.js";
import { scenarioFiles } from "../scenario/files.js";
import { loadScenario, type LoadedScenario } from "../scenario/load.js";
import { replayScenario, timelineDiff } from "../scenario/replay.js";
import type { Scenario } from "../scenario/scenario.js";
import { scenarioText } from "../scenario/write.js";
import { plural } from "../format/words.js";
import { cacheRoot } from "../targets/openclaw/cache.js";
import { needsFetch, resolveTarget } from "../targets/registry.js";
import { REFERENCE_TARGET } from "../targets/reference.js";
import { targetRef, type Target } from "../targets/target.js";
import { checkCiOutputs, writeCiOutputs, type CiOutputs } from "../ci/emit.js";
import { replayCases } from "../ci/replayCases.js";

export interface ReplayOptions {
  readonly json: boolean;
  readonly update: boolean;
  /** Replay against this target instead of the one each scenario names. */
  readonly target?: Target;
  /** False (--no-fetch): a scenario naming a release or runtime not in the cache is skipped. */
  readonly fetch?: boolean;
  /** --junit FILE, --annotations */
  readonly ci?: CiOutputs;
}

export interface ReplayOutcome {
  readonly file: string;
  readonly id: string | null;
  readonly status: "pass" | "fail" | "updated" | "invalid" | "skipped";
  readonly digest?: string;
  readonly expectedDigest?: string;
  readonly diff?: string[];
  readonly problems?: string[];
  /** With --update: each fact that changed, as "name: old -> new". */
  readonly changedFacts?: string[];
}

/** The facts of an expectation that differ, one line each, so an update says what it changed. */
function factChanges(before: Record<string, unknown> | undefined, after: Record<string, unknown>): string[] {
  if (before === undefined) return [];
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).map((k) => `${k}: ${JSON.stringify(before[k])} -> ${JSON.stringify(after[k])}`);
}

/** Targets named by scenario files themselves, resolved once (a release loads in about a second). */
export type TargetsByName = ReadonlyMap<string, Target>;

export function replayOne(file: string, options: ReplayOptions, named: TargetsByName = new Map()): ReplayOutcome {
  const load = loadScenario(file, { requireExpected: !options.update });
  if (!load.ok) return { file, id: null, status: "invalid", problems: load.problems };
  const loaded: LoadedScenario = load.loaded;
  const { scenario } = loaded;
  const target = options.target ?? (scenario.target === undefined ? REFERENCE_TARGET : named.get(scenario.target) ?? REFERENCE_TARGET);
  const replayed = replayScenario(loaded, target);
  const digest = replayed.expected.digest;
  const expected = loaded.hasExpected ? scenario.expected : undefined;
  if (options.update) {
    if (expected?.digest === digest && JSON.stringify(expected.facts) === JSON.stringify(replayed.expected.facts)) {
      return { file, id: scenario.id, status: "pass", digest, expectedDigest: digest };
    }
    const updated: Scenario = { ...scenario, ...(target === REFERENCE_TARGET ? {} : { target: targetRef(target) }), expected: replayed.expected };
    writeFileAtomic(file, scenarioText(updated));
    const changedFacts = factChanges(expected?.facts as Record<string, unknown> | undefined, replayed.expected.facts as unknown as Record<string, unknown>);
    return { file, id: scenario.id, status: "updated", digest, expectedDigest: expected?.digest, changedFacts };
  }
  if (scenario.law !== undefined) {
    const stillBroken = recheckLaw(scenario.law, target);
    if (stillBroken !== undefined) {
      const strict = scenario.law.strict ?? "";
      const hint = strict !== (process.env.LOOPSIM_STRICT ?? "") ? ` (it was found with LOOPSIM_STRICT=${strict || "(unset)"})` : "";
      return { file, id: scenario.id, status: "fail", digest, expectedDigest: expected?.digest, diff: [`  law ${scenario.law.name} still fails on ${target.name}${hint}: ${stillBroken}`] };
    }
  }
  if (expected !== undefined && expected.digest === digest) return { file, id: scenario.id, status: "pass", digest, expectedDigest: digest };
  const diff = timelineDiff(expected?.timeline ?? [], replayed.expected.timeline);
  if (diff.length === 0) diff.push("  (same verdicts, different messages or keys; run `loopsim trace --json` on the events to compare)");
  return { file, id: scenario.id, status: "fail", digest, expectedDigest: expected?.digest, diff };
}

/** The target each file names, when it names one. */
function targetsNamed(files: readonly string[]): Map<string, string> {
  const byFile = new Map<string, string>();
  for (const file of files) {
    const load = loadScenario(file, { requireExpected: false });
    if (load.ok && load.loaded.scenario.target !== undefined) byFile.set(file, load.loaded.scenario.target);
  }
  return byFile;
}

/**
 * The targets that the files name, loaded before replaying. Releases and runtimes not in the
 * cache are said first (a folder of counterexamples can name many, each tens of megabytes), then
 * fetched once, or, with --no-fetch, left out.
 */
async function namedTargets(byFile: ReadonlyMap<string, string>, fetch: boolean): Promise<{ targets: Map<string, Target>; notFetched: Set<string> }> {
  const names = [...new Set(byFile.values())].sort();
  const missing = names.filter(needsFetch);
  const notFetched = new Set<string>(fetch ? [] : missing);
  if (missing.length > 0) {
    const scenarios = [...byFile.values()].filter((n) => missing.includes(n)).length;
    const verb = scenarios === 1 ? "names" : "name";
    process.stderr.write(
      fetch
        ? `loopsim: ${plural(scenarios, "scenario")} ${verb} ${missing.join(", ")}, not in the cache (${cacheRoot()}): fetching ${missing.length === 1 ? "it" : "them"} with npm once (tens of MB each); --no-fetch skips ${scenarios === 1 ? "that scenario" : "those scenarios"} instead\n`
        : `loopsim: --no-fetch: skipping ${plural(scenarios, "scenario")} that ${verb} ${missing.join(", ")}, not in the cache (${cacheRoot()})\n`,
    );
  }
  const targets = new Map<string, Target>();
  for (const name of names) if (!notFetched.has(name)) targets.set(name, await resolveTarget(name));
  return { targets, notFetched };
}

/**
 * Each scenario file once, in the order first given: a file named twice (or named and inside a
 * folder named, or reached by another path) would be replayed, counted and reported twice.
 */
function onceEach(files: readonly string[]): string[] {
  const seen = new Map<string, string>();
  const out: string[] = [];
  for (const file of files) {
    const key = realOrResolved(file);
    const first = seen.get(key);
    if (first !== undefined) {
      process.stderr.write(`loopsim: ${file} is given twice${first === file ? "" : ` (also as ${first})`}; replaying it once\n`);
      continue;
    }
    seen.set(key, file);
    out.push(file);
  }
  return out;
}

function realOrResolved(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return resolve(file);
  }
}

export async function replayCommand(paths: readonly string[], options: ReplayOptions): Promise<void> {
  const files = onceEach(scenarioFiles(paths));
  checkCiOutputs(options.ci, files);
  const byFile = options.target === undefined ? targetsNamed(files) : new Map<string, string>();
  const { targets: named, notFetched } = await namedTargets(byFile, options.fetch !== false);
  const outcomes = files.map((file): ReplayOutcome => {
    const wanted = byFile.get(file);
    if (wanted !== undefined && notFetched.has(wanted)) return { file, id: null, status: "skipped", problems: [`needs ${wanted}, which is not in the cache (--no-fetch)`] };
    return replayOne(file, options, named);
  });
  if (outcomes.length === 0) throw new UserError(`no scenario files (*.json) under ${paths.join(", ")}`);
  const count = (status: ReplayOutcome["status"]) => outcomes.filter((o) => o.status === status).length;
  if (options.json) {
    process.stdout.write(JSON.stringify({ target: options.target?.name ?? null, passed: count("pass"), failed: count("fail"), updated: count("updated"), invalid: count("invalid"), skipped: count("skipped"), scenarios: outcomes }, null, 2) + "\n");
  } else {
    const lines: string[] = [];
    const problems: string[] = [];
    const against = options.target === undefined ? "" : ` (against ${options.target.name})`;
    for (const o of outcomes) {
      if (o.status === "invalid") {
        // What is wrong with an input is a diagnostic: stderr, as every other user error.
        problems.push(`INVALID ${o.file}`);
        for (const p of o.problems ?? []) problems.push(`  ${p}`);
      } else if (o.status === "fail") {
        lines.push(`${options.target === undefined ? "FAIL" : "DIFFERS"} ${o.file} (${o.id ?? ""})${against}`);
        lines.push(...(o.diff ?? []));
      } else if (o.status === "skipped") {
        lines.push(`SKIPPED ${o.file}: ${(o.problems ?? []).join("; ")}`);
      } else if (o.status === "updated") {
        lines.push(`UPDATED ${o.file}: expectation ${o.expectedDigest === undefined ? "recorded" : `changed ${o.expectedDigest.slice(0, 12)} -> ${o.digest?.slice(0, 12) ?? ""}`}`);
        const changed = o.changedFacts ?? [];
        if (o.expectedDigest !== undefined) lines.push(changed.length === 0 ? "  facts unchanged (messages, keys or timeline only)" : `  facts changed: ${changed.join("; ")}`);
      } else lines.push(`${options.target === undefined ? "PASS" : "SAME"} ${o.file}`);
    }
    lines.push(`${count("pass")} passed, ${count("fail")} failed${count("updated") > 0 ? `, ${count("updated")} updated` : ""}${count("invalid") > 0 ? `, ${count("invalid")} invalid` : ""}${count("skipped") > 0 ? `, ${count("skipped")} skipped (--no-fetch)` : ""}`);
    // The details before the summary that counts them: the invalid files (stderr) are written
    // first, so a terminal showing both streams never puts "1 invalid" above what is invalid.
    if (problems.length > 0) process.stderr.write(problems.join("\n") + "\n");
    process.stdout.write(lines.join("\n") + "\n");
  }
  writeCiOutputs(options.ci, "loopsim replay", [replayCases(outcomes, options.target === undefined ? undefined : targetRef(options.target))], (c) => ({ file: outcomes.find((o) => c.name === o.file || c.name.endsWith(`(${o.file})`))?.file }));
  if (count("invalid") > 0) throw new UserError(`${count("invalid")} scenario file${count("invalid") === 1 ? " is" : "s are"} invalid (see above)`);
  const failed = count("fail");
  if (failed > 0) {
    const what = options.target === undefined ? "did not replay as expected" : `${failed === 1 ? "differs" : "differ"} under ${options.target.name}`;
    throw new CheckFailed(`${failed} scenario${failed === 1 ? "" : "s"} ${what}`);
  }
}
