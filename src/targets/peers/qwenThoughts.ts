// Qwen Code's repeated-thoughts rule (qwen-code 0.24.4, chunks/chunk-DPEB6S2R.js: THOUGHT_REPEAT_THRESHOLD
// = 3 and MAX_THOUGHT_HISTORY = 50 at lines 38005-38006, trackThought and checkRepetitiveThoughts at
// 38842-38872, the history emptied at every tool call request at 38325), written from its
// behaviour: each thought is read as a summary (a **subject** and the rest as its description,
// as its parseThought does), its signature is the subject and the first 200 characters of the
// description, trimmed and lower-cased; the 3rd identical signature in a row, with no tool call
// between, is a loop. The rule belongs to Qwen's heuristic tier, which its CLI runs only when
// skipLoopDetection is off (it is on by default), so the default Qwen model does not read text;
// this is the rule for a model of that tier.

export const QWEN_THOUGHT_REPEATS = 3;
export const QWEN_THOUGHT_HISTORY = 50;
const DESCRIPTION_KEPT = 200;

/** A thought's summary as Qwen reads it: the first **bold** span is its subject. */
export function thoughtSummary(text: string): { subject: string; description: string } {
  const start = text.indexOf("**");
  const end = start === -1 ? -1 : text.indexOf("**", start + 2);
  if (end === -1) return { subject: "", description: text };
  return { subject: text.slice(start + 2, end).trim(), description: (text.slice(0, start) + text.slice(end + 2)).trim() };
}

export function thoughtSignature(text: string): string {
  const { subject, description } = thoughtSummary(text);
  return `${subject.trim().toLowerCase()}|${description.trim().toLowerCase().slice(0, DESCRIPTION_KEPT)}`;
}

/** The thoughts since the last tool call, newest last (at most QWEN_THOUGHT_HISTORY). */
export type ThoughtHistory = readonly string[];

/** One thought in; `loop` when it is the 3rd identical signature in a row. */
export function thoughtStep(history: ThoughtHistory, text: string): { history: ThoughtHistory; loop: boolean } {
  const next = [...history, thoughtSignature(text)].slice(-QWEN_THOUGHT_HISTORY);
  if (next.length < QWEN_THOUGHT_REPEATS) return { history: next, loop: false };
  const recent = next.slice(-QWEN_THOUGHT_REPEATS);
  return { history: next, loop: recent.every((s) => s === recent[0]) };
}
