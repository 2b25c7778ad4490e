// `loopsim replay PATH...`: replays scenario files (or folders of them) and compares each
// timeline with the file's expectation. --update rewrites expectations, visibly; --target replays
// against another target (a bug-zoo variant, a shipped release) to show how it departs. A
// scenario recorded from a target other than the reference names it (`target`), and replays
// against it unless --target says otherwise. `planReplay` parses the arguments once, `runReplay`
// replays and writes nothing (with --update it hands back the new texts); the command line
// (src/cli/replayOutput.ts) writes and prints.
import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { UserError } from "../io/errors.js";
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
import { checkCiOutputs, type CiOutputs } from "../ci/emit.js";
import { replayCases } from "../ci/replayCases.js";

/** What every scenario of a replay runs with, as planReplay makes it. */
export interface ReplayOptions {
  /** The caller prints the results as JSON. */
  readonly json: boolean;
  /** Rewrite the expectations (runReplay hands back the new texts). */
  readonly update: boolean;
  /** Replay against this target instead of the one each scenario names. */
  readonly target?: Target;
  /** False (--no-fetch): a scenario naming a release or runtime not in the cache is skipped. */
  readonly fetch?: boolean;
  /** --junit FILE, --annotations */
  readonly ci?: CiOutputs;
}

/** One scenario file replayed: whether its timeline is the expected one, and if not, where it differs. */
export interface ReplayOutcome {
  readonly file: string;
  /** The scenario's id (null for a file that is no valid scenario). */
  readonly id: string | null;
  readonly status: "pass" | "fail" | "updated" | "invalid" | "skipped";
  /** The digest of the timeline this run gave. */
  readonly digest?: string;
  /** The digest the file expects. */
  readonly expectedDigest?: string;
  /** The timeline's difference, line by line (a failure). */
  readonly diff?: string[];
  /** What is wrong with an invalid file, or why a file was skipped. */
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

/** A file replayed: its outcome, and with --update the file's new text (written by the caller). */
interface Replayed {
  readonly outcome: ReplayOutcome;
  readonly update?: { readonly file: string; readonly text: string };
}

/** Replays one scenario file; writes nothing (with `update`, runReplay hands back the new text). */
export function replayOne(file: string, options: ReplayOptions, named: TargetsByName = new Map()): ReplayOutcome {
  return replayFile(file, options, named).outcome;
}

function replayFile(file: string, options: ReplayOptions, named: TargetsByName): Replayed {
  const done = (outcome: ReplayOutcome): Replayed => ({ outcome });
  const load = loadScenario(file, { requireExpected: !options.update });
  if (!load.ok) return done({ file, id: null, status: "invalid", problems: load.problems });
  const loaded: LoadedScenario = load.loaded;
  const { scenario } = loaded;
  const target = options.target ?? (scenario.target === undefined ? REFERENCE_TARGET : named.get(scenario.target) ?? REFERENCE_TARGET);
  const replayed = replayScenario(loaded, target);
  const digest = replayed.expected.digest;
  const expected = loaded.hasExpected ? scenario.expected : undefined;
  if (options.update) {
    if (expected?.digest === digest && JSON.stringify(expected.facts) === JSON.stringify(replayed.expected.facts)) {
      return done({ file, id: scenario.id, status: "pass", digest, expectedDigest: digest });
    }
    const updated: Scenario = { ...scenario, ...(target === REFERENCE_TARGET ? {} : { target: targetRef(target) }), expected: replayed.expected };
    const changedFacts = factChanges(expected?.facts as Record<string, unknown> | undefined, replayed.expected.facts as unknown as Record<string, unknown>);
    return { outcome: { file, id: scenario.id, status: "updated", digest, expectedDigest: expected?.digest, changedFacts }, update: { file, text: scenarioText(updated) } };
  }
  if (scenario.law !== undefined) {
    const stillBroken = recheckLaw(scenario.law, target);
    if (stillBroken !== undefined) {
      const strict = scenario.law.strict ?? "";
      const hint = strict !== (process.env.LOOPSIM_STRICT ?? "") ? ` (it was found with LOOPSIM_STRICT=${strict || "(unset)"})` : "";
      return done({ file, id: scenario.id, status: "fail", digest, expectedDigest: expected?.digest, diff: [`  law ${scenario.law.name} still fails on ${target.name}${hint}: ${stillBroken}`] });
    }
  }
  if (expected !== undefined && expected.digest === digest) return done({ file, id: scenario.id, status: "pass", digest, expectedDigest: digest });
  const diff = timelineDiff(expected?.timeline ?? [], replayed.expected.timeline);
  if (diff.length === 0) diff.push("  (same verdicts, different messages or keys; run `loopsim trace --json` on the events to compare)");
  return done({ file, id: scenario.id, status: "fail", digest, expectedDigest: expected?.digest, diff });
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
async function namedTargets(byFile: ReadonlyMap<string, string>, fetch: boolean, notice: (line: string) => void): Promise<{ targets: Map<string, Target>; notFetched: Set<string> }> {
  const names = [...new Set(byFile.values())].sort();
  const missing = names.filter(needsFetch);
  const notFetched = new Set<string>(fetch ? [] : missing);
  if (missing.length > 0) {
    const scenarios = [...byFile.values()].filter((n) => missing.includes(n)).length;
    const verb = scenarios === 1 ? "names" : "name";
    notice(
      fetch
        ? `${plural(scenarios, "scenario")} ${verb} ${missing.join(", ")}, not in the cache (${cacheRoot()}): fetching ${missing.length === 1 ? "it" : "them"} with npm once (tens of MB each); --no-fetch skips ${scenarios === 1 ? "that scenario" : "those scenarios"} instead`
        : `--no-fetch: skipping ${plural(scenarios, "scenario")} that ${verb} ${missing.join(", ")}, not in the cache (${cacheRoot()})`,
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
function onceEach(files: readonly string[]): { files: string[]; notices: string[] } {
  const seen = new Map<string, string>();
  const out: string[] = [];
  const notices: string[] = [];
  for (const file of files) {
    const key = realOrResolved(file);
    const first = seen.get(key);
    if (first !== undefined) {
      notices.push(`${file} is given twice${first === file ? "" : ` (also as ${first})`}; replaying it once`);
      continue;
    }
    seen.set(key, file);
    out.push(file);
  }
  return { files: out, notices };
}

function realOrResolved(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return resolve(file);
  }
}

/** What `loopsim replay` takes, as the command line (or a library caller) hands it over. */
export interface ReplayArgs {
  /** Scenario files (.json) or folders of them. */
  readonly paths: readonly string[];
  /** The caller prints the results as JSON. */
  readonly json?: boolean;
  /** Rewrite each expectation from what the target does now (runReplay returns the new texts; the caller writes them). */
  readonly update?: boolean;
  /** Replay against this target (a name as `--target` takes it) instead of the one each scenario names. */
  readonly target?: string;
  /** False: a scenario naming a release or runtime not in the cache is skipped, not fetched. */
  readonly fetch?: boolean;
  /** A JUnit file and/or GitHub annotations (their paths checked here). */
  readonly ci?: CiOutputs;
}

/** A parsed replay: the files (each once), the notes about files given twice, and the options. */
export interface ReplayPlan {
  readonly files: readonly string[];
  /** The paths as given (for the message when they hold no scenario). */
  readonly paths: readonly string[];
  /** Files given twice, replayed once: one line each for the caller to show. */
  readonly notices: readonly string[];
  readonly options: ReplayOptions;
}

/**
 * Parses and checks what replay is given, once, before any scenario runs: the files (each once),
 * the target (loaded), the CI outputs' paths. A bad path, an unknown target or a CI output that
 * would overwrite an input is a user error (exitCode 2) naming it.
 */
export async function planReplay(args: ReplayArgs): Promise<ReplayPlan> {
  if (args === null || typeof args !== "object" || !Array.isArray(args.paths) || !args.paths.every((p) => typeof p === "string" && p !== "")) throw new UserError("replay: paths must be a list of scenario files or folders");
  const target = args.target === undefined ? undefined : await resolveTarget(args.target);
  const { files, notices } = onceEach(scenarioFiles(args.paths));
  checkCiOutputs(args.ci, files);
  const options: ReplayOptions = { json: args.json === true, update: args.update === true, ...(target === undefined ? {} : { target }), ...(args.fetch === undefined ? {} : { fetch: args.fetch }), ...(args.ci === undefined ? {} : { ci: args.ci }) };
  return { files, paths: args.paths, notices, options };
}

/** What a replay made: each file's outcome, the counts, and with `update` each file's new text. */
export interface ReplayRun {
  readonly outcomes: readonly ReplayOutcome[];
  readonly counts: Readonly<Record<ReplayOutcome["status"], number>>;
  /** With `update`: the scenario files to rewrite, each with its new text. */
  readonly updates: readonly { readonly file: string; readonly text: string }[];
}

/**
 * Replays every file of a plan (planReplay) against its target; writes and prints nothing. The
 * targets scenarios name are loaded first (fetched once, unless `fetch` is false); `notice`
 * hears which. No scenario file at all is a user error.
 */
export async function runReplay(plan: ReplayPlan, notice: (line: string) => void = () => undefined): Promise<ReplayRun> {
  const { files, options } = plan;
  const byFile = options.target === undefined ? targetsNamed(files) : new Map<string, string>();
  const { targets: named, notFetched } = await namedTargets(byFile, options.fetch !== false, notice);
  const replayed = files.map((file): Replayed => {
    const wanted = byFile.get(file);
    if (wanted !== undefined && notFetched.has(wanted)) return { outcome: { file, id: null, status: "skipped", problems: [`needs ${wanted}, which is not in the cache (--no-fetch)`] } };
    return replayFile(file, options, named);
  });
  if (replayed.length === 0) throw new UserError(`no scenario files (*.json) under ${plan.paths.join(", ")}`);
  const outcomes = replayed.map((r) => r.outcome);
  const count = (status: ReplayOutcome["status"]) => outcomes.filter((o) => o.status === status).length;
  return {
    outcomes,
    counts: { pass: count("pass"), fail: count("fail"), updated: count("updated"), invalid: count("invalid"), skipped: count("skipped") },
    updates: replayed.flatMap((r) => (r.update === undefined ? [] : [r.update])),
  };
}

/** `replay --json`'s document. */
export function replayJson(run: ReplayRun, target: Target | undefined): string {
  const { counts } = run;
  return JSON.stringify({ target: target?.name ?? null, passed: counts.pass, failed: counts.fail, updated: counts.updated, invalid: counts.invalid, skipped: counts.skipped, scenarios: run.outcomes }, null, 2) + "\n";
}

/** replay's text report: the lines for stdout (one per file, the differences, the counts) and the invalid files' problems (for stderr). */
export function replayText(run: ReplayRun, target: Target | undefined): { readonly lines: readonly string[]; readonly problems: readonly string[] } {
  const lines: string[] = [];
  const problems: string[] = [];
  const against = target === undefined ? "" : ` (against ${target.name})`;
  for (const o of run.outcomes) {
    if (o.status === "invalid") {
      // What is wrong with an input is a diagnostic: stderr, as every other user error.
      problems.push(`INVALID ${o.file}`);
      for (const p of o.problems ?? []) problems.push(`  ${p}`);
    } else if (o.status === "fail") {
      lines.push(`${target === undefined ? "FAIL" : "DIFFERS"} ${o.file} (${o.id ?? ""})${against}`);
      lines.push(...(o.diff ?? []));
    } else if (o.status === "skipped") {
      lines.push(`SKIPPED ${o.file}: ${(o.problems ?? []).join("; ")}`);
    } else if (o.status === "updated") {
      lines.push(`UPDATED ${o.file}: expectation ${o.expectedDigest === undefined ? "recorded" : `changed ${o.expectedDigest.slice(0, 12)} -> ${o.digest?.slice(0, 12) ?? ""}`}`);
      const changed = o.changedFacts ?? [];
      if (o.expectedDigest !== undefined) lines.push(changed.length === 0 ? "  facts unchanged (messages, keys or timeline only)" : `  facts changed: ${changed.join("; ")}`);
    } else lines.push(`${target === undefined ? "PASS" : "SAME"} ${o.file}`);
  }
  const { counts } = run;
  lines.push(`${counts.pass} passed, ${counts.fail} failed${counts.updated > 0 ? `, ${counts.updated} updated` : ""}${counts.invalid > 0 ? `, ${counts.invalid} invalid` : ""}${counts.skipped > 0 ? `, ${counts.skipped} skipped (--no-fetch)` : ""}`);
  return { lines, problems };
}

/** The JUnit suite of a replay (one case per file). */
export function replaySuite(run: ReplayRun, target: Target | undefined): ReturnType<typeof replayCases> {
  return replayCases(run.outcomes, target === undefined ? undefined : targetRef(target));
}
