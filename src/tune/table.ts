// The main table of the report, as cells, shared by the Markdown and HTML renderers so both
// show the same numbers the JSON holds.
import { numberCell, shareCell } from "../stats/interval.js";
import { unreadableNote } from "../format/unreadableNote.js";
import type { ConfigRow } from "../evaluation/evaluate.js";
import { percentOneDecimal } from "../format/percent.js";
import type { TuneReport } from "./report.js";

const METRIC_HEADER = [
  "stuck caught (block or abort) [95%]",
  "stuck stopped by a warning",
  "wasted tokens mean [95%]",
  "wasted tokens median",
  "wasted tokens p90",
  "wasted calls median",
  "progressing warned",
  "wrongly blocked [95%]",
  "false aborts [95%]",
  "warnings /100 calls",
  "false-positive rate [95%]",
  "Pareto",
];

/** The grid fields that vary across the configs, as leaf paths of their blocks (enabled aside). */
export function variedFields(rows: readonly ConfigRow[]): string[] {
  const values = new Map<string, Set<string>>();
  const walk = (block: Record<string, unknown>, prefix: string) => {
    for (const [key, value] of Object.entries(block)) {
      const path = prefix === "" ? key : `${prefix}.${key}`;
      if (value !== null && typeof value === "object" && !Array.isArray(value)) walk(value as Record<string, unknown>, path);
      else if (path !== "enabled") values.set(path, (values.get(path) ?? new Set()).add(JSON.stringify(value)));
    }
  };
  for (const row of rows.slice(1)) walk(row.block, "");
  return [...values].filter(([, v]) => v.size > 1).map(([path]) => path);
}

/** Short column names, so the table fits without wrapping; the definitions name the full fields. */
const SHORT_NAMES: Readonly<Record<string, string>> = {
  warningThreshold: "warn",
  criticalThreshold: "critical",
  globalCircuitBreakerThreshold: "global",
  unknownToolThreshold: "unknownTool",
  historySize: "history",
  windowSize: "window",
};
const fieldName = (path: string) => {
  const leaf = path.split(".").at(-1) ?? path;
  return SHORT_NAMES[leaf] ?? leaf;
};

function fieldValue(block: Record<string, unknown>, path: string): string {
  let value: unknown = block;
  for (const key of path.split(".")) value = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
  return value === undefined ? "" : String(value);
}

/** One column per varied grid field instead of a long label, so no cell wraps. */
export function tableHeader(fields: readonly string[]): string[] {
  return ["#", "config", ...fields.map(fieldName), ...METRIC_HEADER];
}

export function rowLabel(row: ConfigRow): string {
  return row.index === 0 ? "OpenClaw defaults" : row.label;
}

export function rowCells(row: ConfigRow, pareto: readonly number[], fields: readonly string[]): string[] {
  const m = row.metrics;
  const named = row.index === 0 ? "OpenClaw defaults" : row.label.startsWith("baseline") ? "baseline" : "grid";
  return [
    String(row.index),
    named,
    ...fields.map((f) => (row.index === 0 ? "-" : fieldValue(row.block, f))),
    shareCell(m.stuck.caughtShare, m.intervals?.caughtShare),
    percentOneDecimal(m.stuck.escapedShare),
    numberCell(m.stuck.wastedTokens.mean, m.intervals?.wastedTokensMean),
    String(m.stuck.wastedTokens.median),
    String(m.stuck.wastedTokens.p90),
    String(m.stuck.wastedCalls.median),
    percentOneDecimal(m.progressing.warnedShare),
    shareCell(m.progressing.wronglyBlockedShare, m.intervals?.wronglyBlockedShare),
    shareCell(m.recovering.falseAbortShare, m.intervals?.falseAbortShare),
    m.overall.warningsPer100Calls.toFixed(2),
    shareCell(m.overall.falsePositiveRate, m.intervals?.falsePositiveRate),
    pareto.includes(row.index) ? "yes" : "",
  ];
}

/** The recorded-sessions table: what each config would have done to real work (open-loop). */
export const SESSION_HEADER = ["#", "config", "sessions warned", "blocked", "aborted", "calls cut", "tokens cut", "resolved stopped", "unresolved stopped", "unlabelled stopped"];

const ofLabel = (row: ConfigRow, label: string): string => {
  const l = row.sessions?.byLabel[label];
  return l === undefined ? "-" : `${l.stopped}/${l.sessions}`;
};

export function sessionCells(row: ConfigRow): string[] {
  const s = row.sessions;
  if (s === undefined) return [String(row.index), rowLabel(row), ...SESSION_HEADER.slice(2).map(() => "-")];
  return [
    String(row.index),
    rowLabel(row),
    percentOneDecimal(s.warnedShare),
    percentOneDecimal(s.blockedShare),
    percentOneDecimal(s.abortedShare),
    `${s.cutCalls} (${percentOneDecimal(s.cutCallsShare)})`,
    `${s.cutTokens} (${percentOneDecimal(s.cutTokensShare)})`,
    ofLabel(row, "resolved"),
    ofLabel(row, "unresolved"),
    ofLabel(row, "unlabelled"),
  ];
}

export function sessionsIntro(report: TuneReport): string {
  const s = report.sessions;
  if (s === undefined) return "";
  const labels = Object.entries(s.byLabel).sort(([a], [b]) => (a < b ? -1 : 1)).map(([l, n]) => `${n} ${l}`).join(", ");
  return (
    `${s.count} recorded sessions (${labels}) from ${s.paths.map((p) => `\`${p}\``).join(", ")}${s.labels === undefined ? "" : `, labels \`${s.labels}\` matched by ${s.labelKey ?? "id"}`}, replayed open-loop under every config.${unreadableNote(s.unreadable)} ` +
    "It is counterfactual: the recorded agent never saw these verdicts, so after a run's first block or abort the rest of that run counts as cut (calls, and tokens by the simulator's token model). " +
    "A stop on a resolved session is work that would have been cut short: the false-positive proxy; a stop on an unresolved one may have saved waste."
  );
}

/** The sample sizes a table rests on, and what its brackets mean: printed beside every table. */
export function sampleSizes(row: ConfigRow | undefined, grounded = false): string {
  if (row === undefined) return "";
  const m = row.metrics;
  return `Sample sizes per config: ${m.overall.agents} ${grounded ? "agents from real sessions (stuck: with an injected loop)" : "simulated agents"} (${m.stuck.agents} stuck, ${m.progressing.agents} progressing, ${m.recovering.agents} recovering). Brackets are 95% intervals: Wilson for shares, a seeded percentile bootstrap over agents (400 resamples) for means and medians; two numbers whose intervals overlap may not differ.`;
}
