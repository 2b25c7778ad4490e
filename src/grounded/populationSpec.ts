// What `--population` names: a simulated population (a preset or a population file of families),
// or one grounded in real sessions, `sessions:PATH` or a population file with a `sessions` key.
// Sessions under several roots come from repeating the flag (`--population sessions:A
// --population sessions:B`), never from splitting one value: a comma or a space may be part of a
// path, a second flag cannot. Each root names its sessions relative to itself, as `loops A B` does,
// so stretch ids match the catalogue's.
// The flags --inject and --reaction apply to grounded populations and override the file's values.
import { dirname, isAbsolute, relative, resolve } from "node:path";
import { isPlainObject } from "../../models/outcomeHash.js";
import { UserError } from "../io/errors.js";
import { refuseOverlappingRoots } from "../io/distinctRoots.js";
import { POPULATION_PRESETS, populationFromJson, readPopulationFile, type Population } from "../evaluation/population.js";
import { SESSIONS_PREFIX, type GroundedPopulation } from "./groundedPopulation.js";
import { NO_INJECTION, parseInject, type InjectSpec } from "./injection.js";
import { parseLoops } from "./realLoopAgents.js";
import { parseReactionGrid, type ReactionGrid } from "./reactionGrid.js";
import { DEFAULT_SESSION_REACTION, parseReaction, reactionFromJson, type SessionReaction } from "./reaction.js";

export type AnyPopulation = { readonly kind: "simulated"; readonly population: Population } | { readonly kind: "sessions"; readonly grounded: GroundedPopulation };

/** `--population` as given, parsed once: a preset or population file, or the roots of real sessions. */
export type PopulationSpec = { readonly kind: "named"; readonly spec: string } | { readonly kind: "sessions"; readonly paths: readonly string[] };

/** How a sessions root is named in messages: as the user typed it. */
export const sessionsFlag = (root: string): string => `--population ${SESSIONS_PREFIX}${root}`;

/** The name a population of sessions under `paths` goes by in reports (one root: `sessions:PATH`, as before). */
export const sessionsName = (paths: readonly string[]): string => paths.map((p) => `${SESSIONS_PREFIX}${p}`).join(" ");

/**
 * `--population` once or repeated (the command line collects repeats into a list): one preset or
 * population file, or one or more `sessions:PATH`, merged. A root that is missing, given twice or
 * inside another is refused here (exit 2), naming itself, before anything is read.
 */
export function parsePopulationArg(given: string | readonly string[]): PopulationSpec {
  const specs: readonly string[] = typeof given === "string" ? [given] : given;
  const first = specs[0];
  if (first === undefined) throw new UserError(`--population: name a preset (${Object.keys(POPULATION_PRESETS).join(", ")}), a population file or sessions:PATH`);
  const other = specs.find((s) => !s.startsWith(SESSIONS_PREFIX));
  if (other === undefined) {
    const paths = specs.map((s) => s.slice(SESSIONS_PREFIX.length));
    if (paths.includes("")) throw new UserError(`--population ${SESSIONS_PREFIX}: name the sessions, e.g. sessions:../shared/corpus`);
    refuseOverlappingRoots(paths, sessionsFlag);
    return { kind: "sessions", paths };
  }
  if (specs.length > 1) throw new UserError(`--population ${other}: given with ${specs.filter((s) => s !== other).map((s) => `--population ${s}`).join(" ")}; only sessions:PATH repeats (one per folder of real sessions); a preset or population file is given alone (tune's --sessions PATH puts real sessions beside a simulated population)`);
  return { kind: "named", spec: first };
}

/** The reproduce line's words for `--population` (none for the default). */
export function populationWords(spec: PopulationSpec): string[] {
  if (spec.kind === "sessions") return spec.paths.map(sessionsFlag);
  return spec.spec === "default" ? [] : [`--population ${spec.spec}`];
}

export interface GroundingFlags {
  readonly inject?: string;
  readonly reaction?: string;
  /** `real`: the mined stretches are stuck agents too (realLoopAgents.ts). */
  readonly loops?: string;
  /** --reaction-grid: default, none or HEEDxSKIP (reactionGrid.ts); absent: no grid. */
  readonly reactionGrid?: string;
}

export function groundedFrom(paths: readonly string[], name: string, flags: GroundingFlags, fromFile: { inject?: InjectSpec; reaction?: SessionReaction } = {}): GroundedPopulation {
  return {
    name,
    paths,
    inject: flags.inject !== undefined ? parseInject(flags.inject) : (fromFile.inject ?? NO_INJECTION),
    reaction: flags.reaction !== undefined ? parseReaction(flags.reaction) : (fromFile.reaction ?? DEFAULT_SESSION_REACTION),
    ...(flags.loops !== undefined && parseLoops(flags.loops) === "real" ? { loops: "real" as const } : {}),
    ...withGrid(flags.reactionGrid),
  };
}

function withGrid(spec: string | undefined): { reactionGrid?: ReactionGrid } {
  const grid = spec === undefined ? undefined : parseReactionGrid(spec);
  return grid === undefined ? {} : { reactionGrid: grid };
}

/** A sessions population file ({sessions, inject, reaction}); paths in it are relative to the file. */
function groundedFile(spec: string, raw: Record<string, unknown>, flags: GroundingFlags): GroundedPopulation {
  const problems: string[] = [];
  for (const key of Object.keys(raw)) if (!["name", "sessions", "inject", "reaction"].includes(key)) problems.push(`${key}: unknown key (a sessions population allows name, sessions, inject, reaction)`);
  const list = Array.isArray(raw.sessions) ? raw.sessions : [raw.sessions];
  if (list.length === 0 || list.some((p) => typeof p !== "string" || p === "")) problems.push("sessions: a path or a list of paths to session files or folders");
  let inject: InjectSpec | undefined;
  if (raw.inject !== undefined) {
    if (typeof raw.inject !== "string") problems.push(`inject: a string such as "default", "none" or "repeat,poll@10-40" (got ${JSON.stringify(raw.inject)})`);
    else {
      try {
        inject = parseInject(raw.inject);
      } catch (error) {
        problems.push(`inject: ${(error as Error).message.replace(/^--inject /, "")}`);
      }
    }
  }
  const reaction = raw.reaction === undefined ? undefined : reactionFromJson(raw.reaction, "reaction", problems);
  if (problems.length > 0) throw new UserError(`${spec}: invalid population:\n${problems.map((p) => `  ${spec}: ${p}`).join("\n")}`);
  // Shown relative to where loopsim runs, so reports name them as a user would type them.
  const paths = (list as string[]).map((p) => (isAbsolute(p) ? p : relative(process.cwd(), resolve(dirname(spec), p)) || "."));
  refuseOverlappingRoots(paths, (p) => `${spec}: sessions ${p}`);
  const name = typeof raw.name === "string" ? raw.name : spec;
  return groundedFrom(paths, name, flags, { ...(inject === undefined ? {} : { inject }), ...(reaction === undefined ? {} : { reaction }) });
}

/**
 * The population `spec` names. `flags` (--inject, --reaction) shape a sessions population; with a
 * simulated one they are left for the caller (tune puts real sessions beside it, the others refuse
 * them with refuseGroundingFlags).
 */
export function resolvePopulation(given: string | readonly string[] | PopulationSpec, flags: GroundingFlags = {}): AnyPopulation {
  const parsed = typeof given === "string" || Array.isArray(given) ? parsePopulationArg(given as string | readonly string[]) : (given as PopulationSpec);
  if (parsed.kind === "sessions") return { kind: "sessions", grounded: groundedFrom(parsed.paths, sessionsName(parsed.paths), flags) };
  const spec = parsed.spec;
  const preset = POPULATION_PRESETS[spec];
  if (preset !== undefined) return { kind: "simulated", population: preset };
  const raw = readPopulationFile(spec);
  if (isPlainObject(raw) && "sessions" in raw) return { kind: "sessions", grounded: groundedFile(spec, raw, flags) };
  return { kind: "simulated", population: populationFromJson(raw, spec) };
}

/** --inject and --reaction need real sessions to act on. */
export function refuseGroundingFlags(flags: GroundingFlags): void {
  if (flags.inject !== undefined || flags.reaction !== undefined || flags.loops !== undefined) {
    throw new UserError(`${flags.inject !== undefined ? `--inject ${flags.inject}` : flags.reaction !== undefined ? `--reaction ${flags.reaction}` : `--loops ${flags.loops}`}: applies to real sessions: --population sessions:PATH (or --sessions PATH with tune)`);
  }
}

/** The flags as given, without the ones left out. */
export function groundingFlags(options: { readonly inject?: string | undefined; readonly reaction?: string | undefined; readonly loops?: string | undefined; readonly reactionGrid?: string | undefined }): GroundingFlags {
  return { ...(options.inject === undefined ? {} : { inject: options.inject }), ...(options.reaction === undefined ? {} : { reaction: options.reaction }), ...(options.loops === undefined ? {} : { loops: options.loops }), ...(options.reactionGrid === undefined ? {} : { reactionGrid: options.reactionGrid }) };
}

/** --reaction-grid moves the odds real sessions react with: it needs them (tune and compare run it by default on them). */
export function refuseReactionGrid(spec: string | undefined): void {
  if (spec !== undefined) throw new UserError(`--reaction-grid ${spec}: applies to real sessions run as agents: --population sessions:PATH (or --sessions PATH --inject SPEC with tune)`);
}
