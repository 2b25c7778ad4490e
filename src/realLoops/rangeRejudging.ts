// The held-out stuck ranges read again by the precision criteria. Recall is measured against what
// whole-session readers marked stuck, by their protocol (the same failure or non-result at least 3
// times); precision against what stretch readers judged stuck, by theirs (nothing learned after the
// first call; one deliberate re-check is work). When the two protocols draw the line in different
// places, a recall goal and a precision goal are measured against two different notions of
// "stuck", and no miner can reach both. This reading measures the gap: every range the held-out
// readers marked stuck is read again, blind (the readers do not know which ranges the miner covers),
// by two readers applying the precision criteria; recall is then also given against the calls those
// readers confirm. It is an added figure beside the recall of record, never a replacement for it.
import { wilson, type Interval } from "../stats/wilson.js";
import { raterAgreement, type RaterAgreement } from "../stats/raterAgreement.js";
import { recallOf, type RangeRejudging, type RangeVerdict, type Recall, type RejudgedRange, type SessionReading } from "./judgements.js";

/** How the miner covers a range: every call of it, some, or none. */
export type Coverage = "caught" | "partly" | "missed";

export interface RejudgedRecall {
  readonly protocol: readonly string[];
  /** Ranges read again, of the held-out reading's stuck ranges in sessions this run mined. */
  readonly ranges: number;
  readonly heldOutRanges: number;
  /** Ranges every reader confirmed stuck, some reader did, and none did. */
  readonly confirmedByAll: number;
  readonly confirmedBySome: number;
  /** Per coverage by the miner: ranges, and how many every reader confirmed stuck. */
  readonly byCoverage: Readonly<Record<Coverage, { readonly ranges: number; readonly calls: number; readonly confirmedByAll: number; readonly confirmedCalls: number; readonly share: number; readonly interval: Interval }>>;
  /** The first two readers' agreement on ranges read twice. */
  readonly agreement: RaterAgreement;
  /** Recall against the calls of ranges every reader confirmed, and against those some reader confirmed. */
  readonly recallConfirmedByAll: Recall;
  readonly recallConfirmedBySome: Recall;
}

type Mined = ReadonlyMap<string, { readonly calls: number; readonly flagged: ReadonlySet<number> }>;

const keep = (sessions: ReadonlyMap<string, SessionReading>, kept: (session: string, from: number, to: number) => boolean): Map<string, SessionReading> =>
  new Map([...sessions].map(([ref, r]) => [ref, { ...r, stuck: r.stuck.filter((s) => kept(ref, s.from, s.to)) }]));

export function rejudgedRecallOf(rejudging: RangeRejudging, heldOut: ReadonlyMap<string, SessionReading>, mined: Mined): RejudgedRecall {
  const counted = (session: string) => mined.get(session)?.calls === heldOut.get(session)?.calls;
  const ranges = rejudging.ranges.filter((r) => counted(r.session));
  const byKey = new Map(ranges.map((r) => [`${r.session}@${r.from}-${r.to}`, r]));
  const stuckBy = (r: RejudgedRange) => r.readings.filter((v) => v.verdict === "stuck").length;
  const all = (r: RejudgedRange) => stuckBy(r) === r.readings.length;
  const some = (r: RejudgedRange) => stuckBy(r) > 0;
  const coverage = (r: RejudgedRange): Coverage => {
    const flagged = mined.get(r.session)?.flagged;
    let n = 0;
    for (let c = r.from; c <= r.to; c++) if (flagged?.has(c) === true) n++;
    return n === r.to - r.from + 1 ? "caught" : n > 0 ? "partly" : "missed";
  };
  const byCoverage = Object.fromEntries(
    (["caught", "partly", "missed"] as const).map((cov) => {
      const group = ranges.filter((r) => coverage(r) === cov);
      const confirmed = group.filter(all);
      const calls = (rs: readonly RejudgedRange[]) => rs.reduce((n, r) => n + r.to - r.from + 1, 0);
      return [cov, { ranges: group.length, calls: calls(group), confirmedByAll: confirmed.length, confirmedCalls: calls(confirmed), share: group.length === 0 ? 0 : Math.round((confirmed.length / group.length) * 10_000) / 10_000, interval: wilson(confirmed.length, group.length) }];
    }),
  ) as RejudgedRecall["byCoverage"];
  const twice = ranges.filter((r) => r.readings.length >= 2);
  const kept = (test: (r: RejudgedRange) => boolean) => (session: string, from: number, to: number) => {
    const r = byKey.get(`${session}@${from}-${to}`);
    return r !== undefined && test(r);
  };
  const heldOutRanges = [...heldOut].filter(([ref]) => counted(ref)).reduce((n, [, r]) => n + r.stuck.length, 0);
  return {
    protocol: rejudging.protocol,
    ranges: ranges.length,
    heldOutRanges,
    confirmedByAll: ranges.filter(all).length,
    confirmedBySome: ranges.filter(some).length,
    byCoverage,
    agreement: raterAgreement({ first: twice.map((r) => (r.readings[0] as RangeVerdict).verdict === "stuck"), second: twice.map((r) => (r.readings[1] as RangeVerdict).verdict === "stuck") }),
    recallConfirmedByAll: recallOf(keep(heldOut, kept(all)), mined),
    recallConfirmedBySome: recallOf(keep(heldOut, kept(some)), mined),
  };
}
