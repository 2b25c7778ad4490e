// The commands built on the simulator: simulate, replay, tune, merge.
import { STRETCHES_HELP } from "../grounded/stretchSource.js";
import { InvalidArgumentError, type Command } from "commander";
import { isModelPreset, type ModelPreset } from "../sim/agentModel.js";
import { FAMILY_NAMES } from "../sim/families.js";
import { configFromOptions, readConfigFile } from "../io/configFile.js";
import { LABEL_KEYS, type LabelKey } from "../sessions/recorded.js";
import { POPULATION_PRESETS } from "../evaluation/population.js";
import { DEFAULT_LENGTHS, INJECT_SHAPES } from "../grounded/injection.js";
import { DEFAULT_SESSION_REACTION, reactionSpec } from "../grounded/reaction.js";
import { DEFAULT_REACTION_GRID_SPEC } from "../grounded/reactionGrid.js";
import { DEFAULT_GRID } from "../tune/grid.js";
import type { TuneArgs } from "../commands/tune.js";
import { DEFAULT_TUNE_OUT } from "../commands/tuneDefaults.js";
import type { CompareArgs } from "../commands/compare.js";
import type { SimulationArgs } from "../commands/simulationPlan.js";
import { ZOO_VARIANTS } from "../targets/zoo/variants.js";
import { candidateFormHelp } from "../targets/targetRef.js";
import { resolveStepwiseTarget, targetNamesHelp } from "../targets/registry.js";
import { ciOutputsOf, withCiOptions } from "./ciOptions.js";
import { boundedInt, MAX_AGENTS, MAX_WORKERS, nonNegativeInt, refuseOptionConflicts, shareArg, type OptionRule } from "./options.js";
import { TARGET_HELP } from "./targetHelp.js";
import { MAX_SIMULATED_CALLS } from "../sim/simulate.js";

function familyName(value: string): string {
  if (!FAMILY_NAMES.includes(value)) throw new InvalidArgumentError(`unknown family "${value}" (known: ${FAMILY_NAMES.join(", ")})`);
  return value;
}

function modelPreset(value: string): ModelPreset {
  if (!isModelPreset(value)) throw new InvalidArgumentError(`unknown model "${value}" (known: small, flagship)`);
  return value;
}

function variantName(value: string): string {
  if (!ZOO_VARIANTS.some((v) => v.name === value)) throw new InvalidArgumentError(`unknown variant "${value}" (known: ${ZOO_VARIANTS.map((v) => v.name).join(", ")})`);
  return `zoo:${value}`;
}


function labelKey(value: string): LabelKey {
  if (!(LABEL_KEYS as readonly string[]).includes(value)) throw new InvalidArgumentError(`unknown label key "${value}" (known: ${LABEL_KEYS.join(", ")})`);
  return value as LabelKey;
}

const LABEL_RULES: readonly OptionRule[] = [
  { option: "labelKey", needs: "labels", why: "it says how the labels file names sessions" },
  { option: "labelMap", needs: "labels", why: "it maps the labels file's values" },
];
/** --agents counts simulated agents: with real sessions as the population, every session is one. */
const AGENTS_RULE: OptionRule = { option: "agents", notWith: "population", why: "with --population sessions:PATH every recorded session is an agent (leave --agents out)", when: (o) => [o.population].flat().some((p) => typeof p === "string" && p.startsWith("sessions:")) };
const POPULATION_HELP = `population: a preset (${Object.keys(POPULATION_PRESETS).join(", ")}), a JSON5 population file, or sessions:PATH (real sessions run as closed-loop agents; repeat it, --population sessions:A --population sessions:B, for sessions under several folders, each named relative to its folder as in loopsim loops A B)`;

/**
 * --population may be repeated: every value given is kept, in order (the plan parses them and
 * merges sessions:PATH roots, src/grounded/populationSpec.ts). The default is a plain string, so
 * the first value given replaces it rather than joining it.
 */
const collectPopulation = (value: string, previous: unknown): string[] => (Array.isArray(previous) ? [...(previous as string[]), value] : [value]);
const INJECT_HELP = `loops injected into real sessions run as agents: default (every shape), none, or some of ${INJECT_SHAPES.join(", ")}; @MIN-MAX sets their lengths (default @${DEFAULT_LENGTHS.min}-${DEFAULT_LENGTHS.max})`;
const LOOPS_HELP = "real: the stuck stretches mined from the sessions (loopsim loops) are stuck agents too, each guard's catch rate on them reported beside the injected shapes; injected (default): only --inject's";
const REACTION_GRID_HELP = `on real sessions, recompute the picks and rankings over a grid of reaction odds: default (${DEFAULT_REACTION_GRID_SPEC}, warnings heeded x blocks skipped), none, or HEEDxSKIP with each axis a count (5) or a list (0,0.5,1)`;
const REACTION_HELP = `how a real session run as an agent reacts: SIGNAL=GO/SKIP/END for warning, block, stop (default ${reactionSpec(DEFAULT_SESSION_REACTION)}), or fitted (to the guard interventions in those sessions, see calibrate --fit-reaction; refused when there are too few)`;

/** The two commands that share SimulationArgs. */
type SharedCommand = "tune" | "compare";
const ROWS: Readonly<Record<SharedCommand, string>> = { tune: "config", compare: "guard" };

interface OptionSpec {
  readonly flags: string;
  readonly help: (command: SharedCommand) => string;
  readonly parse?: (value: string, previous: unknown) => unknown;
  readonly defaultValue?: unknown;
}

/**
 * Every option tune and compare share, declared once, keyed by the field of SimulationArgs it
 * fills: a field added there without a decided flag does not compile.
 */
const SHARED_OPTIONS: { readonly [K in keyof Required<SimulationArgs>]: OptionSpec } = {
  population: { flags: "--population <spec>", help: () => POPULATION_HELP, parse: collectPopulation, defaultValue: "default" },
  agents: { flags: "--agents <n>", help: (c) => `simulated agents per ${ROWS[c]} (at most ${MAX_AGENTS})`, parse: boundedInt("--agents", MAX_AGENTS), defaultValue: 480 },
  seed: { flags: "--seed <n>", help: () => "seed of the population", parse: nonNegativeInt("--seed"), defaultValue: 1 },
  sessions: { flags: "--sessions <paths...>", help: (c) => `recorded sessions (files or folders) replayed open-loop under every ${ROWS[c]}${c === "tune" ? ": the report gains a recorded-sessions section" : ""}` },
  labels: { flags: "--labels <file>", help: () => "JSON map from session id to resolved or unresolved (e.g. ../shared/corpus/mini-swe-agent/labels.json with --label-key instance)" },
  labelKey: { flags: "--label-key <key>", help: () => "how the labels file names sessions: id (the session's path relative to the folder given, default), instance (file name without extensions, or the #id), file", parse: labelKey },
  labelMap: { flags: "--label-map <map>", help: () => "label values mapped to resolved or unresolved, e.g. empty_patch=unresolved,submitted=resolved" },
  strict: { flags: "--strict", help: () => "stop at the first unreadable session file (default: report it, go on, exit 1)" },
  out: { flags: "--out <dir>", help: (c) => (c === "tune" ? `output folder (default ${DEFAULT_TUNE_OUT}; with --json and no --out, nothing is written)` : "write compare.{json,md,html} here (without it, the Markdown goes to stdout)") },
  workers: { flags: "--workers <n>", help: (c) => `worker threads${c === "tune" ? ", at most one per config and core" : ""} (results are identical for any number)`, parse: boundedInt("--workers", MAX_WORKERS) },
  shard: { flags: "--shard <i/n>", help: (c) => (c === "tune" ? "compute shard I of N (or auto, auto/N: from the batch engine: Kubernetes, Slurm, GitLab, AWS Batch, LOOPSIM_SHARD_INDEX/COUNT) and write a partial result for `loopsim merge`" : "compute shard I of N of the guards (or auto, auto/N: from the batch engine) and write a partial for --merge") },
  by: { flags: "--by <what>", help: (c) => `what --shard slices: ${ROWS[c]}s (default), or sessions (each shard runs its slice of the sessions under every ${ROWS[c]})` },
  force: { flags: "--force", help: (c) => (c === "tune" ? "overwrite an existing report" : "overwrite the reports already in --out") },
  json: { flags: "--json", help: (c) => (c === "tune" ? "print report.json to stdout (no progress bar); without --out, it is only printed" : "print compare.json to stdout") },
  inject: { flags: "--inject <spec>", help: (c) => `${INJECT_HELP}${c === "tune" ? "; with --sessions, those sessions also run as agents beside the simulated population" : ""}` },
  reaction: { flags: "--reaction <spec>", help: () => REACTION_HELP },
  loops: { flags: "--loops <kind>", help: () => LOOPS_HELP },
  outcomeLabels: { flags: "--outcome-labels <files...>", help: () => "with --loops real: the datasets' own labels.json files, as published (flat or nested; `loops --labels` reads them the same), for the real-outcomes figures (resolved runs stopped)" },
  stretches: { flags: "--stretches <source>", help: () => STRETCHES_HELP },
  reactionGrid: { flags: "--reaction-grid <spec>", help: () => REACTION_GRID_HELP },
};

/** Registers the shared options on `command`, in the table's order. */
function withSharedOptions(command: Command, name: SharedCommand): Command {
  for (const spec of Object.values(SHARED_OPTIONS) as OptionSpec[]) {
    if (spec.parse !== undefined) command.option(spec.flags, spec.help(name), spec.parse, spec.defaultValue);
    else if (spec.defaultValue !== undefined) command.option(spec.flags, spec.help(name), spec.defaultValue as string);
    else command.option(spec.flags, spec.help(name));
  }
  return command;
}

/** The shared options as commander hands them over, with the flags' booleans made definite. */
function simulationArgs<T extends SimulationArgs>(opts: T): T {
  return { ...opts, force: opts.force === true, json: opts.json === true, strict: opts.strict === true };
}

export function registerSimulationCommands(program: Command): void {
  withSharedOptions(
    program
      .command("tune")
      .description("sweep configs over a simulated population or real sessions run as agents, and write a tuning report (json, md, html)")
      .option("--config <file>", "OpenClaw config whose effective block is the baseline the grid varies")
      .option("--agent <id>", "agent whose agents.list override applies")
      .option("--grid <spec>", `fields to vary, e.g. "${DEFAULT_GRID}"`)
      .option("--target <name>", TARGET_HELP),
    "tune",
  ).action(async (opts: TuneArgs, command: Command) => {
    refuseOptionConflicts(command, [...LABEL_RULES, AGENTS_RULE]);
    const { tuneCommand } = await import("./simulationOutput.js");
    await tuneCommand(simulationArgs(opts));
  });

  withSharedOptions(
    program
      .command("compare")
      .description("several loop guards (OpenClaw and other runtimes) on the same simulated agents and recorded sessions (json, md, html)")
      .option("--targets <names>", `comma-separated guards, or all (openclaw-default, openclaw-enabled, every peer); also candidates (candidate rules no runtime ships), openclaw@VERSION, zoo:NAME, goose:N, ${candidateFormHelp()}, ./adapter.mjs; a runtime's own CLI (qwen-code@V, opencode@V, kilo@V, cline@V) with --loops real only`, "all")
      .option("--merge <parts...>", "join the partials of --shard I/N into the whole report (no guard is run)")
      .option("--whole-trace-sample <n>", "with --loops real: a runtime's own CLI (e.g. qwen-code@0.24.4) runs on every session holding a stuck stretch and on a seeded sample of this many labelled sessions, on which its runs stopped rest (default 100)", nonNegativeInt("--whole-trace-sample")),
    "compare",
  ).action(async (opts: CompareArgs & { merge?: string[] }, command: Command) => {
    refuseOptionConflicts(command, [...LABEL_RULES, AGENTS_RULE]);
    const { compareCommand, mergeCompareCommand } = await import("./simulationOutput.js");
    const { merge, ...args } = simulationArgs(opts);
    if (merge !== undefined) mergeCompareCommand(merge, args.out, args.json === true, args.force === true);
    else await compareCommand(args);
  });

  program
    .command("calibrate")
    .description("the simulated population and recorded sessions side by side on the statistics a loop guard sees, with a distance for each")
    .argument("[paths...]", "recorded sessions: files or folders (any supported format); a fitted population file names its own")
    .option("--population <spec>", POPULATION_HELP, "default")
    .option("--agents <n>", `simulated agents (at most ${MAX_AGENTS})`, boundedInt("--agents", MAX_AGENTS), 480)
    .option("--seed <n>", "seed of the population", nonNegativeInt("--seed"), 1)
    .option("--out <path>", "also write calibration.{json,md} in this folder; with --fit, the fitted population file")
    .option("--fit", "fit the simulated population to the sessions (family weights and per-family parameters) and write it to --out FILE; fitted on one half, checked on the other")
    .option("--stuck-share <x>", "with --fit: the share of the population on the default's stuck families (default 0.5; 0 for the corpus's kind of work alone)", shareArg("--stuck-share"))
    .option("--inject <spec>", INJECT_HELP)
    .option("--reaction <spec>", REACTION_HELP)
    .option("--json", "print calibration.json instead of the Markdown table")
    .option("--strict", "stop at the first unreadable session file (default: report it, go on, exit 1)")
    .option("--force", "overwrite calibration.{json,md} already in --out")
    .option("--fit-reaction", "fit the reaction odds (--reaction) to what the recorded agents did after a real guard's warning, block or stop, with n and Wilson intervals; with --out, writes reaction-fit.{json,md}")
    .action(async (paths: string[], opts: { fitReaction?: boolean; population: string; agents: number; seed: number; out?: string; json?: boolean; strict?: boolean; force?: boolean; fit?: boolean; stuckShare?: number; inject?: string; reaction?: string }) => {
      const { calibrateCommand } = await import("./calibrateOutput.js");
      await calibrateCommand({ paths, ...opts });
    });

  program
    .command("fit-changing-args")
    .description("fit the changing-args loop (family changing-args-stuck, --inject changing-args) to the stretches mined from real sessions, per system; writes the parameters as JSON")
    .argument("<paths...>", "recorded sessions: files or folders (any supported format); each first folder is a system")
    .option("--out <file>", "write the parameters here (src/sim/changingArgsParams.json is the committed fit)")
    .option("--strict", "stop at the first unreadable session file (default: report it, go on, exit 1)")
    .option("--force", "overwrite --out")
    .action(async (paths: string[], opts: { out?: string; strict?: boolean; force?: boolean }) => {
      const { fitChangingArgs } = await import("../commands/fitChangingArgs.js");
      const { writeFileAtomic } = await import("../io/atomicWrite.js");
      const { failOnUnreadable } = await import("../sessions/recorded.js");
      const { normalize } = await import("node:path");
      const { text, read } = await fitChangingArgs({ paths, ...opts });
      if (opts.out === undefined) process.stdout.write(text);
      else {
        writeFileAtomic(opts.out, text);
        process.stderr.write(`loopsim: ${read.count} sessions read; wrote ${normalize(opts.out)}\n`);
      }
      failOnUnreadable(read);
    });

  program
    .command("merge")
    .description("merge the partial results of `tune --shard I/N` into the unsharded report")
    .argument("<parts...>", "partial-I-of-N.json files, one per shard, or the folder that holds them")
    .requiredOption("--out <dir>", "output folder")
    .option("--force", "overwrite an existing report")
    .option("--json", "also print report.json to stdout")
    .action(async (parts: string[], opts: { out: string; force?: boolean; json?: boolean }) => {
      const { mergeTuneCommand } = await import("./simulationOutput.js");
      mergeTuneCommand(parts, opts.out, opts.force === true, opts.json === true);
    });

  withCiOptions(program
    .command("replay"))
    .description("replay scenario files or folders and compare each timeline with its expectation")
    .argument("<paths...>", "scenario files (.json) or folders of them")
    .option("--json", "machine-readable results")
    .option("--update", "rewrite the expectations from the current reference (deliberate, printed)")
    .option("--target <name>", `replay against this target instead of the one each scenario names (${targetNamesHelp()})`)
    .option("--variant <name>", `short for --target zoo:NAME: ${ZOO_VARIANTS.map((v) => v.name).join(", ")}`, variantName)
    .option("--no-fetch", "skip scenarios that name a release or runtime not in the cache, instead of fetching it")
    .action(async (paths: string[], opts: { json?: boolean; update?: boolean; variant?: string; target?: string; fetch: boolean; junit?: string; annotations?: boolean }, command: Command) => {
      refuseOptionConflicts(command, [{ option: "variant", notWith: "target", why: "--variant NAME is short for --target zoo:NAME; give one of them" }]);
      const name = opts.target ?? opts.variant;
      const { replayCommand } = await import("./replayOutput.js");
      await replayCommand({ paths, json: opts.json === true, update: opts.update === true, ...(name === undefined ? {} : { target: name }), fetch: opts.fetch, ci: ciOutputsOf(opts) });
    });

  program
    .command("simulate")
    .description("run one closed-loop simulated agent and print its timeline like `trace`")
    .requiredOption("--family <name>", `behaviour family: ${FAMILY_NAMES.join(", ")}`, familyName)
    .requiredOption("--seed <n>", "seed that drives every random choice", nonNegativeInt("--seed"))
    .option("--model <preset>", "reaction preset: small or flagship", modelPreset, "small" as ModelPreset)
    .option("--config <file>", "OpenClaw config file (JSON or JSON5)")
    .option("--agent <id>", "agent whose agents.list override applies")
    .option("--calls <n>", `calls the agent may attempt (at most ${MAX_SIMULATED_CALLS})`, boundedInt("--calls", MAX_SIMULATED_CALLS), 80)
    .option("--json", "one JSON object per event, as `trace --json`")
    .option("--emit-trace <file>", "also write the event stream as JSONL (replay it with `trace`)")
    .option("--target <name>", TARGET_HELP, "reference")
    .option("--emit-scenario <file>", "also write a scenario file that replays this simulation")
    .action(async (opts: { family: string; seed: number; model: ModelPreset; config?: string; agent?: string; calls: number; json?: boolean; emitTrace?: string; emitScenario?: string; target: string }) => {
      const config = configFromOptions(opts.config, opts.agent);
      const target = await resolveStepwiseTarget(opts.target);
      const { runSimulation } = await import("../commands/simulate.js");
      const run = runSimulation({ family: opts.family, seed: opts.seed, model: opts.model, calls: opts.calls, config, json: opts.json === true, emitTrace: opts.emitTrace, target, emitScenario: opts.emitScenario === undefined ? undefined : { file: opts.emitScenario, rawConfig: opts.config === undefined ? {} : readConfigFile(opts.config), agent: opts.agent } });
      const { writeFileAtomic } = await import("../io/atomicWrite.js");
      if (opts.emitTrace !== undefined) writeFileAtomic(opts.emitTrace, run.trace);
      if (run.scenario !== undefined) writeFileAtomic(run.scenario.file, run.scenario.text);
      const { writePieces } = await import("../io/spool.js");
      await writePieces(process.stdout, [run.lines.join("\n") + "\n"]);
    });
}
