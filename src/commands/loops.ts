// `loopsim loops PATH... [--json] [--out DIR] [--min N] [--labels F]... [--judgements F] [--shard I/N] [--workers N]`
// and `loopsim loops --merge PARTS...`: the stuck stretches in recorded sessions, by a definition
// that belongs to no guard (src/realLoops/mine.ts). A command of its own, not a `scan` option: scan
// runs sessions through a guard and a config, and this reads them with neither, so none of scan's
// --config, --target or --agent would apply. A shard mines every N-th session of the listing and
// writes a partial result; the merge feeds the parts' rows, in listing order, to the same builder
// a whole run uses, so its catalogue is byte for byte the whole run's. `planLoops` (loopsPlan.ts)
// parses the options once; `runLoops` runs the plan into the catalogue and writes nothing; the
// command line (src/cli/loopsProgram.ts) writes and prints it.
import { isPlainObject } from "../../models/outcomeHash.js";
import { UserError } from "../io/errors.js";
import { badFileLines, ignoredNote, listedFiles, type BadFile } from "../import/sessionRefs.js";
import { partsIn, readShardParts, type ShardLayout } from "../io/shardParts.js";
import type { Shard } from "../io/shardSpec.js";
import { CatalogueBuilder, catalogueJson, catalogueMarkdown, type Catalogue, type SessionRow } from "../realLoops/catalogue.js";
import type { MineParameters } from "../realLoops/mine.js";
import type { ListedSession } from "./loopsSession.js";
import { sessionMiner, type SessionMiner } from "./loopsThreads.js";
import { PARTIAL_PREFIX, type JudgedFile, type LoopsPlan } from "./loopsPlan.js";

export { CATALOGUE_FILES, JUDGEMENTS_FILE, mineParameters, partialFileName, planLoops, type LoopsArgs, type LoopsPlan } from "./loopsPlan.js";
export const LOOPS_PARTIAL_SCHEMA = "loopsim/real-loops-partial@1";

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

/** What a `loops` run made: the whole run's catalogue, or one shard's partial for --merge. */
export type LoopsRun =
  | {
      readonly kind: "catalogue";
      readonly catalogue: Catalogue;
      /** The catalogue as real-loops.md and real-loops.json hold it. */
      readonly markdown: string;
      readonly json: string;
      /** The judgements file read, and how many of its stretch ids this run did not find. */
      readonly judgementsFile?: string;
      readonly judgedNotFound: number;
      /** Files skipped as unreadable (each is in the catalogue too). */
      readonly unreadable: readonly BadFile[];
    }
  | {
      readonly kind: "partial";
      readonly shard: Shard;
      /** The partial as loops-partial-I-of-N.json holds it. */
      readonly text: string;
      readonly sessions: number;
      readonly listed: number;
    };

/** Where a run's notes go (files passed over by the listing), as they arise; the caller prints them. */
export interface LoopsSink {
  readonly notice?: (line: string) => void;
}

/**
 * Runs a plan (planLoops) into the catalogue, or a shard's partial; writes and prints nothing.
 * A file that fails while it is read is skipped and listed (with `strict`, it stops the run); no
 * readable session at all is a user error.
 */
export async function runLoops(plan: LoopsPlan, sink: LoopsSink = {}): Promise<LoopsRun> {
  switch (plan.kind) {
    case "mine":
      return mine(plan, sink);
    case "merge": {
      const partials = readShardParts(partsIn(plan.parts, PARTIAL_PREFIX), LOOPS_SHARDS);
      const inputs = (partials[0] as (typeof partials)[number]).inputs;
      const rows = partials.flatMap((p) => p.rows).sort((a, b) => a.at - b.at);
      return catalogueOf(inputs, rows, plan.judged, plan.out);
    }
    default: {
      const unhandled: never = plan;
      throw new Error(`unhandled loops plan ${JSON.stringify(unhandled)}`);
    }
  }
}

async function mine(plan: Extract<LoopsPlan, { kind: "mine" }>, sink: LoopsSink): Promise<LoopsRun> {
  const { paths, parameters, labels, shard, strict } = plan;
  // Each file is read as soon as it is listed, while its inflated content is still at hand
  // (src/import/sessionRefs.ts listedFiles), here or in a worker thread (loopsThreads.ts): the rows,
  // the listing and its positions are those of listing every file first and reading after (as a
  // shard of the listing needs), in the same order.
  const miner = sessionMiner(plan.workers ?? 1, { parameters, labels, strict });
  const listingBad: BadFile[] = [];
  const passedOver: string[] = [];
  let listedCount = 0;
  let mined: Awaited<ReturnType<SessionMiner["finish"]>>;
  try {
    for await (const file of listedFiles(paths, strict, miner.reader)) {
      if ("bad" in file) {
        listingBad.push(file.bad);
        continue;
      }
      if (file.refs.length === 0) passedOver.push(file.file);
      const sessions: ListedSession[] = [];
      for (const { ref, id, span, format } of file.refs) {
        const at = listedCount++;
        if (shard !== undefined && at % shard.of !== shard.index - 1) continue;
        sessions.push({ at, ref, id, ...(span === undefined ? {} : { span }), ...(format === undefined ? {} : { format }) });
      }
      await miner.file(file.file, sessions);
    }
    // With --strict, a listing problem is the error even after a session that could not be read
    // (the listing came first): the reading problem waits for the listing to finish.
    mined = await miner.finish();
  } catch (error) {
    await miner.abort();
    throw error;
  }
  const rows = mined.rows;
  const note = ignoredNote(passedOver);
  if (note !== undefined) sink.notice?.(note);
  if (listedCount === 0 && listingBad.length === 0) throw new UserError(`no session files (*.jsonl, *.traj, *.traj.json, *.json, each also .gz) under ${paths.join(", ")}`);
  if (mined.unreadable !== undefined) throw mined.unreadable;
  const inputs: LoopsInputs = { paths, min: plan.min, labels: plan.labelFiles, parameters, listed: listedCount, listingBad, passedOver };
  if (plan.shard !== undefined) {
    const shard = plan.shard;
    return { kind: "partial", shard, text: `${JSON.stringify({ schema: LOOPS_PARTIAL_SCHEMA, shard, inputs, rows }, null, 2)}\n`, sessions: rows.length, listed: inputs.listed };
  }
  return catalogueOf(inputs, rows, plan.judged, plan.out);
}

const LOOPS_SHARDS: ShardLayout<LoopsInputs, SessionRow> = {
  schema: LOOPS_PARTIAL_SCHEMA,
  writer: "loopsim loops",
  inputsAre: "paths, --min, --labels, the listing",
  rowsAre: "sessions",
  expected: (inputs, index, of) => Array.from({ length: inputs.listed }, (_, at) => at).filter((at) => at % of === index - 1).map(String),
  idOf: (row) => (isPlainObject(row) && Number.isInteger(row.at) && typeof row.id === "string" ? String(row.at) : undefined),
};

function catalogueOf(inputs: LoopsInputs, rows: readonly SessionRow[], judged: JudgedFile, out: string | undefined): LoopsRun {
  const builder = new CatalogueBuilder({ command: commandLine(inputs, judged.file, out), paths: inputs.paths, parameters: inputs.parameters }, judged.judgements);
  for (const row of rows) builder.addRow(row);
  const catalogue: Catalogue = builder.finish(inputs.listingBad, inputs.passedOver);
  const bad = catalogue.unreadable;
  // Nothing read: no catalogue (an empty one would read as "no loops found").
  if (catalogue.summary.sessions === 0 && bad.length > 0) throw new UserError(`${inputs.paths.join(" ")}: no readable sessions (${bad.length} file${bad.length === 1 ? "" : "s"} could not be read):\n${badFileLines(bad).join("\n")}`);
  return {
    kind: "catalogue",
    catalogue,
    markdown: catalogueMarkdown(catalogue),
    json: catalogueJson(catalogue),
    ...(judged.file === undefined ? {} : { judgementsFile: judged.file }),
    judgedNotFound: judged.judgements === undefined ? 0 : (catalogue.judged?.notFound.length ?? 0),
    unreadable: bad,
  };
}
