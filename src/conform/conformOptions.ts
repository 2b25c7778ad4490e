// What `conform` and `lawChecks` are asked to run, read ONCE into a complete, checked object (in
// the way fast-check's QualifiedParameters reads a caller's partial parameters): the CLI and the
// library both go through here, so a law that does not exist, a seed that is not a whole number
// or a depth out of bounds is refused the same way by both, before anything runs. Each problem
// names the field as its caller knows it (`--depth` on the command line, `conform: options.depth`
// in the library).
import { SEMANTIC_LAWS } from "../../properties/laws/index.js";
import { unknownName } from "../format/didYouMean.js";
import { UserError } from "../io/errors.js";

/** The CLI's default seed: a run with it is the run `loopsim conform` makes. */
export const DEFAULT_CONFORM_SEED = 20261202;
/** Law repetitions (conform --depth): above this a run takes days. */
export const MAX_CONFORM_DEPTH = 1_000;

/** The options as a caller gives them: every field optional. */
export interface ConformOptionsInput {
  /** Seed of the laws and the differential run. */
  readonly seed?: number;
  /** Multiplies the cases of every law and of the differential run. */
  readonly depth?: number;
  /** Counterexample scenarios are written here; none when absent. */
  readonly outDir?: string;
  /** Run only this law (with `path`, replay a shrunk failure). */
  readonly law?: string;
  /** fast-check path of a shrunk counterexample. */
  readonly path?: string;
  /** Seed of the differential run alone (default: `seed`). */
  readonly differentialSeed?: number;
}

/**
 * The options as the runners read them (conform/run.ts): the same fields, with `seed` and
 * `depth` filled in by their defaults and `outDir` always present (undefined: write nothing).
 */
export type ResolvedConformOptions = Required<Pick<ConformOptionsInput, "seed" | "depth">> & { readonly outDir: string | undefined } & Pick<ConformOptionsInput, "law" | "path" | "differentialSeed">;

const FIELDS = ["seed", "depth", "outDir", "law", "path", "differentialSeed"] as const satisfies readonly (keyof ConformOptionsInput)[];
type Field = (typeof FIELDS)[number];

/** How a field is named to the caller, in each message. */
export type FieldNamer = (field: Field) => string;

/** `--depth`, `--differential-seed`, for the command line. */
export const cliFlag: FieldNamer = (field) => (field === "outDir" ? "--out" : `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);

/** `conform: options.depth`, for a library function. */
export const libraryField =
  (fn: string, object = "options"): FieldNamer =>
  (field) =>
    `${fn}: ${object}.${field}`;

function describe(value: unknown): string {
  if (typeof value === "number") return Number.isNaN(value) ? "NaN" : String(value);
  if (typeof value === "string") return JSON.stringify(value);
  return value === null ? "null" : typeof value;
}

/** A whole seed from 0 up to 2^53 - 1 (fast-check takes any integer; the CLI the same range). */
function seedOf(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) throw new UserError(`${name} must be a whole number from 0 up to ${Number.MAX_SAFE_INTEGER} (got ${describe(value)})`);
  return value;
}

/** A depth above 0 (fractions allowed: the vitest helper runs a twentieth) and at most the CLI's bound. */
function depthOf(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0 || value > MAX_CONFORM_DEPTH) throw new UserError(`${name} must be a number above 0 and at most ${MAX_CONFORM_DEPTH} (got ${describe(value)})`);
  return value;
}

function textOf(value: unknown, name: string): string {
  if (typeof value !== "string" || value === "") throw new UserError(`${name} must be a non-empty string (got ${describe(value)})`);
  return value;
}

/** Refuses a law that does not exist (it would run 0 checks and pass), with a did-you-mean. */
export function lawOf(value: unknown, name: string): string {
  const law = textOf(value, name);
  if (!SEMANTIC_LAWS.some((l) => l.name === law)) throw new UserError(`${name} ${unknownName("law", law, SEMANTIC_LAWS.map((l) => l.name))}`);
  return law;
}

/**
 * Reads a caller's options into the options the runners use. `input` may be undefined (all
 * defaults); anything else that is not an object, an unknown field or a value of the wrong type
 * or out of bounds is a user error naming the field.
 */
export function resolveConformOptions(input: unknown, nameOf: FieldNamer, allowed: readonly Field[] = FIELDS): ResolvedConformOptions {
  if (input === undefined) return { seed: DEFAULT_CONFORM_SEED, depth: 1, outDir: undefined };
  const objectName = nameOf("seed").replace(/\.seed$/, "");
  if (input === null || typeof input !== "object" || Array.isArray(input)) throw new UserError(`${objectName} must be an object of ${allowed.join(", ")} (got ${describe(input)})`);
  const given = input as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!(allowed as readonly string[]).includes(key)) throw new UserError(`${objectName}.${key}: ${unknownName("option", key, allowed)}`);
  }
  const present = (field: Field): boolean => given[field] !== undefined;
  return {
    seed: present("seed") ? seedOf(given.seed, nameOf("seed")) : DEFAULT_CONFORM_SEED,
    depth: present("depth") ? depthOf(given.depth, nameOf("depth")) : 1,
    outDir: present("outDir") ? textOf(given.outDir, nameOf("outDir")) : undefined,
    ...(present("law") ? { law: lawOf(given.law, nameOf("law")) } : {}),
    ...(present("path") ? { path: textOf(given.path, nameOf("path")) } : {}),
    ...(present("differentialSeed") ? { differentialSeed: seedOf(given.differentialSeed, nameOf("differentialSeed")) } : {}),
  };
}
