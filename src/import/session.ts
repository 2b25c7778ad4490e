// Any input a command accepts, as one stream of trace events with their places: a loopsim trace
// (checked line by line as `trace` does) or a session in one of the importers' formats.
import { UserError } from "../io/errors.js";
import { depthProblems, parseEventLine } from "../io/eventSchema.js";
import { readLines } from "../io/lines.js";
import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { detectFormat, formatOf, IMPORTERS, multiSessionFormat, type DetectedFormat } from "./detect.js";
import { outcomeFailed } from "./failure.js";
import { TraceOrphans } from "./orphans.js";
import { article } from "../format/words.js";
import type { ElementSpan } from "./jsonDocument.js";
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
  const orphans = new TraceOrphans();
  for await (const line of readLines(file)) {
    n++;
    if (line.trim() === "") continue;
    const parsed = parseEventLine(line, `${file}:${n}`);
    if (!parsed.ok) throw new UserError(parsed.problems.join("\n"));
    const e = parsed.event;
    runs.add((e.runId ?? "").trim());
    if (e.type === "call") {
      stats.calls++;
      orphans.see(e);
    } else if (e.type === "outcome") {
      stats.outcomes++;
      if (orphans.see(e)) stats.orphanOutcomes++;
    } else if (e.type === "compaction") stats.compactions++;
    stats.runs = runs.size;
    yield { event: e, at: `${file}:${n}` };
  }
}

/**
 * Failed outcomes are counted here, by the one definition (failure.ts), for every format, and
 * model text too; text is passed on only when the reader wants it.
 */
async function* counted(events: AsyncGenerator<ImportedEvent>, stats: ImportStats, text: boolean): AsyncGenerator<ImportedEvent> {
  for await (const imported of events) if (passedOn(imported, stats, text)) yield imported;
}
/** counted over a plain iterable (an importer's wholeEvents). */
function* countedNow(events: Iterable<ImportedEvent>, stats: ImportStats, text: boolean): Generator<ImportedEvent> {
  for (const imported of events) if (passedOn(imported, stats, text)) yield imported;
}
/** Counts one event (see counted) and says whether it is passed on. */
function passedOn(imported: ImportedEvent, stats: ImportStats, text: boolean): boolean {
  const event = imported.event;
  if (event.type === "message" || event.type === "thought") {
    if (event.type === "message") stats.messages++;
    else stats.thoughts++;
    return text;
  }
  const deep = depthProblems(event as unknown as Record<string, unknown>, imported.at);
  if (deep.length > 0) throw new UserError(deep.join("\n"));
  if (outcomeFailed(event)) stats.errors++;
  return true;
}

export interface OpenOptions {
  /**
   * Whether model text (message and thought events) comes through. Readers that hold a whole
   * session in memory and run only guards blind to text leave it out (see readSessionEvents):
   * a session's text can outweigh its tool calls many times over.
   */
  readonly text?: boolean;
  /** Where a trajectory of a multi-session file lies, when its listing found it. */
  readonly span?: ElementSpan;
  /** The format its listing detected (src/import/sessionRefs.ts), for an "auto" read: not detected again. */
  readonly detected?: DetectedFormat;
}

/**
 * A session by its ref (a file, `file#id`, or "-" for stdin), read as `format` (auto: from its
 * content). Stdin is first copied to a private temporary file so that any format can be detected
 * and streamed; places then name <stdin>. A format named with --format that the content
 * contradicts is the user's mistake (exit 2), never a silent empty import. `span` is where a
 * trajectory of a multi-session file lies, when its listing found it.
 */
export async function openSession(ref: string, format: SessionFormat | "auto" = "auto", options: OpenOptions = {}): Promise<OpenedSession> {
  const spooled = ref === "-" ? await spoolStdin() : undefined;
  const file = spooled ?? ref;
  try {
    // A span comes from listing a multi-session file (ADP, a tau-bench list): its format is
    // detected once per file, not once per session (its head would be read again each time).
    const detected = format === "auto" && options.detected !== undefined && spooled === undefined ? options.detected : options.span !== undefined && format === "auto" ? multiSessionFormat(file) : formatOf(file, format);
    if (format !== "auto") {
      const found = detectFormat(file);
      if (found !== undefined && found !== format) throw new UserError(`${ref === "-" ? STDIN : ref}: --format ${format}, but the content is ${found === "trace" ? "a loopsim trace" : `${article(found)} session`} (leave --format out to detect it)`);
    }
    const stats = emptyStats();
    const raw = detected === "trace" ? traceEvents(file, stats) : IMPORTERS[detected].events(file, stats, options.span);
    const events = counted(raw, stats, options.text !== false);
    return { file: ref, format: detected, stats, events: spooled === undefined ? events : renamed(events, spooled, STDIN) };
  } catch (error) {
    throw spooled === undefined ? error : stdinNamed(error, spooled);
  }
}

/**
 * What openSession(ref, "auto", {detected, span, text}) reads, as a plain iterable, when the
 * format's importer can read the session without waiting on a stream (Importer.wholeEvents);
 * undefined otherwise (then openSession reads it). For a reader that takes every event of a
 * session at once (readSessionEvents): the same events and counts, without an async step per
 * event at each layer.
 */
export function wholeSessionEvents(ref: string, detected: DetectedFormat, options: Pick<OpenOptions, "text" | "span"> = {}): { readonly format: DetectedFormat; readonly stats: ImportStats; readonly events: Iterable<ImportedEvent> } | undefined {
  if (ref === "-" || detected === "trace") return undefined;
  const stats = emptyStats();
  const raw = IMPORTERS[detected].wholeEvents?.(ref, stats, options.span);
  return raw === undefined ? undefined : { format: detected, stats, events: countedNow(raw, stats, options.text !== false) };
}

/** Standard input, as every message and report names it (never "-", never the spool file). */
export const STDIN = "<stdin>";

/** An error about the spool file of standard input, reworded to name standard input. */
function stdinNamed(error: unknown, spooled: string): unknown {
  if (!(error instanceof UserError) || !error.message.includes(spooled)) return error;
  return new UserError(error.message.split(spooled).join(STDIN));
}

async function spoolStdin(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "loopsim-stdin-"));
  const file = join(dir, "stdin");
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  await pipeline(process.stdin, createWriteStream(file));
  return file;
}

async function* renamed(events: AsyncGenerator<ImportedEvent>, from: string, to: string): AsyncGenerator<ImportedEvent> {
  try {
    for await (const e of events) yield e.at.startsWith(from) ? { ...e, at: to + e.at.slice(from.length) } : e;
  } catch (error) {
    throw stdinNamed(error, from);
  }
}
