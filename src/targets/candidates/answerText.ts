// What a candidate rule reads of an answer, with the miner's own definitions (src/import/mask.ts,
// which `loopsim loops` uses too): whether it failed (src/import/failure.ts) or was refused
// without running (mask.ts rejectionOf), its failure signature (mask.ts failureSignature: the
// error's last line with digits, ids, paths and what the call put into it masked, so different
// commands failing for one reason give one signature), and its masked text.
import { exitCodeOf } from "../../import/facts.js";
import { outcomeFailed } from "../../import/failure.js";
import { answerLines, failureSignature, maskText, outcomeText, rejectionOf } from "../../import/mask.js";
import type { PeerOutcome } from "../peers/peerGuard.js";

/** Masked text is compared on its first characters: enough to tell two answers apart, bounded for long logs. */
export const SIGNATURE_CHARS = 2000;

export function answerFailed(outcome: PeerOutcome): boolean {
  return outcomeFailed({ type: "outcome", tool: outcome.tool, result: outcome.result, ...(outcome.error === undefined ? {} : { error: outcome.error }) });
}

/** What the tool said, without the status details an importer adds (the exit code is read apart). */
export function answerMessage(outcome: PeerOutcome): string {
  return outcomeText(outcome.error === undefined ? { result: outcome.result } : { error: outcome.error }, false);
}

/** The failure an answer reports, as the miner signs it, or undefined when it did not fail (or failed naming no failure). */
export function failureKey(outcome: PeerOutcome): string | undefined {
  const message = answerMessage(outcome);
  const refused = rejectionOf(message);
  if (refused !== undefined) return `refused: ${refused}`;
  if (!answerFailed(outcome)) return undefined;
  return failureSignature(message.slice(-SIGNATURE_CHARS), JSON.stringify(outcome.params ?? null) ?? "null", exitCodeOf(outcome));
}

/** The answer's masked text, as the tool and its first SIGNATURE_CHARS characters, when it did not fail and said something; else undefined. */
export function sameAnswerKey(outcome: PeerOutcome): string | undefined {
  const message = answerMessage(outcome);
  if (answerFailed(outcome) || rejectionOf(message) !== undefined || answerLines(message).length === 0) return undefined;
  return `${outcome.tool}\u0000${maskText(message.slice(0, SIGNATURE_CHARS))}`;
}
