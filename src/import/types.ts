// What an importer makes of a recorded session: loopsim trace events, each with where it came
// from in the original file, and the counts a person checks the import against.
import type { ToolEvent } from "../../models/events.js";

import type { ElementSpan } from "./jsonDocument.js";

export const FORMATS = ["openclaw", "claude-code", "codex", "swe-agent", "mini-swe-agent", "adp", "openai-chat"] as const;
export type SessionFormat = (typeof FORMATS)[number];

/** A trace event and its place in the original file: a 1-based line, or a JSON path. */
export interface ImportedEvent {
  readonly event: ToolEvent;
  readonly at: string;
}

export interface ImportStats {
  calls: number;
  outcomes: number;
  /** Outcomes that are failures: error flags, errors, non-zero exit codes. */
  errors: number;
  compactions: number;
  runs: number;
  /** Outcomes whose call is not in the file (kept as orphan outcomes). */
  orphanOutcomes: number;
  /** Entry types the format does not document, skipped and counted (formats grow). */
  skipped: Record<string, number>;
  /** A last line cut short (a session still being written): reported, the rest used. */
  truncatedLastLine: boolean;
  /** Steps without a parseable action (no command, several, a malformed action): not calls. */
  formatErrors: number;
  /** Harness bookkeeping steps (SWE-agent's exit_cost, exit_context, ...): not calls. */
  harnessSteps: number;
  /** Message events: the model's text (a streamed message counts each chunk). */
  messages: number;
  /** Thought events: the model's reasoning. */
  thoughts: number;
  /** Other things worth saying about this file. */
  notes: string[];
}

export function emptyStats(): ImportStats {
  return { calls: 0, outcomes: 0, errors: 0, compactions: 0, runs: 0, orphanOutcomes: 0, skipped: {}, truncatedLastLine: false, formatErrors: 0, harnessSteps: 0, messages: 0, thoughts: 0, notes: [] };
}

export function skip(stats: ImportStats, what: string): void {
  stats.skipped[what] = (stats.skipped[what] ?? 0) + 1;
}

/**
 * One importer per format; `events` streams, filling `stats` as it goes. `span` is where one
 * session of a multi-session file lies (found when the file was listed), so that it alone is read.
 */
export interface Importer {
  readonly format: SessionFormat;
  events(file: string, stats: ImportStats, span?: ElementSpan): AsyncGenerator<ImportedEvent>;
  /**
   * The same events as `events`, as a plain iterable, when the importer can read this session
   * without waiting on a stream (a document small enough to be parsed whole, a span of a
   * multi-session file); undefined otherwise, and `events` reads it. Going through a session an
   * await at a time cost an async step per message at each layer (issue 35, bench row "loops").
   */
  wholeEvents?(file: string, stats: ImportStats, span?: ElementSpan): Iterable<ImportedEvent> | undefined;
}

/**
 * The model's text as a trace event, or nothing when there is no text to read (an empty block, a
 * redacted or encrypted reasoning block). The text is kept as the file has it.
 */
export function textEvent(type: "message" | "thought", runId: string, text: unknown, at: string): ImportedEvent | undefined {
  if (typeof text !== "string" || text.trim() === "") return undefined;
  return { event: { type, runId, text }, at };
}

/** A text result in the shape OpenClaw's tools return. */
export function textResult(text: string, details?: Record<string, unknown>): Record<string, unknown> {
  return details === undefined ? { content: [{ type: "text", text }] } : { content: [{ type: "text", text }], details };
}

/** Calls waiting for their outcome, by call id; an outcome whose call is not here is an orphan. */
export class CallBook<T> {
  private readonly waiting = new Map<string, T>();

  constructor(private readonly stats: ImportStats) {}

  opened(callId: string | undefined, call: T): void {
    if (callId !== undefined) this.waiting.set(callId, call);
  }

  /** The call an outcome belongs to (no longer waiting), or undefined for an orphan outcome. */
  closed(callId: string | undefined): T | undefined {
    const call = callId === undefined ? undefined : this.waiting.get(callId);
    if (call === undefined) this.stats.orphanOutcomes++;
    else this.waiting.delete(callId as string);
    return call;
  }
}
