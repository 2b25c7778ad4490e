// report.md: the tables a person reads first, rendered from report.json alone.
import { plural } from "../format/words.js";
import { familyList } from "../reportParts/familyList.js";
import { picksTable } from "./picksTable.js";
import { markdownRow, sectionMarkdown } from "../reportParts/section.js";
import { percentOneDecimal } from "../format/percent.js";
import type { TuneReport } from "./report.js";
import { disagreementSection, groundedSection } from "./groundedSection.js";
import { realLoopsSection } from "./realLoopsSection.js";
import { realOutcomesMarkdown, stretchSourceNote } from "../reportParts/realOutcomesSection.js";
import { sensitivityMarkdown } from "../reportParts/reactionGridView.js";
import { tuneSensitivitySection } from "./sensitivitySection.js";
import { SESSION_HEADER, rowCells, rowLabel, sampleSizes, sessionCells, sessionsIntro, tableHeader, variedFields } from "./table.js";

const line = markdownRow;

/** Goals that picked the same config, together: written once, as "balanced = lenient". */
export function goalGroups(report: TuneReport): (typeof report.recommendations)[number][][] {
  const groups: (typeof report.recommendations)[number][][] = [];
  for (const r of report.recommendations) {
    const same = groups.find((g) => g[0]?.index === r.index);
    if (same !== undefined) same.push(r);
    else groups.push([r]);
  }
  return groups;
}

export function renderMarkdown(report: TuneReport): string {
  const out: string[] = [];
  const defaults = report.rows[0];
  out.push("# loopsim tuning report", "");
  out.push(`loopsim ${report.loopsimVersion}, seed ${report.seed}, ${report.rows.length} configs, ${populationLine(report)}.`);
  out.push(`Baseline the grid varies: ${report.baseline.source}. Grid: \`${report.grid.spec}\`. Reproduce: \`${report.reproduce}\`.`, "");
  if (report.target !== undefined) {
    out.push(`Guard under test: \`${report.target}\`${report.targetIgnores === undefined ? "." : `, which ignores ${report.targetIgnores.join(", ")}: grid points that differ only in those fields give identical rows, which is what this release does with them.`}`, "");
  }
  // Said before the recommendations: with --stretches read:FILE the real-outcomes figures rest on read stretches, not mined ones.
  const readFrom = stretchSourceNote(report.realOutcomes);
  if (readFrom !== undefined) out.push(readFrom, "");
  out.push("## Recommendations", "");
  const picks = picksTable(report);
  out.push(line(picks.header), line(picks.header.map(() => "---")), ...picks.rows.map(line), "");
  if (picks.clearDifferences.length > 0) out.push(...picks.clearDifferences.map((d) => `- ${d}.`), "");
  for (const group of goalGroups(report)) {
    const r = group[0] as (typeof report.recommendations)[number];
    out.push(`### ${group.map((g) => g.goal).join(" = ")}: ${r.index === 0 ? "OpenClaw defaults" : r.label}`, "");
    for (const g of group) out.push(`${group.length > 1 ? `As ${g.goal}: chosen` : "Chosen"} as ${g.rule}.`, "");
    out.push(`Evidence: ${r.evidence}`, "");
    if (r.alternatives.length > 0) out.push(`Nearest alternatives on the front: ${r.alternatives.map((a) => `#${a.index} (${a.label}): ${a.trades}`).join("; ")}.`, "");
    out.push(`Stuck families it still misses (caught in under half the agents): ${r.stillMissed.length === 0 ? "none" : r.stillMissed.map((m) => `${m.family} (${percentOneDecimal(m.caughtShare)})`).join(", ")}.`, "");
    out.push("```json5", r.snippet, "```", "");
    if (r.ignoredFields.length > 0) out.push(`Left out of the snippet: ${r.ignoredFields.join(", ")}, which ${report.target ?? "the guard"} ignores (setting them would change nothing).`, "");
  }
  out.push("## Every config", "");
  out.push(sampleSizes(report.rows[0], report.grounded?.primary === true), "");
  const fields = variedFields(report.rows);
  const header = tableHeader(fields);
  out.push(line(header), line(header.map(() => "---")));
  for (const row of report.rows) out.push(line(rowCells(row, report.pareto, fields)));
  out.push("");
  if (report.grid.skipped.length > 0) {
    out.push(`Skipped ${report.grid.skipped.length} grid combinations that break warning < critical < global:`, "");
    for (const s of report.grid.skipped) out.push(`- ${s.label}: ${s.reason}`);
    out.push("");
  }
  if (report.sessions !== undefined) {
    out.push("## Recorded sessions", "");
    out.push(sessionsIntro(report), "");
    out.push(line(SESSION_HEADER), line(SESSION_HEADER.map(() => "---")));
    for (const row of report.rows) out.push(line(sessionCells(row)));
    out.push("");
  }
  for (const section of [groundedSection(report), disagreementSection(report), realLoopsSection(report)]) if (section !== undefined) out.push(...sectionMarkdown(section));
  out.push(...realOutcomesMarkdown(report.realOutcomes, "config"));
  if (report.reactionSensitivity !== undefined) out.push(...sensitivityMarkdown(tuneSensitivitySection(report.reactionSensitivity)));
  if (report.grounded?.primary === true) return finish(out, report);
  out.push("## By family", "");
  const shown = [defaults, ...report.recommendations.map((r) => report.rows.find((x) => x.index === r.index))].filter((r, i, all) => r !== undefined && all.indexOf(r) === i);
  out.push(line(["family", "kind", ...shown.map((r) => `${r === undefined ? "" : rowLabel(r)} caught / warned / stopped wrongly`)]), line(["---", "---", ...shown.map(() => "---")]));
  for (const family of familyList(shown.map((r) => r?.metrics.byFamily ?? {}), true)) {
    const cells = shown.map((r) => {
      const f = r?.metrics.byFamily[family.name];
      return f === undefined ? "-" : `${percentOneDecimal(f.caughtShare)} / ${percentOneDecimal(f.warnedShare)} / ${percentOneDecimal(f.wronglyBlockedShare)}`;
    });
    out.push(line([family.name, family.label, ...cells]));
  }
  out.push("", "## Population", "");
  out.push(line(["family", "model", "weight"]), line(["---", "---", "---"]));
  for (const m of report.population.members) out.push(line([m.family, m.model, String(m.weight)]));
  out.push("");
  return finish(out, report);
}

function finish(out: string[], report: TuneReport): string {
  out.push("## Definitions", "");
  for (const [name, text] of Object.entries(report.definitions)) out.push(`- **${name}**: ${text}.`);
  out.push("");
  return out.join("\n");
}

/** Who the numbers are about: simulated agents, or real sessions run as agents. */
export function populationLine(report: TuneReport): string {
  const g = report.grounded;
  if (g?.primary === true) return `${plural(g.sessions, "real session")} run as closed-loop agents per config (${g.inject.shapes.length === 0 ? "no loops injected" : `${Object.values(g.agents).reduce((a, b) => a + b, 0)} agents with the injected copies`}), population \`${report.population.name}\``;
  return `${report.agents} simulated agents per config (${report.population.calls} calls each), population \`${report.population.name}\``;
}
