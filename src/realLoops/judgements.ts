// A person's reading of mined stretches: each stretch id (stretchId) judged stuck or a false
// alarm (work that was progressing), with a one-line reason, and the criteria the reader used.
// The catalogue's precision is computed from this file, and a test recomputes it the same way.
import { isPlainObject } from "../../models/outcomeHash.js";
import { UserError } from "../io/errors.js";
import { readTextFile } from "../io/textFile.js";
import { wilson, type Interval } from "../stats/interval.js";

export const VERDICTS = ["stuck", "false-alarm"] as const;
export type Verdict = (typeof VERDICTS)[number];

export interface Judgement {
  readonly verdict: Verdict;
  readonly reason: string;
}

export interface Judgements {
  readonly file: string;
  readonly criteria: readonly string[];
  readonly byId: ReadonlyMap<string, Judgement>;
}

/** A stretch's key: the session and its first call. Stretches never overlap, so it is unique, and it survives a change of the stretch's end. */
export const stretchId = (session: string, firstCall: number): string => `${session}@${firstCall}`;

export function loadJudgements(file: string): Judgements {
  let raw: unknown;
  try {
    raw = JSON.parse(readTextFile(file, "judgements file"));
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new UserError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  const problems: string[] = [];
  if (!isPlainObject(raw)) throw new UserError(`${file}: must be a JSON object {criteria: [...], judgements: {ID: {verdict, reason}}}`);
  const criteria = Array.isArray(raw.criteria) && raw.criteria.every((c) => typeof c === "string") ? (raw.criteria as string[]) : (problems.push(`${file}: $.criteria: a list of strings`), []);
  const byId = new Map<string, Judgement>();
  if (!isPlainObject(raw.judgements)) problems.push(`${file}: $.judgements: an object mapping stretch ids to {verdict, reason}`);
  else {
    for (const [id, value] of Object.entries(raw.judgements)) {
      const at = `${file}: $.judgements[${JSON.stringify(id)}]`;
      if (!isPlainObject(value) || !(VERDICTS as readonly unknown[]).includes(value.verdict) || typeof value.reason !== "string" || value.reason.trim() === "") {
        problems.push(`${at}: {verdict: "stuck" or "false-alarm", reason: a line}`);
        continue;
      }
      byId.set(id, { verdict: value.verdict as Verdict, reason: value.reason });
    }
  }
  if (problems.length > 0) throw new UserError(problems.join("\n"));
  return { file, criteria, byId };
}

export interface Precision {
  readonly judged: number;
  readonly stuck: number;
  readonly falseAlarms: number;
  /** Stretches found that the file does not judge (new ones after a change of the definition or the corpus). */
  readonly unjudged: readonly string[];
  readonly precision: number;
  readonly interval: Interval;
}

/** Precision of the stretches found (their ids), by the judgements: stuck over judged. */
export function precisionOf(ids: readonly string[], judgements: Judgements): Precision {
  let stuck = 0;
  let falseAlarms = 0;
  const unjudged: string[] = [];
  for (const id of ids) {
    const j = judgements.byId.get(id);
    if (j === undefined) unjudged.push(id);
    else if (j.verdict === "stuck") stuck++;
    else falseAlarms++;
  }
  const judged = stuck + falseAlarms;
  return { judged, stuck, falseAlarms, unjudged, precision: judged === 0 ? 0 : Math.round((stuck / judged) * 10_000) / 10_000, interval: wilson(stuck, judged) };
}
