// Gemini CLI's content-loop rule (LoopDetectionService.checkContentLoop, gemini-cli-core 0.61.0,
// dist/src/services/loopDetectionService.js lines 12-15 and 276-400), written from its behaviour:
// the streamed text of one model response is read in 50-character windows sliding one character
// at a time; a window seen for the 10th time, its last 10 sightings on average at most 250
// characters apart and the text between them taking at most 5 distinct forms, is a loop. Text
// that opens a markdown element (a code fence, a table, a list item, a heading, a quote) starts
// the tracking afresh; text inside a code block and "dividers" are not read; the text kept is
// the last 5000 characters. The list-item and divider regexes are copied as they behave, not as
// they were meant: `[*-+]` is the range * to +, so a '- ' bullet is no list item; `[+-_...]` is
// the range + to _, so a piece made only of capitals, digits and ,-./:;<=>?@[\]^_ is a divider
// (an all-caps chant without spaces is never read). test/geminiContentRegexes.test.ts pins both
// against the real service. A tool call request resets the tracking (chanting is one stream).
// Thoughts are not read (the service passes Thought events over).
// State is copied on write: a run's state is a value, as every peer reducer's.

export const CONTENT_CHUNK_SIZE = 50;
export const CONTENT_LOOP_THRESHOLD = 10;
export const CONTENT_MAX_HISTORY = 5000;
/** Sightings of a window further apart than this on average are not a loop. */
export const CONTENT_MAX_AVERAGE_DISTANCE = CONTENT_CHUNK_SIZE * 5;
/** More distinct texts between the sightings than this is a list sharing a prefix, not a loop. */
export const CONTENT_MAX_PERIODS = Math.floor(CONTENT_LOOP_THRESHOLD / 2);

export interface ContentState {
  readonly history: string;
  /** Where each 50-character window was seen, by its text. */
  readonly seen: ReadonlyMap<string, readonly number[]>;
  readonly next: number;
  readonly inCodeBlock: boolean;
}

export const CONTENT_IDLE: ContentState = { history: "", seen: new Map(), next: 0, inCodeBlock: false };

const TABLE = /(^|\n)\s*(\|.*\||[|+-]{3,})/;
// Only * and + bullets (the class is a range); see the header.
const LIST_ITEM = /(^|\n)\s*[*-+]\s/;
const NUMBERED_ITEM = /(^|\n)\s*\d+\.\s/;
const HEADING = /(^|\n)#+\s/;
const QUOTE = /(^|\n)>\s/;
// Any piece of capitals, digits and ,-./:;<=>?@[\]^_ (the class is a range); see the header.
const DIVIDER = /^[+-_=*\u2500-\u257F]+$/;

/** Feeds one piece of streamed text; `loop` when the rule fires on it. */
export function contentStep(state: ContentState, text: string): { state: ContentState; loop: boolean } {
  const fences = (text.match(/```/g) ?? []).length;
  const divider = DIVIDER.test(text);
  const opensElement = fences > 0 || TABLE.test(text) || LIST_ITEM.test(text) || NUMBERED_ITEM.test(text) || HEADING.test(text) || QUOTE.test(text) || divider;
  const base = opensElement ? { ...CONTENT_IDLE, inCodeBlock: state.inCodeBlock } : state;
  const inCodeBlock = fences % 2 === 0 ? base.inCodeBlock : !base.inCodeBlock;
  if (base.inCodeBlock || inCodeBlock || divider) return { state: { ...base, inCodeBlock }, loop: false };
  let history = base.history + text;
  let next = base.next;
  const seen = new Map<string, number[]>();
  for (const [k, v] of base.seen) seen.set(k, [...v]);
  if (history.length > CONTENT_MAX_HISTORY) {
    const cut = history.length - CONTENT_MAX_HISTORY;
    history = history.slice(cut);
    next = Math.max(0, next - cut);
    for (const [k, v] of seen) {
      const kept = v.map((i) => i - cut).filter((i) => i >= 0);
      if (kept.length > 0) seen.set(k, kept);
      else seen.delete(k);
    }
  }
  while (next + CONTENT_CHUNK_SIZE <= history.length) {
    const window = history.slice(next, next + CONTENT_CHUNK_SIZE);
    const at = seen.get(window);
    if (at === undefined) seen.set(window, [next]);
    else {
      at.push(next);
      if (at.length >= CONTENT_LOOP_THRESHOLD && clustered(history, at.slice(-CONTENT_LOOP_THRESHOLD))) {
        // The window stays where it is: the service does not move on past a detection.
        return { state: { history, seen, next, inCodeBlock }, loop: true };
      }
    }
    next++;
  }
  return { state: { history, seen, next, inCodeBlock }, loop: false };
}

function clustered(history: string, recent: readonly number[]): boolean {
  const first = recent[0] as number;
  const last = recent[recent.length - 1] as number;
  if ((last - first) / (recent.length - 1) > CONTENT_MAX_AVERAGE_DISTANCE) return false;
  const periods = new Set<string>();
  for (let i = 0; i + 1 < recent.length; i++) periods.add(history.slice(recent[i], recent[i + 1]));
  return periods.size <= CONTENT_MAX_PERIODS;
}

/** The detail the service reports: the text around the repeating window. */
export function contentDetail(state: ContentState): string {
  return `Repeating content detected: "${state.history.substring(Math.max(0, state.next - 20), state.next + CONTENT_CHUNK_SIZE).trim()}..."`;
}
