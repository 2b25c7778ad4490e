// What `loopsim loops` is given, parsed ONCE into a plan, for the command line and the library
// alike: the paths, --min (as the miner's parameters), the labels and the judgements (loaded and
// checked), the shard, --merge's parts, and the output folder (checked, never created here).
// Every input is refused before any session is read and before anything is written; a library
// caller meets the same refusals (UserError, exit 2), each naming the flag.
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { refuseOverlappingRoots } from "../io/distinctRoots.js";
import { UserError } from "../io/errors.js";
import { MAX_LOOPS_MIN, MAX_WORKERS } from "../io/limits.js";
import { refuseOverwrite } from "../io/overwrite.js";
import { parseShard, type Shard } from "../io/shardSpec.js";
import { checkOutputDir } from "../io/writable.js";
import { loadJudgements, type Judgements } from "../realLoops/judgements.js";
import { loadDatasetLabels, type DatasetLabels } from "../realLoops/labels.js";
import { DEFAULT_MINE_PARAMETERS, type MineParameters } from "../realLoops/mine.js";

/** The catalogue's files in --out. */
export const CATALOGUE_FILES = ["real-loops.md", "real-loops.json"] as const;
/** Read from --out when --judgements is not given: the catalogue is regenerated with its reading. */
export const JUDGEMENTS_FILE = "judgements.json";
/** A shard's partial in --out: `loops-partial-I-of-N.json`. */
export const PARTIAL_PREFIX = "loops-partial";
/** Longest repeat a user may ask for (--min), as the command line's parser bounds it. */
export const MAX_MIN = MAX_LOOPS_MIN;

/** What `loopsim loops` takes, as the command line (or a library caller) hands it over. */
export interface LoopsArgs {
  /** Session files, traces, or folders of them (.gz too); none with `merge`. */
  readonly paths?: readonly string[];
  /** The catalogue as JSON rather than Markdown (for the caller that prints it). */
  readonly json?: boolean;
  /** Folder for real-loops.{md,json} (or a shard's partial); a judgements.json already there is read. */
  readonly out?: string;
  /** Calls a repeat, a failing run, a same-failure chain or a no-effect run needs (an alternation twice as many); 2 to 10,000, default 3. */
  readonly min?: number;
  /** Labels files published with the datasets, for the by-label counts only. */
  readonly labels?: readonly string[];
  /** A reading of the stretches: adds each verdict, the precision and the recall. */
  readonly judgements?: string;
  /** `I/N`, `auto` or `auto/N`: mine every N-th session of the listing into a partial. */
  readonly shard?: string;
  /** The partials of a sharded run (files, or the folder holding them), joined into the whole run's catalogue. */
  readonly merge?: readonly string[];
  /** Stop at the first unreadable file (default: report it and go on). */
  readonly strict?: boolean;
  /** Overwrite the catalogue (or the shard's partial) already in `out`. */
  readonly force?: boolean;
  /** Threads that read and mine the sessions, 1 to 256; default: one per core. The catalogue is the same bytes for any number. */
  readonly workers?: number;
}

/** The judgements a run reads: the file named, or the one already in --out. */
export interface JudgedFile {
  readonly file?: string;
  readonly judgements?: Judgements;
}

/** The outputs every plan shares. */
interface LoopsOutputs {
  readonly json: boolean;
  readonly out?: string;
  readonly judged: JudgedFile;
}

/** A parsed `loops` run: mine sessions (the whole listing or one shard), or merge a sharded run's parts. */
export type LoopsPlan =
  | (LoopsOutputs & {
      readonly kind: "mine";
      readonly paths: readonly string[];
      /** --min as given (null: the defaults), quoted in the catalogue's command line. */
      readonly min: number | null;
      readonly parameters: MineParameters;
      readonly labelFiles: readonly string[];
      readonly labels: readonly DatasetLabels[];
      readonly shard?: Shard;
      readonly strict: boolean;
      /** Threads that mine (planLoops: the cores, or --workers); a plan made without it mines in the calling thread. */
      readonly workers?: number;
    })
  | (LoopsOutputs & { readonly kind: "merge"; readonly parts: readonly string[] });

/** The miner's parameters for `--min N` (the defaults when absent). */
export function mineParameters(min: number | undefined): MineParameters {
  if (min === undefined) return DEFAULT_MINE_PARAMETERS;
  if (!Number.isSafeInteger(min) || min < 2 || min > MAX_MIN) throw new UserError(`--min ${String(min)}: a stretch repeats something, so it needs a whole number of calls from 2 to ${MAX_MIN}`);
  return { repeat: min, failing: min, alternation: 2 * min, sameFailure: min, recheck: min, noEffect: min, noNewFact: min, unlandedEdits: min, unmovedBreak: min, idleRecheck: min };
}

function kindOf(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

function textsOf(value: unknown, flag: string): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string" && v !== "")) throw new UserError(`${flag} must be a list of paths (got ${kindOf(value)})`);
  return value as string[];
}

function textOf(value: unknown, flag: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") throw new UserError(`${flag} must be a path (got ${kindOf(value)})`);
  return value;
}

function flagOf(value: unknown, flag: string): boolean {
  if (value === undefined) return false;
  if (typeof value !== "boolean") throw new UserError(`${flag} must be true or false (got ${kindOf(value)})`);
  return value;
}

/** The judgements named, or the ones already in --out; loaded (and checked) before any work. */
function judgedOf(judgements: string | undefined, out: string | undefined): JudgedFile {
  const file = judgements ?? (out !== undefined && existsSync(join(out, JUDGEMENTS_FILE)) ? join(out, JUDGEMENTS_FILE) : undefined);
  return file === undefined ? {} : { file, judgements: loadJudgements(file) };
}

/**
 * Parses and checks what `loops` is given, once, before any session is read: a malformed or
 * contradictory argument, unreadable labels or judgements, or an output folder that cannot be
 * written or already holds a catalogue (without `force`) is a user error naming the flag.
 * Nothing is created: the folder is made by the first write.
 */
export function planLoops(args: LoopsArgs): LoopsPlan {
  if (args === null || typeof args !== "object" || Array.isArray(args)) throw new UserError(`loops: the arguments must be an object of paths, json, out, min, labels, judgements, shard, merge, strict, force, workers (got ${kindOf(args)})`);
  const paths = textsOf(args.paths, "paths") ?? [];
  const merge = textsOf(args.merge, "--merge");
  const labelFiles = textsOf(args.labels, "--labels") ?? [];
  const out = textOf(args.out, "--out");
  const judgements = textOf(args.judgements, "--judgements");
  const shardSpec = textOf(args.shard, "--shard");
  const json = flagOf(args.json, "--json");
  const force = flagOf(args.force, "--force");
  const strict = flagOf(args.strict, "--strict");
  if (args.workers !== undefined && (typeof args.workers !== "number" || !Number.isSafeInteger(args.workers) || args.workers < 1 || args.workers > MAX_WORKERS)) throw new UserError(`--workers must be a whole number from 1 to ${MAX_WORKERS} (got ${typeof args.workers === "number" ? String(args.workers) : kindOf(args.workers)})`);
  if (merge !== undefined) {
    if (paths.length > 0 || shardSpec !== undefined || args.min !== undefined || args.labels !== undefined || args.workers !== undefined) throw new UserError("loops --merge takes only the parts (and --out, --judgements, --json, --force): the paths, --min, --labels and --workers belong to the runs that made them");
    if (merge.length === 0) throw new UserError("loops --merge: name the parts of a sharded run (files, or the folder holding them)");
    const judged = judgedOf(judgements, out);
    if (out !== undefined) {
      checkOutputDir(out);
      refuseOverwrite(out, CATALOGUE_FILES, force);
    }
    return { kind: "merge", parts: merge, json, ...(out === undefined ? {} : { out }), judged };
  }
  if (paths.length === 0) throw new UserError("loops: name the sessions to mine (files or folders), or --merge the parts of a sharded run");
  // A session is named relative to the path it was found under, so a path given twice, or one
  // inside another, would mine its sessions twice under two ids. A missing path is left to the
  // listing, which names it among the unreadable files and mines the rest.
  refuseOverlappingRoots(paths.filter((p) => existsSync(p)), (p) => p);
  if (args.min !== undefined && typeof args.min !== "number") throw new UserError(`--min must be a whole number from 2 to ${MAX_MIN} (got ${kindOf(args.min)})`);
  const parameters = mineParameters(args.min);
  const shard = shardSpec === undefined ? undefined : parseShard(shardSpec);
  const judged = judgedOf(judgements, out);
  const labels = labelFiles.map(loadDatasetLabels);
  if (out !== undefined) {
    checkOutputDir(out);
    refuseOverwrite(out, shard === undefined ? CATALOGUE_FILES : [partialFileName(shard)], force);
  }
  return { kind: "mine", paths, min: args.min ?? null, parameters, labelFiles, labels, ...(shard === undefined ? {} : { shard }), strict, workers: args.workers ?? availableParallelism(), json, ...(out === undefined ? {} : { out }), judged };
}

/** The name of a shard's partial in --out. */
export function partialFileName(shard: Shard): string {
  return `${PARTIAL_PREFIX}-${shard.index}-of-${shard.of}.json`;
}
