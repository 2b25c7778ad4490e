// `loopsim loops PATH... [--json] [--out DIR] [--min N] [--judgements F]`: the stuck stretches
// in recorded sessions, by a definition that belongs to no guard (src/realLoops/mine.ts). A
// command of its own, not a `scan` option: scan runs sessions through a guard and a config, and
// this reads them with neither, so none of scan's --config, --target or --agent would apply.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ToolEvent } from "../../models/events.js";
import { CheckFailed, UserError } from "../io/errors.js";
import { badFileLines, reasonOf, sessionRefs } from "../import/sessionRefs.js";
import { writeFileAtomic } from "../io/atomicWrite.js";
import { refuseOverwrite } from "../io/overwrite.js";
import { ensureWritableDir } from "../io/writable.js";
import { readSessionEvents } from "../sessions/recorded.js";
import { CatalogueBuilder, catalogueJson, catalogueMarkdown } from "../realLoops/catalogue.js";
import { loadJudgements } from "../realLoops/judgements.js";
import { DEFAULT_MINE_PARAMETERS, type MineParameters } from "../realLoops/mine.js";

export const CATALOGUE_FILES = ["real-loops.md", "real-loops.json"] as const;
/** Read from --out when --judgements is not given: the catalogue is regenerated with its reading. */
export const JUDGEMENTS_FILE = "judgements.json";

export interface LoopsOptions {
  readonly json: boolean;
  readonly out?: string;
  readonly force?: boolean;
  readonly strict?: boolean;
  /** Calls a repeat or a failing run needs (an alternation needs twice as many). */
  readonly min?: number;
  readonly judgements?: string;
}

export function mineParameters(min: number | undefined): MineParameters {
  if (min === undefined) return DEFAULT_MINE_PARAMETERS;
  if (min < 2) throw new UserError(`--min ${min}: a stretch repeats something, so it needs at least 2 calls`);
  return { repeat: min, failing: min, alternation: 2 * min };
}

export async function loopsCommand(paths: readonly string[], options: LoopsOptions): Promise<void> {
  if (options.out !== undefined) {
    ensureWritableDir(options.out);
    refuseOverwrite(options.out, CATALOGUE_FILES, options.force === true);
  }
  const judgementsFile = options.judgements ?? (options.out !== undefined && existsSync(join(options.out, JUDGEMENTS_FILE)) ? join(options.out, JUDGEMENTS_FILE) : undefined);
  const judgements = judgementsFile === undefined ? undefined : loadJudgements(judgementsFile);
  const { refs, bad } = await sessionRefs(paths, options.strict === true);
  if (refs.length === 0 && bad.length === 0) throw new UserError(`no session files (*.jsonl, *.traj, *.traj.json, *.json, each also .gz) under ${paths.join(", ")}`);
  const builder = new CatalogueBuilder(paths, mineParameters(options.min), judgements);
  for (const { ref, id, span } of refs) {
    let read: { events: ToolEvent[]; format: string };
    try {
      // The span found by the listing: a session of a multi-session file is read from its bytes alone.
      read = await readSessionEvents(ref, span);
    } catch (error) {
      // A file that fails while it is read is reported and skipped, as scan does.
      if (options.strict === true || !(error instanceof UserError)) throw error;
      bad.push({ file: ref, reason: reasonOf(error, ref) });
      continue;
    }
    if (read.events.some((e) => e.type === "call")) builder.add(id, read.format, read.events);
  }
  const catalogue = builder.finish(bad);
  const markdown = catalogueMarkdown(catalogue);
  const json = catalogueJson(catalogue);
  if (options.out !== undefined) {
    writeFileAtomic(join(options.out, "real-loops.md"), markdown);
    writeFileAtomic(join(options.out, "real-loops.json"), json);
  }
  process.stdout.write(options.json ? json : markdown);
  if (bad.length > 0) {
    for (const line of badFileLines(bad)) process.stderr.write(`loopsim: ${line}\n`);
    throw new CheckFailed(`${bad.length} unreadable file${bad.length === 1 ? "" : "s"} skipped; the other ${catalogue.summary.sessions} sessions are in the catalogue (--strict stops at the first)`);
  }
}
