// `loopsim trace FILE|-`: runs a recorded trace, or a session file of any format loopsim imports,
// through a target, streaming. For a session, outputs are numbered by imported event (0-based)
// and a summary of the import goes to stderr. `planTraceFile` parses the arguments once,
// `runTraceFile` streams each output's line to its caller; the command line prints them.
import type { ResolvedConfig } from "../../models/config.js";
import { UserError } from "../io/errors.js";
import { outputJsonLine } from "../format/outputJson.js";
import { timelineLine } from "../format/timeline.js";
import { detectFormat } from "../import/detect.js";
import { openSession } from "../import/session.js";
import { statsLine } from "../import/summary.js";
import { article, plural } from "../format/words.js";
import type { SessionFormat } from "../import/types.js";
import { configFromOptions } from "../io/configFile.js";
import { resolveTarget } from "../targets/registry.js";
import { parseEventLine } from "../io/eventSchema.js";
import { readLines } from "../io/lines.js";
import { collect, sessionOver, type Target, type TargetOutput } from "../targets/target.js";
import type { ToolEvent } from "../../models/events.js";

/** What `loopsim trace` takes, as the command line (or a library caller) hands it over. */
export interface TraceArgs {
  /** A trace file (.jsonl), a session file of any format loopsim reads, or `-` for stdin. */
  readonly file: string;
  /** OpenClaw config file (JSON or JSON5); the defaults when absent. */
  readonly config?: string;
  /** The agent whose agents.list override applies (needs `config`). */
  readonly agent?: string;
  /** The target, as `--target` names it (default reference). */
  readonly target?: string;
  /** One JSON object per output instead of the timeline. */
  readonly json?: boolean;
  /** The input's format: undefined reads stdin as a loopsim trace and detects a file's format. */
  readonly format?: SessionFormat | "auto" | "trace";
}

/** A parsed trace run: the file, the config (resolved), the target (loaded), the format. */
export interface TraceOptions {
  readonly file: string;
  readonly config: ResolvedConfig;
  readonly json: boolean;
  readonly target: Target;
  /** --format: undefined reads stdin as a loopsim trace and detects a file's format. */
  readonly format?: SessionFormat | "auto" | "trace";
}

/**
 * Parses and checks what `trace` is given, once, before any event is read: the config, the
 * target, and a `--format trace` that the file's content contradicts. Each problem is a user
 * error (exitCode 2) naming the flag or the file.
 */
export async function planTraceFile(args: TraceArgs): Promise<TraceOptions> {
  if (args === null || typeof args !== "object" || typeof args.file !== "string" || args.file === "") throw new UserError("trace: file must be a trace or session file, or - for stdin");
  const config = configFromOptions(args.config, args.agent);
  const target = await resolveTarget(args.target ?? "reference");
  if (args.format === "trace" && args.file !== "-") {
    const found = detectFormat(args.file);
    if (found !== undefined && found !== "trace") throw new UserError(`${args.file}: --format trace, but the content is ${article(found)} session (leave --format out to detect it)`);
  }
  return { file: args.file, config, json: args.json === true, target, ...(args.format === undefined ? {} : { format: args.format }) };
}

/**
 * Runs a file through its target, streaming: each output's line (JSON, or the timeline's) goes to
 * `line` as it is made, in order; prints and writes nothing else. Returns the end-of-run summary
 * (what `loopsim trace` prints on stderr). An empty trace is a user error.
 */
export async function runTraceFile(options: TraceOptions, line: (text: string) => void | Promise<void>): Promise<string> {
  const path = options.file;
  if (options.format !== undefined && options.format !== "trace") return traceSession(path, { ...options, format: options.format }, line);
  const format = path === "-" || options.format === "trace" ? "trace" : (detectFormat(path) ?? "trace");
  if (format !== "trace") return traceSession(path, options, line);
  const render = options.json ? outputJsonLine : timelineLine;
  const source = path === "-" ? "<stdin>" : path;
  let read = 0;
  const tally = new RunTally();
  const lines = traceEvents(path, source);
  // A whole-trace target (a driven CLI) reads the trace in full first; others stream it.
  const whole = options.target.wholeTrace === undefined ? undefined : await collect(lines);
  const session = whole === undefined ? options.target.start(options.config) : sessionOver(options.target, options.config, whole.map((l) => l.event));
  for await (const { event, lineIndex } of whole ?? lines) {
    read++;
    tally.event(event);
    // Outputs are numbered by input line (0-based), blank lines included.
    for (const output of session.step(event)) {
      tally.add(output);
      await line(render({ ...output, index: lineIndex }));
    }
  }
  // An empty trace is no finding: "0 events, 0 blocks" would read as a guard that passed it.
  if (read === 0) throw new UserError(`${source}: no events in it (an empty trace: one JSON event per line; see docs/guide/formats.md)`);
  return tally.line(source);
}

/** A trace file's events with their 0-based line, blank lines skipped, each line checked. */
async function* traceEvents(path: string, source: string): AsyncGenerator<{ event: ToolEvent; lineIndex: number }> {
  let lineIndex = -1;
  for await (const line of readLines(path)) {
    lineIndex++;
    if (line.trim() === "") continue;
    const parsed = parseEventLine(line, `${source}:${lineIndex + 1}`);
    if (!parsed.ok) throw new UserError(parsed.problems.join("\n"));
    yield { event: parsed.event, lineIndex };
  }
}

/** What a whole trace came to, counted as the events and their outputs stream past. Every event
 * read counts, those that printed nothing too (most text events print nothing). */
class RunTally {
  private events = 0;
  private texts = 0;
  private textCuts = 0;
  private textWarnings = 0;
  private calls = 0;
  private warnings = 0;
  private emitted = 0;
  private blocks = 0;
  private aborts = 0;
  private ignored = 0;

  event(e: ToolEvent): void {
    this.events++;
    if (e.type === "message" || e.type === "thought") this.texts++;
  }

  add(o: TargetOutput): void {
    if (o.kind === "text") {
      if (o.verdict === "critical") this.textCuts++;
      else this.textWarnings++;
    } else if (o.kind === "call") {
      this.calls++;
      if (o.verdict === "warning") {
        this.warnings++;
        if (o.emitted) this.emitted++;
      } else if (o.verdict === "critical") this.blocks++;
    } else if (o.kind === "abort") this.aborts++;
    else if (o.kind === "ignored") this.ignored++;
  }

  line(source: string): string {
    // Text is told only in a trace that has some, so a trace of calls reads as it always has.
    const text = this.texts === 0 ? "" : `; ${plural(this.texts, "text event")}: ${plural(this.textCuts, "text cut")}, ${plural(this.textWarnings, "text warning")}`;
    return `${source}: ${plural(this.events, "event")}, ${plural(this.calls, "call")}: ${plural(this.warnings, "warning")} (${this.emitted} emitted), ${plural(this.blocks, "block")}, ${plural(this.aborts, "abort")}, ${plural(this.ignored, "event")} ignored after an abort${text}`;
  }
}

async function traceSession(path: string, options: TraceOptions, line: (text: string) => void | Promise<void>): Promise<string> {
  const opened = await openSession(path, options.format === undefined || options.format === "trace" ? "auto" : options.format);
  const whole = options.target.wholeTrace === undefined ? undefined : await collect(opened.events);
  const session = whole === undefined ? options.target.start(options.config) : sessionOver(options.target, options.config, whole.map((e) => e.event));
  const render = options.json ? outputJsonLine : timelineLine;
  let index = 0;
  for await (const { event, at } of whole ?? opened.events) {
    for (const output of session.step(event)) {
      const text = render({ ...output, index });
      await line(options.json ? text : `${text}  @ ${at.slice(at.lastIndexOf("/") + 1)}`);
    }
    index++;
  }
  return statsLine(path === "-" ? "<stdin>" : path, opened.format, opened.stats);
}
