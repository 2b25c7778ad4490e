// The development readings split in two halves, so that a round of rules can be written with one
// half in view and measured on the other. By the end of the seventh round nearly every session
// with calls had been read whole (no unread sessions were left to hold out), and every read batch
// had shaped some round: a new round needs sessions its authors never opened. The split is by
// the session ref alone (the parity of its SHA-1), so it is fixed before any rule is written, owes
// nothing to what the sessions hold, and anyone can recompute it (python: int(sha1(ref), 16) % 2).
// Even is the fit half, odd the test half. The figures are recall on each half, beside the recall
// of record: the test half's recall before and after a round (its protocol lines say the before)
// is what the round adds on sessions it was not fitted to. (The catalogue measures each half.)
import { createHash } from "node:crypto";
import { isPlainObject } from "../../models/outcomeHash.js";

export const SPLIT_SCHEMES = ["sha1-parity"] as const;
export type SplitScheme = (typeof SPLIT_SCHEMES)[number];
export type Half = "fit" | "test";

export interface DevelopmentSplit {
  readonly scheme: SplitScheme;
  /** Which round wrote rules with the fit half in view, who saw what, and the figures before it. */
  readonly protocol: readonly string[];
}

/** The half a session ref falls in: the parity of its SHA-1 (hex, read as a number). */
export function halfOf(ref: string): Half {
  const hex = createHash("sha1").update(ref, "utf8").digest("hex");
  return Number.parseInt(hex.charAt(hex.length - 1), 16) % 2 === 0 ? "fit" : "test";
}

/** `$.developmentSplit`, parsed; problems are pushed, naming the JSON path. */
export function parseDevelopmentSplit(raw: unknown, at: string, problems: string[]): DevelopmentSplit | undefined {
  if (!isPlainObject(raw)) {
    problems.push(`${at}: {scheme: "sha1-parity", protocol: [lines]}`);
    return undefined;
  }
  const scheme = (SPLIT_SCHEMES as readonly unknown[]).includes(raw.scheme) ? (raw.scheme as SplitScheme) : undefined;
  if (scheme === undefined) problems.push(`${at}.scheme: one of ${SPLIT_SCHEMES.join(", ")} (got ${JSON.stringify(raw.scheme)})`);
  const protocol = Array.isArray(raw.protocol) && raw.protocol.every((l) => typeof l === "string") ? (raw.protocol as string[]) : undefined;
  if (protocol === undefined) problems.push(`${at}.protocol: a list of strings`);
  return scheme === undefined || protocol === undefined ? undefined : { scheme, protocol };
}

/** The sessions of one half, in their order. */
export function halfOfReadings<T>(sessions: ReadonlyMap<string, T>, half: Half): Map<string, T> {
  return new Map([...sessions].filter(([ref]) => halfOf(ref) === half));
}
