// What `loopsim calibrate` is given, parsed ONCE into a plan, for the command line and the
// library alike: which of its three runs it is (check a population against sessions, fit a
// population to them, or fit the reaction odds), the population (resolved), the sessions, and
// the output (checked, never created here). Everything is refused before a session is read, each
// problem a user error (exit 2) naming the flag.
import { dirname, resolve } from "node:path";
import { existsSync } from "node:fs";
import { UserError } from "../io/errors.js";
import { inputProblem } from "../io/fsErrors.js";
import { MAX_AGENTS } from "../io/limits.js";
import { refuseOverwrite } from "../io/overwrite.js";
import { checkOutputDir } from "../io/writable.js";
import { groundingFlags, refuseGroundingFlags, resolvePopulation, type AnyPopulation } from "../grounded/populationSpec.js";

/** The files `calibrate --out DIR` writes (without --fit). */
export const CALIBRATION_FILES = ["calibration.json", "calibration.md"] as const;
/** The files `calibrate --fit-reaction --out DIR` writes. */
export const REACTION_FIT_FILES = ["reaction-fit.json", "reaction-fit.md"] as const;

/** What `loopsim calibrate` takes, as the command line (or a library caller) hands it over. */
export interface CalibrateArgs {
  /** Recorded sessions: files or folders; a population fitted by `fit` names its own when none are given. */
  readonly paths?: readonly string[];
  /** A preset, a population file or `sessions:PATH` (default `default`). */
  readonly population?: string;
  /** Simulated agents (1 to 100,000; default 480). */
  readonly agents?: number;
  /** Seed of the population (a whole number from 0; default 1). */
  readonly seed?: number;
  /** Folder for calibration.{json,md}; with `fit`, the fitted population's file. */
  readonly out?: string;
  /** The caller prints the JSON report rather than the Markdown one. */
  readonly json?: boolean;
  /** Stop at the first unreadable file (default: skip and report it). */
  readonly strict?: boolean;
  /** Overwrite what is already at `out`. */
  readonly force?: boolean;
  /** Fit a population to the sessions (written to `out`, a file), checked on a held-out half. */
  readonly fit?: boolean;
  /** With `fit`: the share of the population on the default's stuck families (0 to 1; default 0.5). */
  readonly stuckShare?: number;
  /** With a `sessions:` population: the loops injected (as `--inject`). */
  readonly inject?: string;
  /** With a `sessions:` population: how a session run as an agent reacts (as `--reaction`). */
  readonly reaction?: string;
  /** Fit the reaction odds to the guard interventions in the sessions instead. */
  readonly fitReaction?: boolean;
}

/** A parsed `calibrate`: one of its three runs, with everything it needs checked. */
export type CalibratePlan =
  | {
      /** The reaction odds fitted to the sessions' guard interventions. */
      readonly kind: "reaction";
      readonly paths: readonly string[];
      readonly out?: string;
      readonly json: boolean;
      readonly strict: boolean;
    }
  | {
      /** `check`: a population beside the sessions; `fit`: a population fitted to them (written to `out`). */
      readonly kind: "check" | "fit";
      /** The arguments as given, defaults filled in (the report's reproduce line quotes them). */
      readonly args: CalibrateArgs & { readonly paths: readonly string[]; readonly population: string; readonly agents: number; readonly seed: number };
      /** The sessions to read: those given, or the ones a fitted population names. */
      readonly paths: readonly string[];
      /** The population checked (none for a fit). */
      readonly chosen?: AnyPopulation;
      /** What a fitted population file says it was fitted on (its paths resolved). */
      readonly fittedOn?: { readonly paths: readonly string[]; readonly seed: number };
      readonly out?: string;
      readonly json: boolean;
      readonly strict: boolean;
    };

function kindOf(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

function wholeNumber(value: unknown, flag: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min || value > max) throw new UserError(`${flag} must be a whole number from ${min} to ${max} (got ${typeof value === "number" ? String(value) : kindOf(value)})`);
  return value;
}

function textOf(value: unknown, flag: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") throw new UserError(`${flag} must be a non-empty string (got ${kindOf(value)})`);
  return value;
}

function flagOf(value: unknown, flag: string): boolean {
  if (value === undefined) return false;
  if (typeof value !== "boolean") throw new UserError(`${flag} must be true or false (got ${kindOf(value)})`);
  return value;
}

/**
 * Parses and checks what `calibrate` is given, once, before any session is read: flags that do
 * not go together, a population that cannot be read, a fitted population whose sessions moved,
 * an output that cannot be written or would be overwritten (without `force`). Nothing is created.
 */
export function planCalibrate(args: CalibrateArgs): CalibratePlan {
  if (args === null || typeof args !== "object" || Array.isArray(args)) throw new UserError(`calibrate: the arguments must be an object of paths, population, agents, seed, out, ... (got ${kindOf(args)})`);
  if (args.paths !== undefined && (!Array.isArray(args.paths) || !args.paths.every((p) => typeof p === "string" && p !== ""))) throw new UserError(`paths must be a list of paths (got ${kindOf(args.paths)})`);
  const given: readonly string[] = args.paths ?? [];
  const out = textOf(args.out, "--out");
  const json = flagOf(args.json, "--json");
  const strict = flagOf(args.strict, "--strict");
  const force = flagOf(args.force, "--force");
  const fit = flagOf(args.fit, "--fit");
  if (flagOf(args.fitReaction, "--fit-reaction")) {
    if (given.length === 0) throw new UserError("--fit-reaction: name the recorded sessions to fit the reaction odds to (files or folders)");
    if (out !== undefined) {
      checkOutputDir(out);
      refuseOverwrite(out, REACTION_FIT_FILES, force);
    }
    return { kind: "reaction", paths: given, ...(out === undefined ? {} : { out }), json, strict };
  }
  const population = textOf(args.population, "--population") ?? "default";
  const agents = wholeNumber(args.agents, "--agents", 1, MAX_AGENTS, 480);
  const seed = wholeNumber(args.seed, "--seed", 0, Number.MAX_SAFE_INTEGER, 1);
  if (args.stuckShare !== undefined) {
    if (typeof args.stuckShare !== "number" || !(args.stuckShare >= 0 && args.stuckShare <= 1)) throw new UserError(`--stuck-share must be a number from 0 to 1 (got ${typeof args.stuckShare === "number" ? String(args.stuckShare) : kindOf(args.stuckShare)})`);
    if (!fit) throw new UserError("--stuck-share applies to --fit");
  }
  if (fit) {
    if (out === undefined) throw new UserError("--fit needs --out FILE: where to write the fitted population (e.g. --out pop.json)");
    if (population !== "default") throw new UserError("--fit fits a new population; leave out --population (it is for checking one)");
    if (existsSync(out) && !force) throw new UserError(`${out} exists; pass --force to overwrite it`);
    checkOutputDir(dirname(resolve(out)));
  } else if (out !== undefined) {
    checkOutputDir(out);
    refuseOverwrite(out, CALIBRATION_FILES, force);
  }
  const flags = groundingFlags({ inject: textOf(args.inject, "--inject"), reaction: textOf(args.reaction, "--reaction") });
  const chosen = fit ? undefined : resolvePopulation(population, flags);
  if (chosen?.kind !== "sessions") refuseGroundingFlags(flags);
  const fittedOn = chosen?.kind === "simulated" ? chosen.population.fittedOn : undefined;
  const paths = given.length > 0 ? given : (fittedOn?.paths ?? (chosen?.kind === "sessions" ? chosen.grounded.paths : []));
  if (given.length === 0 && fittedOn !== undefined) {
    // The file names its sessions relative to itself: moved without them, it names paths that are gone.
    fittedOn.paths.forEach((path, i) => {
      const problem = inputProblem(path);
      if (problem !== undefined) throw new UserError(`${population}: fittedOn.paths[${i}]: ${path}: ${problem.reason} (paths are relative to the population file; was it moved without its sessions? name the sessions to calibrate against on the command line)`);
    });
  }
  if (paths.length === 0) throw new UserError("name the recorded sessions to calibrate against (files or folders), or give a population fitted by calibrate --fit, which names its own");
  return {
    kind: fit ? "fit" : "check",
    args: { ...args, paths: given, population, agents, seed },
    paths,
    ...(chosen === undefined ? {} : { chosen }),
    ...(fittedOn === undefined ? {} : { fittedOn: { paths: fittedOn.paths, seed: fittedOn.seed } }),
    ...(out === undefined ? {} : { out }),
    json,
    strict,
  };
}
