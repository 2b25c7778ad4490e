// The fitted parameters of loops where the failure repeats while the args change, per system (a
// dataset folder of real sessions, with the model its files name: DATASET/MODEL), as `loopsim fit-changing-args` writes them to
// changingArgsParams.json beside this file. Parsed once, at the edge: a committed file that does
// not parse is a build error naming the JSON path, never a half-read simulation.
import { isPlainObject } from "../../models/outcomeHash.js";
import fitted from "./changingArgsParams.json" with { type: "json" };

export const CHANGING_ARGS_SCHEMA = "loopsim/changing-args-params@1";

/** How one system's agents loop with changing args: medians over its mined stretches. */
export interface ChangingArgsSystem {
  /** Stretches of the changing-args kind the fit rests on. */
  readonly stretches: number;
  /** Their lengths in calls, at the 10th, 25th, 50th, 75th and 90th percentiles (nearest rank). */
  readonly lengths: readonly [number, number, number, number, number];
  /** How much the args vary: the median share of words that differ between one call's args and the next's (Jaccard distance of word sets). */
  readonly argChange: number;
  /** How often the error recurs: the median share of a stretch's calls that meet its most common failure (or answer). */
  readonly recurrence: number;
  /** How often the error's text varies while it recurs (a line number, a pid): the median share of same-failure neighbours whose raw text differs. */
  readonly textVaries: number;
}

export interface ChangingArgsParams {
  readonly schema: typeof CHANGING_ARGS_SCHEMA;
  /** How the numbers were derived, in words, and the command that regenerates the file. */
  readonly derivation: string;
  readonly command: string;
  /** Per system, by name (a dataset folder); in name order. */
  readonly systems: Readonly<Record<string, ChangingArgsSystem>>;
}

/** Used when no fit has any stretch: a stretch of 3 to 12 calls, half the words changing, the same error every time. */
export const FALLBACK_SYSTEM: ChangingArgsSystem = { stretches: 0, lengths: [3, 3, 4, 6, 12], argChange: 0.5, recurrence: 1, textVaries: 0.5 };

const share = (v: unknown) => typeof v === "number" && v >= 0 && v <= 1;

export function parseChangingArgsParams(raw: unknown, where: string): ChangingArgsParams {
  const fail = (path: string, rule: string): never => {
    throw new Error(`${where}: ${path}: ${rule}`);
  };
  if (!isPlainObject(raw)) return fail("$", "must be an object");
  if (raw.schema !== CHANGING_ARGS_SCHEMA) fail("$.schema", `must be "${CHANGING_ARGS_SCHEMA}"`);
  if (typeof raw.derivation !== "string") fail("$.derivation", "must be a string");
  if (typeof raw.command !== "string") fail("$.command", "must be a string");
  if (!isPlainObject(raw.systems)) return fail("$.systems", "must be an object of systems by name");
  const systems: Record<string, ChangingArgsSystem> = {};
  for (const [name, s] of Object.entries(raw.systems)) {
    const at = `$.systems[${JSON.stringify(name)}]`;
    if (!isPlainObject(s)) return fail(at, "must be an object");
    if (!Number.isInteger(s.stretches) || (s.stretches as number) < 1) fail(`${at}.stretches`, "must be a whole number of at least 1");
    const lengths = s.lengths;
    if (!Array.isArray(lengths) || lengths.length !== 5 || !lengths.every((l, i) => Number.isInteger(l) && l >= 2 && (i === 0 || l >= (lengths[i - 1] as number)))) fail(`${at}.lengths`, "must be 5 whole numbers of at least 2, in rising order (percentiles 10, 25, 50, 75, 90)");
    for (const key of ["argChange", "recurrence", "textVaries"] as const) if (!share(s[key])) fail(`${at}.${key}`, "must be a share between 0 and 1");
    systems[name] = { stretches: s.stretches as number, lengths: lengths as unknown as ChangingArgsSystem["lengths"], argChange: s.argChange as number, recurrence: s.recurrence as number, textVaries: s.textVaries as number };
  }
  return { schema: CHANGING_ARGS_SCHEMA, derivation: raw.derivation as string, command: raw.command as string, systems };
}

/** The committed fit. */
export const CHANGING_ARGS_PARAMS: ChangingArgsParams = parseChangingArgsParams(fitted, "src/sim/changingArgsParams.json");

/** A system's parameters by name, the fallback when it is not in the fit. */
export function systemParams(name: string | undefined, params: ChangingArgsParams = CHANGING_ARGS_PARAMS): ChangingArgsSystem {
  return (name === undefined ? undefined : params.systems[name]) ?? FALLBACK_SYSTEM;
}

/** The systems of one dataset (its folder alone, or DATASET/MODEL); every system when the dataset has none in the fit. */
export function datasetSystems(dataset: string, params: ChangingArgsParams = CHANGING_ARGS_PARAMS): Readonly<Record<string, ChangingArgsSystem>> {
  const own = Object.fromEntries(Object.entries(params.systems).filter(([name]) => name === dataset || name.startsWith(`${dataset}/`)));
  return Object.keys(own).length > 0 ? own : params.systems;
}
