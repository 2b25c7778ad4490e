// Any input a command accepts, as one stream of trace events with their places: a loopsim trace
// (checked line by line as `trace` does) or a session in one of the importers' formats.
import { UserError } from "../cli/errors.js";
import { parseEventLine } from "../io/eventSchema.js";
import { readLines } from "../io/lines.js";
import { filesUnder } from "../io/filesUnder.js";
import { formatOf, IMPORTERS, type DetectedFormat } from "./detect.js";
import { outcomeFailed } from "./failure.js";
import { emptyStats, type ImportedEvent, type ImportStats, type SessionFormat } from "./types.js";

export interface OpenedSession {
  readonly file: string;
  readonly format: DetectedFormat;
  readonly stats: ImportStats;
  readonly events: AsyncGenerator<ImportedEvent>;
}

async function* traceEvents(file: string, stats: ImportStats): AsyncGenerator<ImportedEvent> {
  let n = 0;
  const runs = new Set<string>();
  for await (const line of readLines(file)) {
    n++;
    if (line.trim() === "") continue;
    const parsed = parseEventLine(line, `${file}:${n}`);
    if (!parsed.ok) throw new UserError(parsed.problems.join("\n"));
    const e = parsed.event;
    runs.add((e.runId ?? "").trim());
    if (e.type === "call") stats.calls++;
    else if (e.type === "outcome") {
      stats.outcomes++;
    } else stats.compactions++;
    stats.runs = runs.size;
    yield { event: e, at: `${file}:${n}` };
  }
}

/** Failed outcomes are counted here, by the one definition (failure.ts), for every format. */
async function* countFailures(events: AsyncGenerator<ImportedEvent>, stats: ImportStats): AsyncGenerator<ImportedEvent> {
  for await (const imported of events) {
    if (outcomeFailed(imported.event)) stats.errors++;
    yield imported;
  }
}

export function openSession(file: string, format: SessionFormat | "auto" = "auto"): OpenedSession {
  const detected = file === "-" ? "trace" : formatOf(file, format);
  const stats = emptyStats();
  const raw = detected === "trace" ? traceEvents(file, stats) : IMPORTERS[detected].events(file, stats);
  return { file, format: detected, stats, events: countFailures(raw, stats) };
}

/** Files named, and the session-looking files below folders named, in a stable order. */
export function sessionFiles(paths: readonly string[]): string[] {
  return filesUnder(paths, (_path, name) => /\.(jsonl|traj|traj\.json)$/.test(name) && !name.endsWith(".trajectory.jsonl"));
}
