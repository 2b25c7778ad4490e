// A person's reading of the sessions, in two parts. `judgements`: mined stretches, each stretch id
// (stretchId) judged stuck or a false alarm (work that was progressing), with a one-line reason,
// and the criteria the reader used: the catalogue's precision. `sessions`: whole sessions read call
// by call, each with the ranges of calls the reader found stuck (and why), read without looking at
// what the miner found: the catalogue's recall, stuck calls the miner covers over stuck calls read.
// Calls are numbered from 0 in file order: every call answered, and every call recorded with no answer (the catalogue's definition says it per format).
import { isPlainObject } from "../../models/outcomeHash.js";
import { UserError } from "../io/errors.js";
import { readTextFile } from "../io/textFile.js";
import { wilson, type Interval } from "../stats/wilson.js";
import { raterAgreement, type RaterAgreement } from "../stats/raterAgreement.js";
import { parseDevelopmentSplit, type DevelopmentSplit } from "./developmentSplit.js";

export const VERDICTS = ["stuck", "false-alarm"] as const;
export type Verdict = (typeof VERDICTS)[number];

export interface Judgement {
  readonly verdict: Verdict;
  readonly reason: string;
}

/** Calls a reader found stuck in a session: an inclusive, 0-based range and why. */
export interface StuckRange {
  readonly from: number;
  readonly to: number;
  readonly reason: string;
}

/** A whole session read call by call. */
export interface SessionReading {
  readonly dataset?: string;
  readonly label?: string;
  /** Calls the reader counted (a check on the numbering: the miner must count as many). */
  readonly calls: number;
  readonly stuck: readonly StuckRange[];
  readonly note?: string;
}

export interface Judgements {
  readonly file: string;
  readonly criteria: readonly string[];
  readonly byId: ReadonlyMap<string, Judgement>;
  /** How the sessions were chosen and read (empty without a sessions section). */
  readonly protocol: readonly string[];
  readonly sessions: ReadonlyMap<string, SessionReading>;
  /** An independent second reading of some of the sessions, for agreement (and recall by it). */
  readonly secondReader?: { readonly protocol: readonly string[]; readonly sessions: ReadonlyMap<string, SessionReading> };
  /** How the two readers agree, as lines for the report. */
  readonly agreement: readonly string[];
  /**
   * Sessions read whole after the miner's rules were set, by readers who saw no miner output, and
   * never used to shape a rule: the recall a user can expect on sessions the rules were not fitted
   * to (the `sessions` section shaped the rules, so its recall is optimistic).
   */
  readonly heldOut?: {
    readonly protocol: readonly string[];
    readonly sessions: ReadonlyMap<string, SessionReading>;
    /** An independent reading of some held-out sessions, blind to the first: the readers' agreement. */
    readonly secondReader?: { readonly protocol: readonly string[]; readonly sessions: ReadonlyMap<string, SessionReading> };
    /** The stuck ranges of this reading read again, blind, by the precision criteria (src/realLoops/rangeRejudging.ts says why). */
    readonly rangesByPrecisionCriteria?: RangeRejudging;
  };
  /** A second, blind reading of a sample of the judged stretches, for the precision's agreement. */
  readonly precisionSecondReader?: { readonly protocol: readonly string[]; readonly byId: ReadonlyMap<string, Judgement> };
  /** The `sessions` reading split in a fit half and a test half (src/realLoops/developmentSplit.ts says why). */
  readonly developmentSplit?: DevelopmentSplit;
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
  const verdicts = (value: unknown, at: string): Map<string, Judgement> => {
    const out = new Map<string, Judgement>();
    if (!isPlainObject(value)) {
      problems.push(`${file}: ${at}: an object mapping stretch ids to {verdict, reason}`);
      return out;
    }
    for (const [id, v] of Object.entries(value)) {
      if (!isPlainObject(v) || !(VERDICTS as readonly unknown[]).includes(v.verdict) || typeof v.reason !== "string" || v.reason.trim() === "") {
        problems.push(`${file}: ${at}[${JSON.stringify(id)}]: {verdict: "stuck" or "false-alarm", reason: a line}`);
        continue;
      }
      out.set(id, { verdict: v.verdict as Verdict, reason: v.reason });
    }
    return out;
  };
  const byId = verdicts(raw.judgements, "$.judgements");
  const lines = (value: unknown, at: string): string[] => (value === undefined ? [] : Array.isArray(value) && value.every((c) => typeof c === "string") ? (value as string[]) : (problems.push(`${file}: ${at}: a list of strings`), []));
  const readings = (value: unknown, at: string): Map<string, SessionReading> => {
    const out = new Map<string, SessionReading>();
    if (value === undefined) return out;
    if (!isPlainObject(value)) problems.push(`${file}: ${at}: an object mapping session refs to {calls, stuck: [{from, to, reason}]}`);
    else
      for (const [ref, v] of Object.entries(value)) {
        const reading = sessionReading(v, `${file}: ${at}[${JSON.stringify(ref)}]`, problems);
        if (reading !== undefined) out.set(ref, reading);
      }
    return out;
  };
  const protocol = lines(raw.protocol, "$.protocol");
  const sessions = readings(raw.sessions, "$.sessions");
  const agreement = lines(raw.agreement, "$.agreement");
  let secondReader: Judgements["secondReader"];
  if (raw.secondReader !== undefined) {
    if (!isPlainObject(raw.secondReader)) problems.push(`${file}: $.secondReader: {protocol: [...], sessions: {REF: {calls, stuck}}}`);
    else secondReader = { protocol: lines(raw.secondReader.protocol, "$.secondReader.protocol"), sessions: readings(raw.secondReader.sessions, "$.secondReader.sessions") };
  }
  let heldOut: Judgements["heldOut"];
  if (raw.heldOut !== undefined) {
    if (!isPlainObject(raw.heldOut)) problems.push(`${file}: $.heldOut: {protocol: [...], sessions: {REF: {calls, stuck}}}`);
    else {
      const sessionsHeldOut = readings(raw.heldOut.sessions, "$.heldOut.sessions");
      const second = raw.heldOut.secondReader;
      let secondHeldOut: { protocol: readonly string[]; sessions: ReadonlyMap<string, SessionReading> } | undefined;
      if (second !== undefined) {
        if (!isPlainObject(second)) problems.push(`${file}: $.heldOut.secondReader: {protocol: [...], sessions: {REF: {calls, stuck}}}`);
        else {
          secondHeldOut = { protocol: lines(second.protocol, "$.heldOut.secondReader.protocol"), sessions: readings(second.sessions, "$.heldOut.secondReader.sessions") };
          for (const [ref, r] of secondHeldOut.sessions) {
            const firstReading = sessionsHeldOut.get(ref);
            if (firstReading === undefined) problems.push(`${file}: $.heldOut.secondReader.sessions[${JSON.stringify(ref)}]: a second reading of a session the first reading does not hold`);
            else if (firstReading.calls !== r.calls) problems.push(`${file}: $.heldOut.secondReader.sessions[${JSON.stringify(ref)}].calls: ${r.calls}, but the first reading counted ${firstReading.calls}`);
          }
        }
      }
      const rejudged = raw.heldOut.rangesByPrecisionCriteria === undefined ? undefined : parseRangeRejudging(raw.heldOut.rangesByPrecisionCriteria, `${file}: $.heldOut.rangesByPrecisionCriteria`, sessionsHeldOut, problems);
      heldOut = {
        protocol: lines(raw.heldOut.protocol, "$.heldOut.protocol"),
        sessions: sessionsHeldOut,
        ...(secondHeldOut === undefined ? {} : { secondReader: secondHeldOut }),
        ...(rejudged === undefined ? {} : { rangesByPrecisionCriteria: rejudged }),
      };
    }
  }
  let precisionSecondReader: Judgements["precisionSecondReader"];
  if (raw.precisionSecondReader !== undefined) {
    if (!isPlainObject(raw.precisionSecondReader)) problems.push(`${file}: $.precisionSecondReader: {protocol: [...], judgements: {ID: {verdict, reason}}}`);
    else {
      const second = verdicts(raw.precisionSecondReader.judgements, "$.precisionSecondReader.judgements");
      for (const id of second.keys()) if (!byId.has(id)) problems.push(`${file}: $.precisionSecondReader.judgements[${JSON.stringify(id)}]: a second reading of a stretch the first reading does not judge`);
      precisionSecondReader = { protocol: lines(raw.precisionSecondReader.protocol, "$.precisionSecondReader.protocol"), byId: second };
    }
  }
  const developmentSplit = raw.developmentSplit === undefined ? undefined : parseDevelopmentSplit(raw.developmentSplit, `${file}: $.developmentSplit`, problems);
  if (problems.length > 0) throw new UserError(problems.join("\n"));
  return {
    file,
    criteria,
    byId,
    protocol,
    sessions,
    ...(secondReader === undefined ? {} : { secondReader }),
    agreement,
    ...(heldOut === undefined ? {} : { heldOut }),
    ...(precisionSecondReader === undefined ? {} : { precisionSecondReader }),
    ...(developmentSplit === undefined ? {} : { developmentSplit }),
  };
}

/** One reader's verdict on a range, by the precision criteria. */
export interface RangeVerdict {
  readonly reader: string;
  readonly verdict: Verdict;
  readonly reason: string;
}

/** A held-out stuck range and its readings by the precision criteria. */
export interface RejudgedRange {
  readonly session: string;
  readonly from: number;
  readonly to: number;
  readonly readings: readonly RangeVerdict[];
}

export interface RangeRejudging {
  readonly protocol: readonly string[];
  readonly ranges: readonly RejudgedRange[];
}

/**
 * Parses `$.heldOut.rangesByPrecisionCriteria`. Each range must be one the held-out reading marked
 * stuck (same session, same from and to), read by at least one reader, each reader once.
 */
function parseRangeRejudging(value: unknown, at: string, heldOut: ReadonlyMap<string, SessionReading>, problems: string[]): RangeRejudging | undefined {
  if (!isPlainObject(value) || !Array.isArray(value.ranges)) return void problems.push(`${at}: {protocol: [...], ranges: [{session, from, to, readings: [{reader, verdict, reason}]}]}`);
  const protocol = Array.isArray(value.protocol) && value.protocol.every((p) => typeof p === "string") ? (value.protocol as string[]) : (problems.push(`${at}.protocol: a list of strings`), []);
  const ranges: RejudgedRange[] = [];
  const seen = new Set<string>();
  value.ranges.forEach((r, k) => {
    const where = `${at}.ranges[${k}]`;
    if (!isPlainObject(r) || typeof r.session !== "string" || !Number.isInteger(r.from) || !Number.isInteger(r.to) || !Array.isArray(r.readings)) return void problems.push(`${where}: {session, from, to, readings: [...]}`);
    const [session, from, to] = [r.session, r.from as number, r.to as number];
    const reading = heldOut.get(session);
    if (reading === undefined || !reading.stuck.some((s) => s.from === from && s.to === to)) return void problems.push(`${where}: calls ${from}-${to} of ${JSON.stringify(session)} are no stuck range of the held-out reading`);
    const key = `${session}@${from}-${to}`;
    if (seen.has(key)) return void problems.push(`${where}: ${key} is read again here; give all its readings in one entry`);
    seen.add(key);
    const readings: RangeVerdict[] = [];
    r.readings.forEach((v, j) => {
      if (!isPlainObject(v) || typeof v.reader !== "string" || v.reader === "" || !(VERDICTS as readonly unknown[]).includes(v.verdict) || typeof v.reason !== "string" || v.reason.trim() === "") return void problems.push(`${where}.readings[${j}]: {reader, verdict: "stuck" or "false-alarm", reason: a line}`);
      if (readings.some((x) => x.reader === v.reader)) return void problems.push(`${where}.readings[${j}]: reader ${JSON.stringify(v.reader)} reads this range twice`);
      readings.push({ reader: v.reader, verdict: v.verdict as Verdict, reason: v.reason });
    });
    if (readings.length === 0) return void problems.push(`${where}.readings: at least one reading`);
    ranges.push({ session, from, to, readings });
  });
  return { protocol, ranges };
}

function sessionReading(value: unknown, at: string, problems: string[]): SessionReading | undefined {
  if (!isPlainObject(value)) return void problems.push(`${at}: {calls, stuck: [{from, to, reason}], note?}`);
  if (typeof value.calls !== "number" || !Number.isInteger(value.calls) || value.calls < 0) return void problems.push(`${at}.calls: the number of calls read (a whole number)`);
  if (!Array.isArray(value.stuck)) return void problems.push(`${at}.stuck: a list of {from, to, reason} ([] when nothing was stuck)`);
  const calls = value.calls;
  const stuck: StuckRange[] = [];
  value.stuck.forEach((r, k) => {
    const where = `${at}.stuck[${k}]`;
    if (!isPlainObject(r) || !Number.isInteger(r.from) || !Number.isInteger(r.to) || typeof r.reason !== "string") return void problems.push(`${where}: {from, to, reason}: whole numbers and a line`);
    const [from, to] = [r.from as number, r.to as number];
    if (from < 0 || to < from || to >= calls) return void problems.push(`${where}: calls ${from}-${to}: must satisfy 0 <= from <= to < calls (${calls})`);
    stuck.push({ from, to, reason: r.reason });
  });
  const text = (k: string) => (typeof value[k] === "string" ? { [k]: value[k] as string } : {});
  return { ...text("dataset"), ...text("label"), calls, stuck, ...text("note") };
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

/** Recall of stuck calls: calls a reader found stuck that lie inside a mined stretch, over all calls read stuck. */
export interface Recall {
  /** Sessions read whole (that the catalogue also mined). */
  readonly sessions: number;
  readonly callsRead: number;
  readonly stuckRead: number;
  readonly covered: number;
  readonly recall: number;
  readonly interval: Interval;
  /** Read sessions the run did not mine (not under its paths, unreadable, or without calls). */
  readonly notMined: readonly string[];
  /** Read sessions whose call count differs from the miner's: numbered otherwise, so left out. */
  readonly miscounted: readonly { readonly session: string; readonly read: number; readonly mined: number }[];
  /** Calls the miner flagged in read sessions that the reader did not find stuck. */
  readonly flaggedNotRead: number;
}

/** Stuck calls of a reading, as a set of call positions. */
export function stuckCalls(reading: SessionReading): Set<number> {
  const calls = new Set<number>();
  for (const r of reading.stuck) for (let c = r.from; c <= r.to; c++) calls.add(c);
  return calls;
}

/**
 * Recall over the sessions read whole. `mined` gives, for each session the run mined, its call
 * count and the calls inside its stretches; a session the run did not mine is listed, not counted.
 */
export function recallOf(sessions: ReadonlyMap<string, SessionReading>, mined: ReadonlyMap<string, { readonly calls: number; readonly flagged: ReadonlySet<number> }>): Recall {
  let counted = 0;
  let callsRead = 0;
  let stuckRead = 0;
  let covered = 0;
  let flaggedNotRead = 0;
  const notMined: string[] = [];
  const miscounted: { session: string; read: number; mined: number }[] = [];
  for (const [session, reading] of [...sessions.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    const m = mined.get(session);
    if (m === undefined) {
      notMined.push(session);
      continue;
    }
    if (m.calls !== reading.calls) {
      miscounted.push({ session, read: reading.calls, mined: m.calls });
      continue;
    }
    counted++;
    callsRead += reading.calls;
    const stuck = stuckCalls(reading);
    stuckRead += stuck.size;
    for (const c of stuck) if (m.flagged.has(c)) covered++;
    for (const c of m.flagged) if (!stuck.has(c)) flaggedNotRead++;
  }
  return { sessions: counted, callsRead, stuckRead, covered, recall: stuckRead === 0 ? 0 : Math.round((covered / stuckRead) * 10_000) / 10_000, interval: wilson(covered, stuckRead), notMined, miscounted, flaggedNotRead };
}

/** Where a blind second reading of stretches agrees with the first, and each stretch it does not. */
export interface PrecisionAgreement extends RaterAgreement {
  readonly protocol: readonly string[];
  /** Of the sample, the stretches this run finds (the rest are stretches of an earlier definition, kept on record). */
  readonly found: number;
  /** Precision by the second reader alone, on the stretches of its sample this run finds. */
  readonly secondPrecision: number;
  readonly secondInterval: Interval;
  readonly disagreements: readonly { readonly id: string; readonly first: Judgement; readonly second: Judgement }[];
}

export function precisionAgreementOf(j: Judgements, foundIds: ReadonlySet<string>): PrecisionAgreement | undefined {
  const second = j.precisionSecondReader;
  if (second === undefined || second.byId.size === 0) return undefined;
  const ids = [...second.byId.keys()].sort();
  const pairs = ids.map((id) => ({ id, first: j.byId.get(id) as Judgement, second: second.byId.get(id) as Judgement }));
  const agreement = raterAgreement({ first: pairs.map((p) => p.first.verdict === "stuck"), second: pairs.map((p) => p.second.verdict === "stuck") });
  const found = ids.filter((id) => foundIds.has(id));
  const secondStuck = found.filter((id) => (second.byId.get(id) as Judgement).verdict === "stuck").length;
  return {
    protocol: second.protocol,
    ...agreement,
    found: found.length,
    secondPrecision: found.length === 0 ? 0 : Math.round((secondStuck / found.length) * 10_000) / 10_000,
    secondInterval: wilson(secondStuck, found.length),
    disagreements: pairs.filter((p) => p.first.verdict !== p.second.verdict),
  };
}

/** Two whole readings of the same sessions: do they agree on which sessions hold a stretch, and on which calls are stuck? */
export interface ReadingAgreement {
  readonly protocol: readonly string[];
  /** Per session: holds a stuck stretch or not, by each reader. */
  readonly sessions: RaterAgreement;
  /** Stuck calls marked by both readers, by the first only, by the second only. */
  readonly callsBoth: number;
  readonly callsFirstOnly: number;
  readonly callsSecondOnly: number;
}

export function readingAgreementOf(first: ReadonlyMap<string, SessionReading>, second: { readonly protocol: readonly string[]; readonly sessions: ReadonlyMap<string, SessionReading> }): ReadingAgreement {
  const refs = [...second.sessions.keys()].filter((ref) => first.has(ref)).sort();
  let callsBoth = 0;
  let callsFirstOnly = 0;
  let callsSecondOnly = 0;
  const a: boolean[] = [];
  const b: boolean[] = [];
  for (const ref of refs) {
    const one = stuckCalls(first.get(ref) as SessionReading);
    const two = stuckCalls(second.sessions.get(ref) as SessionReading);
    a.push(one.size > 0);
    b.push(two.size > 0);
    for (const c of one) if (two.has(c)) callsBoth++;
    else callsFirstOnly++;
    for (const c of two) if (!one.has(c)) callsSecondOnly++;
  }
  return { protocol: second.protocol, sessions: raterAgreement({ first: a, second: b }), callsBoth, callsFirstOnly, callsSecondOnly };
}
