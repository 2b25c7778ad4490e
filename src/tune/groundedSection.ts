// The report's sections on real sessions run as agents (with injected loops) and on where that
// evidence and the simulated one disagree, as plain text and cells: the Markdown and HTML
// renderers draw the same numbers from report.json.
import { plural } from "../format/words.js";
import type { ConfigRow } from "../evaluation/evaluate.js";
import type { ConfigMetrics } from "../evaluation/metrics.js";
import { shareCell, wilson } from "../stats/interval.js";
import { percentOneDecimal } from "../format/percent.js";
import type { TuneReport } from "./report.js";
import type { ReportSection, Table } from "../reportParts/section.js";
import { rowLabel } from "./table.js";

/** The tuning report's sections are report sections (src/reportParts/section.ts), drawn the same way in Markdown and HTML. */
export type GroundedSection = ReportSection;

/** The grounded numbers of a row: its main metrics when the report's population is real sessions. */
export function groundedOf(report: TuneReport, row: ConfigRow): ConfigMetrics | undefined {
  return report.grounded?.primary === true ? row.metrics : row.grounded;
}

const shapesOf = (report: TuneReport): readonly string[] => report.grounded?.inject.shapes ?? [];

/** Injected copies whose recorded work the guard blocked or stopped outside the injected stretch. */
function aroundLoops(m: ConfigMetrics, shapes: readonly string[]): string {
  let agents = 0;
  let stopped = 0;
  for (const s of shapes) {
    const f = m.byFamily[`inject:${s}`];
    if (f === undefined) continue;
    agents += f.agents;
    stopped += Math.round(f.wronglyBlockedShare * f.agents);
  }
  return agents === 0 ? "-" : shareCell(stopped / agents, wilson(stopped, agents));
}

/** A shape's catch rate without its interval (the per-shape table has them), so the wide table stays readable. */
function shapeCaught(m: ConfigMetrics, shape: string): string {
  const f = m.byFamily[`inject:${shape}`];
  return f === undefined ? "-" : percentOneDecimal(f.caughtShare);
}

export function groundedSection(report: TuneReport): GroundedSection | undefined {
  const g = report.grounded;
  if (g === undefined) return undefined;
  const shapes = shapesOf(report);
  const injected = shapes.length > 0;
  const paragraphs = [
    `${plural(g.sessions, "recorded session")} from ${g.paths.map((p) => `\`${p}\``).join(", ")} run as closed-loop agents${g.primary ? " (this report's population)" : ", beside the simulated population"}: each replays its own calls and results to the guard, and reacts to what the guard says. Reaction model: ${g.reactionText}; "skip" jumps past the repeated stretch to the session's next call whose tool and args (digits aside) differ from the last four.${g.unreadable > 0 ? ` ${g.unreadable} unreadable file${g.unreadable === 1 ? "" : "s"} skipped.` : ""}`,
    injected
      ? `Injected loops (\`--inject ${g.inject.spec}\`): each session also runs once per shape with one loop stretch put in at a seeded point between its calls, ${g.inject.lengths.distribution} long, built from the session's own calls and results. The injected stretch is stuck (a block or stop in it is a catch); every recorded call is progressing work (a block or stop on it is good work stopped). Agents per config: ${Object.entries(g.agents).map(([f, n]) => `${f} ${n}`).join(", ")}.`
      : "No loops were injected (`--inject none`): the sessions measure only what a guard does to real work; the catch rate needs `--inject default`.",
    ...(injected ? shapes.map((s) => `- **${s}**: ${g.inject.what[s] ?? ""}.`) : []),
  ];
  const header = ["#", "config", "real sessions stopped wrongly [95%]", "real sessions warned", ...(injected ? [g.loops === undefined ? "injected loops caught [95%]" : "stuck caught, injected and real [95%]", ...shapes.map((s) => `${s} caught`), "wasted calls median", "wasted tokens median", "recorded work stopped around an injected loop [95%]"] : [])];
  const rows = report.rows.map((row) => {
    const m = groundedOf(report, row);
    if (m === undefined) return [String(row.index), rowLabel(row), ...header.slice(2).map(() => "-")];
    return [
      String(row.index),
      rowLabel(row),
      shareCell(m.progressing.stoppedWronglyShare, m.intervals.stoppedWronglyShare),
      percentOneDecimal(m.progressing.warnedShare),
      ...(injected ? [shareCell(m.stuck.caughtShare, m.intervals.caughtShare), ...shapes.map((s) => shapeCaught(m, s)), String(m.stuck.wastedCalls.median), String(m.stuck.wastedTokens.median), aroundLoops(m, shapes)] : []),
    ];
  });
  const tables: { caption: string; table: Table }[] = [{ caption: `Every config on real sessions${injected ? " (per-shape intervals in the next table)" : ""}`, table: { header, rows } }];
  if (injected) {
    const shown = [report.rows[0], ...report.recommendations.map((r) => report.rows.find((x) => x.index === r.index))].filter((r, i, all): r is ConfigRow => r !== undefined && all.indexOf(r) === i);
    tables.push({
      caption: "By injected shape: caught [95%] / median wasted calls / median wasted tokens / recorded work stopped, for OpenClaw's defaults and the recommended configs",
      table: {
        header: ["shape", ...shown.map((r) => rowLabel(r))],
        rows: shapes.map((s) => [
          s,
          ...shown.map((r) => {
            const f = groundedOf(report, r)?.byFamily[`inject:${s}`];
            return f === undefined ? "-" : `${shareCell(f.caughtShare, wilson(Math.round(f.caughtShare * f.agents), f.agents))} / ${f.medianWastedCalls} / ${f.medianWastedTokens} / ${percentOneDecimal(f.wronglyBlockedShare)}`;
          }),
        ]),
      },
    });
  }
  return { title: "Real sessions as agents, with injected loops", paragraphs, tables };
}

export function disagreementSection(report: TuneReport): GroundedSection | undefined {
  const d = report.disagreements;
  if (d === undefined) return undefined;
  const changed = d.picks.filter((p) => p.simulated.index !== p.grounded.index);
  const paragraphs = [
    `Rule: ${d.rule} (here ${d.places} places).`,
    changed.length === 0
      ? "The goals pick the same configs on both evidences."
      : `The goals pick differently: ${changed.map((p) => `${p.goal} picks #${p.simulated.index} (${p.simulated.label}) on simulated agents and #${p.grounded.index} (${p.grounded.label}) on real sessions`).join("; ")}.`,
    d.moved.length === 0 ? "No config's rank moves by that much." : `${d.moved.length} config${d.moved.length === 1 ? "" : "s"} change rank by ${d.places} places or more. Where a config stops much more simulated work than real work, the last column names the simulated family it stops most: work such as polling or heartbeats that the recorded sessions may not contain, so which evidence applies depends on whether your agents do that work.`,
  ];
  const table: Table = {
    header: ["#", "config", "rank on simulated agents", "rank on real sessions", "simulated: caught / good work stopped", "real sessions: caught / good work stopped", "simulated work it stops most"],
    rows: d.moved.map((m) => [String(m.index), m.label, String(m.simulatedRank), String(m.groundedRank), `${percentOneDecimal(m.simulated.caught)} / ${percentOneDecimal(m.simulated.goodStopped)}`, `${percentOneDecimal(m.grounded.caught)} / ${percentOneDecimal(m.grounded.goodStopped)}`, m.simulatedStopsMost === undefined ? "-" : `${m.simulatedStopsMost.family} (${percentOneDecimal(m.simulatedStopsMost.share)})`]),
  };
  return { title: "Where they disagree", paragraphs, tables: d.moved.length === 0 ? [] : [{ caption: "Configs whose rank changes", table }] };
}
