// The main table of the report, as cells, shared by the Markdown and HTML renderers so both
// show the same numbers the JSON holds.
import type { ConfigRow } from "./evaluate.js";
import { percent } from "./recommend.js";

export const TABLE_HEADER = [
  "#",
  "config",
  "stuck caught",
  "stuck stopped",
  "wasted tokens median",
  "wasted tokens p90",
  "wasted calls median",
  "progressing warned",
  "wrongly blocked",
  "false aborts",
  "warnings /100 calls",
  "false-positive rate",
  "Pareto",
];

export function rowLabel(row: ConfigRow): string {
  return row.index === 0 ? "OpenClaw defaults" : row.label;
}

export function rowCells(row: ConfigRow, pareto: readonly number[]): string[] {
  const m = row.metrics;
  return [
    String(row.index),
    rowLabel(row),
    percent(m.stuck.caughtShare),
    percent(m.stuck.stoppedShare),
    String(m.stuck.wastedTokens.median),
    String(m.stuck.wastedTokens.p90),
    String(m.stuck.wastedCalls.median),
    percent(m.progressing.warnedShare),
    percent(m.progressing.wronglyBlockedShare),
    percent(m.recovering.falseAbortShare),
    m.overall.warningsPer100Calls.toFixed(2),
    percent(m.overall.falsePositiveRate),
    pareto.includes(row.index) ? "yes" : "",
  ];
}
