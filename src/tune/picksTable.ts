// The picks at a glance: one row per pick (goals that picked the same config share a row) beside
// OpenClaw's defaults, each figure with its 95% interval. The figures live here, once, for the
// Markdown and the HTML report; the prose around the table says why each pick was made.
import type { ConfigRow } from "../evaluation/evaluate.js";
import { numberCell, overlaps, shareCell, wilson, type Interval } from "../stats/interval.js";
import { sessionsStopped, type Recommendation } from "./recommend.js";
import type { TuneReport } from "./report.js";

export interface PicksTable {
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
  /** Per pick, the figures whose intervals do not overlap the defaults' (the differences that are not noise). */
  readonly clearDifferences: readonly string[];
}

/** The figures a pick is judged on, each with its interval, read off its row. */
function figures(row: ConfigRow): { readonly name: string; readonly value: number; readonly interval: Interval; readonly cell: string }[] {
  const m = row.metrics;
  const i = m.intervals;
  return [
    { name: "stuck caught", value: m.stuck.caughtShare, interval: i.caughtShare, cell: shareCell(m.stuck.caughtShare, i.caughtShare) },
    { name: "good work stopped", value: m.overall.falsePositiveRate, interval: i.falsePositiveRate, cell: shareCell(m.overall.falsePositiveRate, i.falsePositiveRate) },
    { name: "mean tokens wasted per stuck agent", value: m.stuck.wastedTokens.mean, interval: i.wastedTokensMean, cell: numberCell(m.stuck.wastedTokens.mean, i.wastedTokensMean) },
    { name: "false aborts", value: m.recovering.falseAbortShare, interval: i.falseAbortShare, cell: shareCell(m.recovering.falseAbortShare, i.falseAbortShare) },
  ];
}

/** The interval of `sessionsStopped`: over the resolved sessions when labelled, else over every session. */
function sessionsStoppedInterval(row: ConfigRow): Interval | undefined {
  const s = row.sessions;
  if (s === undefined) return undefined;
  const resolved = s.byLabel.resolved;
  return resolved !== undefined && resolved.sessions > 0 ? wilson(resolved.stopped, resolved.sessions) : s.intervals?.stoppedShare;
}

/** Goals that picked the same config, together, in the report's order. */
function groups(recommendations: readonly Recommendation[]): Recommendation[][] {
  const out: Recommendation[][] = [];
  for (const r of recommendations) {
    const same = out.find((g) => g[0]?.index === r.index);
    if (same !== undefined) same.push(r);
    else out.push([r]);
  }
  return out;
}

export function picksTable(report: TuneReport): PicksTable {
  const defaults = report.rows.find((r) => r.index === 0);
  if (defaults === undefined) throw new Error("the OpenClaw defaults row (index 0) is missing");
  const grounded = report.grounded?.primary === true;
  const recorded = defaults.sessions !== undefined;
  const resolved = defaults.sessions?.byLabel.resolved !== undefined;
  const header = [
    "pick",
    "config",
    "stuck caught [95%]",
    `good work stopped: ${grounded ? "real sessions as agents" : "simulated"} [95%]`,
    ...(recorded ? [`recorded ${resolved ? "resolved " : ""}sessions stopped [95%]`] : []),
    "mean tokens wasted per stuck agent [95%]",
    "false aborts [95%]",
    "progressing warned",
  ];
  const cells = (row: ConfigRow, pick: string): string[] => {
    const f = figures(row);
    const stopped = sessionsStopped(row);
    return [pick, row.index === 0 ? "OpenClaw defaults" : `#${row.index} ${row.label}`, (f[0] as { cell: string }).cell, (f[1] as { cell: string }).cell, ...(recorded ? [stopped === undefined ? "-" : shareCell(stopped, sessionsStoppedInterval(row))] : []), (f[2] as { cell: string }).cell, (f[3] as { cell: string }).cell, shareCell(row.metrics.progressing.warnedShare, undefined)];
  };
  const rows: string[][] = [cells(defaults, "defaults (yardstick)")];
  const clearDifferences: string[] = [];
  for (const group of groups(report.recommendations)) {
    const pick = group[0] as Recommendation;
    const row = report.rows.find((r) => r.index === pick.index);
    if (row === undefined) continue;
    const goals = group.map((g) => g.goal).join(" = ");
    rows.push(cells(row, goals));
    if (row.index === 0) continue;
    const mine = figures(row);
    const theirs = figures(defaults);
    const clear = mine.filter((f, k) => f.interval.n > 0 && (theirs[k] as { interval: Interval }).interval.n > 0 && !overlaps(f.interval, (theirs[k] as { interval: Interval }).interval)).map((f) => f.name);
    clearDifferences.push(`${goals}: ${clear.length === 0 ? "every interval overlaps the defaults' (the differences may be noise)" : `${clear.length === 1 ? clear[0] : `${clear.slice(0, -1).join(", ")} and ${clear.at(-1)}`} ${clear.length === 1 ? "differs" : "differ"} from the defaults beyond noise (intervals apart)`}`);
  }
  return { header, rows, clearDifferences };
}
