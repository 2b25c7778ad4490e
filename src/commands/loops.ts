// `loopsim loops PATH... [--json] [--out DIR] [--min N] [--labels F]... [--judgements F] [--shard I/N]`
// and `loopsim loops --merge PARTS...`: the stuck stretches in recorded sessions, by a definition
// that belongs to no guard (src/realLoops/mine.ts). A command of its own, not a `scan` option: scan
// runs sessions through a guard and a config, and this reads them with neither, so none of scan's
// --config, --target or --agent would apply. A shard mines every N-th session of the listing and
// writes a partial result; the merge feeds the parts' rows, in listing order, to the same builder
// a whole run uses, so its catalogue is byte for byte the whole run's.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { isPlainObject } from "../../models/outcomeHash.js";
import { CheckFailed, UserError } from "../io/errors.js";
import { badFileLines, ignoredNote, listedFiles, reasonOf, type BadFile } from "../import/sessionRefs.js";
import { writeFileAtomic } from "../io/atomicWrite.js";
import { refuseOverwrite } from "../io/overwrite.js";
import { partsIn, readShardParts, type ShardLayout } from "../io/shardParts.js";
import type { Shard } from "../io/shardSpec.js";
import { checkOutputDir } from "../io/writable.js";
import { readSessionEvents } from "../sessions/recorded.js";
import { CatalogueBuilder, catalogueJson, catalogueMarkdown, sessionRow, type Catalogue, type SessionRow } from "../realLoops/catalogue.js";
import { loadJudgements, type Judgements } from "../realLoops/judgements.js";
import { labelFor, loadDatasetLabels } from "../realLoops/labels.js";
import { DEFAULT_MINE_PARAMETERS, type MineParameters } from "../realLoops/mine.js";
import { sessionModel } from "../realLoops/sessionModel.js";

export const CATALOGUE_FILES = ["real-loops.md", "real-loops.json"] as const;
/** Read from --out when --judgements is not given: the catalogue is regenerated with its reading. */
export const JUDGEMENTS_FILE = "judgements.json";
export const LOOPS_PARTIAL_SCHEMA = "loopsim/real-loops-partial@1";
const PARTIAL_PREFIX = "loops-partial";

export interface LoopsOptions {
  readonly json: boolean;
  readonly out?: string;
  readonly force?: boolean;
  readonly strict?: boolean;
  /** Calls a repeat, a failing run, a same-failure chain or a no-effect run needs (an alternation needs twice as many). */
  readonly min?: number;
  readonly judgements?: string;
  /** Labels files (the datasets' own labels.json), for the by-label counts only. */
  readonly labels?: readonly string[];
  readonly shard?: Shard;
}

/** What every shard of one run shares, and what the merge rebuilds the whole run from. */
interface LoopsInputs {
  readonly paths: readonly string[];
  readonly min: number | null;
  readonly labels: readonly string[];
  readonly parameters: MineParameters;
  /** Sessions in the whole listing (a shard's rows are the positions I-1, I-1+N, ...). */
  readonly listed: number;
  readonly listingBad: readonly BadFile[];
  readonly passedOver: readonly string[];
}

export function mineParameters(min: number | undefined): MineParameters {
  if (min === undefined) return DEFAULT_MINE_PARAMETERS;
  if (min < 2) throw new UserError(`--min ${min}: a stretch repeats something, so it needs at least 2 calls`);
  return { repeat: min, failing: min, alternation: 2 * min, sameFailure: min, recheck: min, noEffect: min };
}

const quote = (arg: string) => (/^[\w./@:=+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`);

/** The command that regenerates the catalogue: every flag that shapes it (--shard, --json and --force do not). */
function commandLine(inputs: Pick<LoopsInputs, "paths" | "min" | "labels">, judgements: string | undefined, out: string | undefined): string {
  const args = ["loopsim", "loops", ...inputs.paths];
  if (inputs.min !== null) args.push("--min", String(inputs.min));
  for (const l of inputs.labels) args.push("--labels", l);
  if (judgements !== undefined) args.push("--judgements", judgements);
  if (out !== undefined) args.push("--out", out);
  return args.map(quote).join(" ");
}

/** The judgements named, or the ones already in --out; checked before any work. */
function judgementsOf(options: Pick<LoopsOptions, "judgements" | "out">): { file?: string; judgements?: Judgements } {
  const file = options.judgements ?? (options.out !== undefined && existsSync(join(options.out, JUDGEMENTS_FILE)) ? join(options.out, JUDGEMENTS_FILE) : undefined);
  return file === undefined ? {} : { file, judgements: loadJudgements(file) };
}

export async function loopsCommand(paths: readonly string[], options: LoopsOptions): Promise<void> {
  // Every input is checked before the output folder is looked at, and nothing is created before the first write.
  const parameters = mineParameters(options.min);
  const judged = judgementsOf(options);
  const labels = (options.labels ?? []).map(loadDatasetLabels);
  if (options.out !== undefined) {
    checkOutputDir(options.out);
    refuseOverwrite(options.out, options.shard === undefined ? CATALOGUE_FILES : [`${PARTIAL_PREFIX}-${options.shard.index}-of-${options.shard.of}.json`], options.force === true);
  }
  // Each file is read as soon as it is listed, while its inflated content is still at hand
  // (src/import/sessionRefs.ts listedFiles): the rows, the listing and its positions are those of
  // listing every file first and reading after (as a shard of the listing needs), in the same order.
  const strict = options.strict === true;
  const rows: SessionRow[] = [];
  const listingBad: BadFile[] = [];
  const passedOver: string[] = [];
  let listedCount = 0;
  // With --strict, a listing problem is the error even after a session that could not be read
  // (the listing came first): the reading problem waits for the listing to finish.
  let unreadable: unknown;
  for await (const file of listedFiles(paths, strict, true)) {
    if ("bad" in file) {
      listingBad.push(file.bad);
      continue;
    }
    if (file.refs.length === 0) passedOver.push(file.file);
    for (const { ref, id, span, format } of file.refs) {
      const at = listedCount++;
      if (options.shard !== undefined && at % options.shard.of !== options.shard.index - 1) continue;
      if (unreadable !== undefined) continue;
      try {
        // The span found by the listing: a session of a multi-session file is read from its bytes alone.
        // The model from the file's head first, while its text is at hand: the reader then takes that text and lets it go.
        const model = sessionModel(ref);
        const read = await readSessionEvents(ref, span, format);
        const label = labelFor(ref, labels);
        rows.push(sessionRow(at, id, read.format, read.events, parameters, { ...(model === undefined ? {} : { model }), ...(label === undefined ? {} : { label }) }));
      } catch (error) {
        // A file that fails while it is read is reported and skipped, as scan does.
        if (!(error instanceof UserError)) throw error;
        if (strict) unreadable = error;
        else rows.push({ at, id: ref, unreadable: reasonOf(error, ref) });
      }
    }
  }
  const note = ignoredNote(passedOver);
  if (note !== undefined) process.stderr.write(`loopsim: ${note}\n`);
  if (listedCount === 0 && listingBad.length === 0) throw new UserError(`no session files (*.jsonl, *.traj, *.traj.json, *.json, each also .gz) under ${paths.join(", ")}`);
  if (unreadable !== undefined) throw unreadable;
  const inputs: LoopsInputs = { paths, min: options.min ?? null, labels: options.labels ?? [], parameters, listed: listedCount, listingBad, passedOver };
  if (options.shard !== undefined) return writePartial(options, options.shard, inputs, rows);
  finish(inputs, rows, judged, options);
}

function writePartial(options: LoopsOptions, shard: Shard, inputs: LoopsInputs, rows: readonly SessionRow[]): void {
  const text = `${JSON.stringify({ schema: LOOPS_PARTIAL_SCHEMA, shard, inputs, rows }, null, 2)}\n`;
  if (options.out === undefined) process.stdout.write(text);
  else {
    const file = join(options.out, `${PARTIAL_PREFIX}-${shard.index}-of-${shard.of}.json`);
    writeFileAtomic(file, text);
    process.stderr.write(`loopsim: wrote shard ${shard.index}/${shard.of} (${rows.length} of ${inputs.listed} sessions) to ${file}; join the parts with loopsim loops --merge ${options.out}\n`);
  }
}

const LOOPS_SHARDS: ShardLayout<LoopsInputs, SessionRow> = {
  schema: LOOPS_PARTIAL_SCHEMA,
  writer: "loopsim loops",
  inputsAre: "paths, --min, --labels, the listing",
  rowsAre: "sessions",
  expected: (inputs, index, of) => Array.from({ length: inputs.listed }, (_, at) => at).filter((at) => at % of === index - 1).map(String),
  idOf: (row) => (isPlainObject(row) && Number.isInteger(row.at) && typeof row.id === "string" ? String(row.at) : undefined),
};

/** `loops --merge PARTS...`: the parts of `loops --shard I/N` joined into the whole run's catalogue. */
export function mergeLoops(parts: readonly string[], options: Pick<LoopsOptions, "json" | "out" | "force" | "judgements">): void {
  const judged = judgementsOf(options);
  if (options.out !== undefined) {
    checkOutputDir(options.out);
    refuseOverwrite(options.out, CATALOGUE_FILES, options.force === true);
  }
  const partials = readShardParts(partsIn(parts, PARTIAL_PREFIX), LOOPS_SHARDS);
  const inputs = (partials[0] as (typeof partials)[number]).inputs;
  const rows = partials.flatMap((p) => p.rows).sort((a, b) => a.at - b.at);
  finish(inputs, rows, judged, options);
}

function finish(inputs: LoopsInputs, rows: readonly SessionRow[], judged: { file?: string; judgements?: Judgements }, options: Pick<LoopsOptions, "json" | "out">): void {
  const builder = new CatalogueBuilder({ command: commandLine(inputs, judged.file, options.out), paths: inputs.paths, parameters: inputs.parameters }, judged.judgements);
  for (const row of rows) builder.addRow(row);
  const catalogue: Catalogue = builder.finish(inputs.listingBad, inputs.passedOver);
  const bad = catalogue.unreadable;
  // Nothing read: no catalogue is written (an empty one would read as "no loops found").
  if (catalogue.summary.sessions === 0 && bad.length > 0) throw new UserError(`${inputs.paths.join(" ")}: no readable sessions (${bad.length} file${bad.length === 1 ? "" : "s"} could not be read):\n${badFileLines(bad).join("\n")}`);
  const markdown = catalogueMarkdown(catalogue);
  const json = catalogueJson(catalogue);
  if (options.out !== undefined) {
    writeFileAtomic(join(options.out, "real-loops.md"), markdown);
    writeFileAtomic(join(options.out, "real-loops.json"), json);
  }
  process.stdout.write(options.json ? json : markdown);
  if (judged.judgements !== undefined) {
    const unknown = catalogue.judged?.notFound.length ?? 0;
    if (unknown > 0) process.stderr.write(`loopsim: ${judged.file}: ${unknown} judged stretch id${unknown === 1 ? "" : "s"} not found by this run (listed in the catalogue under "Judged but not found")\n`);
  }
  if (bad.length > 0) {
    for (const line of badFileLines(bad)) process.stderr.write(`loopsim: ${line}\n`);
    throw new CheckFailed(`${bad.length} unreadable file${bad.length === 1 ? "" : "s"} skipped; the other ${catalogue.summary.sessions} sessions are in the catalogue (--strict stops at the first)`);
  }
}
