// What a candidate rule reads of an answer: whether it failed (the one definition every command
// uses, src/import/failure.ts), its text masked as the miner of real loops masks it
// (src/import/mask.ts: digits, ids, times and temporary paths become placeholders, so a line
// number or a request id that changes does not make a failure new), and whether it said anything.
import { outcomeFailed } from "../../import/failure.js";
import { maskText, outcomeText } from "../../import/mask.js";
import type { PeerOutcome } from "../peers/peerGuard.js";

/** Masked text is compared on its first characters: enough to tell two errors apart, bounded for long logs. */
export const SIGNATURE_CHARS = 2000;

export function answerFailed(outcome: PeerOutcome): boolean {
  return outcomeFailed({ type: "outcome", tool: outcome.tool, result: outcome.result, ...(outcome.error === undefined ? {} : { error: outcome.error }) });
}

/** The answer's masked text, as the tool and its first SIGNATURE_CHARS characters. */
export function maskedAnswer(outcome: PeerOutcome): string {
  const text = outcomeText(outcome.error === undefined ? { result: outcome.result } : { error: outcome.error });
  return `${outcome.tool}\u0000${maskText(text.slice(0, SIGNATURE_CHARS))}`;
}

/** The answer's own words (its text blocks, or its error), without the status details a result carries. */
export function saidNothing(outcome: PeerOutcome): boolean {
  if (outcome.error !== undefined) return outcome.error.trim() === "";
  const content = (outcome.result as { content?: unknown } | null | undefined)?.content;
  if (!Array.isArray(content)) return outcomeText({ result: outcome.result }).trim() === "";
  return content.every((c) => typeof (c as { text?: unknown })?.text !== "string" || (c as { text: string }).text.trim() === "");
}
