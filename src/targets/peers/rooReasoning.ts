// Roo Code's reasoning-repetition rule (its ReasoningRepetitionDetector, read from source through
// code search; modelled, not driven: no Roo runtime runs here). Reasoning streams in chunks; the
// text is cut into complete lines (the unfinished last line waits for the next chunk), each line
// normalised (trimmed, inner whitespace collapsed, lower-cased); lines shorter than 20 characters
// are not counted; any one line seen 5 times is a loop. The counts are per model request (the
// detector is reset at each new API request), not per run of consecutive lines: the 5 sightings
// may be interleaved with other lines. The unfinished last line is counted once the stream ends,
// before the response's tool calls are processed. Only reasoning is read, never the message.
// State is copied on write: a run's state is a value, as every peer reducer's.

/** Defaults of the detector's constructor: repetitionThreshold = 5, minLineLength = 20. */
export const ROO_REASONING_REPEATS = 5;
export const ROO_REASONING_MIN_LINE = 20;

export interface ReasoningState {
  readonly counts: ReadonlyMap<string, number>;
  /** The unfinished last line of the reasoning streamed so far. */
  readonly pending: string;
}

export const REASONING_IDLE: ReasoningState = { counts: new Map(), pending: "" };

const normaliseLine = (line: string): string => line.trim().replace(/\s+/g, " ").toLowerCase();

function countLines(counts: ReadonlyMap<string, number>, lines: readonly string[]): { counts: ReadonlyMap<string, number>; loop: { line: string; count: number } | undefined } {
  const next = new Map(counts);
  for (const raw of lines) {
    const line = normaliseLine(raw);
    if (line.length < ROO_REASONING_MIN_LINE) continue;
    const count = (next.get(line) ?? 0) + 1;
    next.set(line, count);
    if (count >= ROO_REASONING_REPEATS) return { counts: next, loop: { line, count } };
  }
  return { counts: next, loop: undefined };
}

/** One streamed piece of reasoning in; `loop` names the line that reached 5 sightings. */
export function reasoningChunk(state: ReasoningState, chunk: string): { state: ReasoningState; loop: { line: string; count: number } | undefined } {
  const lines = `${state.pending}${chunk}`.split("\n");
  const pending = lines.pop() ?? "";
  const { counts, loop } = countLines(state.counts, lines);
  return { state: { counts, pending }, loop };
}

/** The stream ended: its unfinished last line is counted too. */
export function reasoningEnd(state: ReasoningState): { state: ReasoningState; loop: { line: string; count: number } | undefined } {
  if (state.pending === "") return { state, loop: undefined };
  const { counts, loop } = countLines(state.counts, [state.pending]);
  return { state: { counts, pending: "" }, loop };
}
