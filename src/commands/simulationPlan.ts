// What tune and compare share before they run anything: the options they both take, as the
// command line (or a library caller) hands them over, and the part of each command's plan that is
// parsed from them once: labels read, the shard and what it slices, a fitted reaction resolved,
// and the output folder checked. `planTune` and `planCompare` build on it, so a library caller
// gets every check the command line makes.
import { parseStretchSource, type StretchSource } from "../grounded/stretchSource.js";
import { availableParallelism } from "node:os";
import { UserError } from "../io/errors.js";
import { MAX_AGENTS, MAX_WORKERS } from "../io/limits.js";
import { parseShard, type Shard } from "../io/shardSpec.js";
import { refuseOverwrite } from "../io/overwrite.js";
import { checkOutputDir } from "../io/writable.js";
import { loadLabels, parseLabelMap, type LabelKey, type Labels } from "../sessions/recorded.js";
import { resolveFittedReaction } from "./calibrateReaction.js";
import { refuseOverlappingRoots } from "../io/distinctRoots.js";
import { parsePopulationArg, type PopulationSpec } from "../grounded/populationSpec.js";

/** The options tune and compare both take, as strings and numbers, before any is parsed. */
export interface SimulationArgs {
  /**
   * A preset, a population file, or sessions:PATH (real sessions run as agents); a list of
   * sessions:PATH (the flag repeated) runs the sessions under every root, each named relative to its root.
   */
  readonly population: string | readonly string[];
  /** Simulated agents per config or guard. */
  readonly agents: number;
  readonly seed: number;
  /** Recorded sessions replayed open-loop under every config or guard. */
  readonly sessions?: readonly string[];
  /** A JSON map from session to resolved or unresolved. */
  readonly labels?: string;
  /** How the labels file's keys name sessions (id: the session's path; instance; file). */
  readonly labelKey?: LabelKey;
  /** Label values mapped to resolved or unresolved: `empty_patch=unresolved,...`. */
  readonly labelMap?: string;
  /** Stop at the first unreadable session file. */
  readonly strict?: boolean;
  /** Worker threads (the results are the same for any number). */
  readonly workers?: number;
  /** I/N, auto or auto/N: compute one shard and write a partial. */
  readonly shard?: string;
  /** What --shard slices: the rows (configs for tune, guards for compare; the default) or sessions. */
  readonly by?: string;
  /** Loops injected into real sessions run as agents (src/grounded/injection.ts): default, none, shapes. */
  readonly inject?: string;
  /** How a real session run as an agent reacts to warnings, blocks and stops; `fitted` is resolved by the plan. */
  readonly reaction?: string;
  /** `real`: the stuck stretches mined from the sessions are stuck agents too. */
  readonly loops?: string;
  /** The datasets' own labels files (as published), for the real-outcomes figures of --loops real. */
  readonly outcomeLabels?: readonly string[];
  /** Where the real-outcomes figures take their stretches from: mined (default), read:FILE or held-out:FILE (src/grounded/stretchSource.ts). */
  readonly stretches?: string;
  /** Reaction models the picks and rankings are recomputed under (src/grounded/reactionGrid.ts): default, none, HEEDxSKIP. */
  readonly reactionGrid?: string;
  /** Output folder; without it, tune --json and compare print instead of writing. */
  readonly out?: string;
  /** Overwrite the reports already in `out`. */
  readonly force?: boolean;
  /** Print the report's JSON to stdout. */
  readonly json?: boolean;
}

/** The shared options, parsed: what tune and compare both run with. */
export interface GroundingPlan {
  /** The arguments as given, but with `--reaction fitted` resolved to the odds it stands for (the reproduce line quotes these). */
  readonly args: SimulationArgs;
  /** --population, parsed (several sessions:PATH merged into one list of roots). */
  readonly population: PopulationSpec;
  readonly labels?: Labels;
  /** --stretches, parsed: the miner's stretches (the default) or those people read. */
  readonly stretchSource: StretchSource;
  readonly shard?: Shard;
  /** The shard slices the sessions (`--by sessions`), not the rows. */
  readonly bySessions: boolean;
  readonly workers: number;
  readonly strict: boolean;
  readonly force: boolean;
  readonly json: boolean;
}

function refuseOutOfRange(name: string, value: number, min: number, max: number): void {
  if (!Number.isSafeInteger(value) || value < min || value > max) throw new UserError(`--${name} must be a whole number from ${min} to ${max} (got ${String(value)})`);
}

/** What a command calls its rows: the word `--by` takes for them. */
export type RowsWord = "configs" | "guards";

/**
 * Parses the shared options once, and refuses what cannot run (labels without sessions, a `--by`
 * neither the rows nor sessions, an output folder that cannot be written or holds a report).
 * `outputs` are the files the run would write into `out`; `fitFrom` are the sessions a fitted
 * reaction is fitted to besides sessions:PATH (tune's --sessions).
 */
export async function planGrounding(args: SimulationArgs, rows: RowsWord, outputs: (shard: Shard | undefined) => readonly string[], fitFrom: readonly string[] | undefined): Promise<GroundingPlan> {
  // The command line's parsers check these too; a library caller hands numbers over directly.
  refuseOutOfRange("agents", args.agents, 1, MAX_AGENTS);
  refuseOutOfRange("seed", args.seed, 0, Number.MAX_SAFE_INTEGER);
  if (args.workers !== undefined) refuseOutOfRange("workers", args.workers, 1, MAX_WORKERS);
  // The command line refuses these by its option rules too (src/cli/simulationCommands.ts); a library caller meets them here.
  if (args.labelKey !== undefined && args.labels === undefined) throw new UserError("--label-key needs --labels: it says how the labels file names sessions");
  if (args.labelMap !== undefined && args.labels === undefined) throw new UserError("--label-map needs --labels: it maps the labels file's values");
  const population = parsePopulationArg(args.population);
  if (args.sessions !== undefined) refuseOverlappingRoots(args.sessions, (p) => `--sessions ${p}`);
  if (args.labels !== undefined && args.sessions === undefined && population.kind !== "sessions") throw new UserError("--labels needs --sessions PATH... or --population sessions:PATH");
  if (args.outcomeLabels !== undefined && args.loops !== "real") throw new UserError("--outcome-labels labels the real-outcomes figures of --loops real; add --loops real");
  if (args.stretches !== undefined && args.loops !== "real") throw new UserError("--stretches chooses the stuck stretches of the real-outcomes figures of --loops real; add --loops real");
  if (args.by !== undefined && args.by !== rows && args.by !== "sessions") throw new UserError(`--by ${args.by}: expected ${rows} or sessions`);
  const shard = args.shard === undefined ? undefined : parseShard(args.shard);
  if (args.by === "sessions" && shard === undefined) throw new UserError("--by sessions goes with --shard I/N (or auto)");
  // Before the run, so a long one never fails at its last step.
  if (args.out !== undefined) {
    checkOutputDir(args.out);
    refuseOverwrite(args.out, outputs(shard), args.force === true);
  }
  const stretchSource = parseStretchSource(args.stretches);
  const reaction = await resolveFittedReaction(args.reaction, population.kind === "sessions" ? population.paths : (fitFrom ?? []));
  const labels = args.labels === undefined ? undefined : loadLabels(args.labels, args.labelKey ?? "id", parseLabelMap(args.labelMap));
  return {
    args: { ...args, ...(reaction === undefined ? {} : { reaction }) },
    population,
    ...(labels === undefined ? {} : { labels }),
    stretchSource,
    ...(shard === undefined ? {} : { shard }),
    bySessions: args.by === "sessions",
    workers: args.workers ?? availableParallelism(),
    strict: args.strict === true,
    force: args.force === true,
    json: args.json === true,
  };
}

/** This shard's slice of the sessions (`--by sessions`), once the plan knows there are sessions to slice. */
export function sessionSliceOf(plan: GroundingPlan, hasSessions: boolean): Shard | undefined {
  if (!plan.bySessions) return undefined;
  if (!hasSessions) throw new UserError("--by sessions needs sessions to slice: --sessions PATH or --population sessions:PATH");
  return plan.shard;
}

/** The reproduce line's words for the shared options that were given. */
export function sharedReproduceWords(a: SimulationArgs): string[] {
  return [
    ...(a.sessions === undefined ? [] : [`--sessions ${a.sessions.join(" ")}`]),
    ...(a.labels === undefined ? [] : [`--labels ${a.labels}`]),
    ...(a.labelKey === undefined || a.labelKey === "id" ? [] : [`--label-key ${a.labelKey}`]),
    ...(a.labelMap === undefined ? [] : [`--label-map ${a.labelMap}`]),
    ...(a.inject === undefined ? [] : [`--inject ${a.inject}`]),
    ...(a.reaction === undefined ? [] : [`--reaction ${a.reaction}`]),
    ...(a.loops === undefined ? [] : [`--loops ${a.loops}`]),
    ...(a.outcomeLabels === undefined ? [] : [`--outcome-labels ${a.outcomeLabels.join(" ")}`]),
    ...(a.stretches === undefined ? [] : [`--stretches ${a.stretches}`]),
    ...(a.reactionGrid === undefined ? [] : [`--reaction-grid ${a.reactionGrid}`]),
  ];
}
