// report.html: self-contained (inline CSS and SVG, no scripts, no network), rendered from
// report.json alone.
import { familyList } from "../reportParts/familyList.js";
import { picksTable } from "./picksTable.js";
import { caughtChart, familyChart, paretoChart, wasteChart, warnedChart } from "./charts.js";
import { percentOneDecimal } from "../format/percent.js";
import type { TuneReport } from "./report.js";
import { goalGroups, populationLine } from "./renderMarkdown.js";
import { disagreementSection, groundedSection } from "./groundedSection.js";
import { escapeHtml, sectionHtml } from "../reportParts/section.js";
import { realLoopsSection } from "./realLoopsSection.js";
import { realOutcomesHtml, stretchSourceNote } from "../reportParts/realOutcomesSection.js";
import { SENSITIVITY_CSS, sensitivityHtml } from "../reportParts/reactionGridView.js";
import { tuneSensitivitySection } from "./sensitivitySection.js";
import { SESSION_HEADER, rowCells, rowLabel, sessionCells, sessionsIntro, tableHeader, variedFields } from "./table.js";

const esc = escapeHtml;

export function renderHtml(report: TuneReport): string {
  const fields = variedFields(report.rows);
  const header = tableHeader(fields);
  // Grouped by the first varied field: a heading row per value, so 70-odd rows read as a few blocks.
  const groupOf = (cells: readonly string[]) => (fields.length === 0 ? "" : (cells[2] ?? ""));
  let group: string | undefined;
  const rows = report.rows
    .map((r) => {
      const cells = rowCells(r, report.pareto, fields);
      const g = r.index === 0 ? "" : groupOf(cells);
      const heading = r.index !== 0 && g !== group ? `<tr class="group"><th colspan="${header.length}">${esc(`${header[2] ?? ""} = ${g}`)}</th></tr>\n` : "";
      if (r.index !== 0) group = g;
      return `${heading}<tr${r.index === 0 ? ' class="defaults"' : ""}>${cells.map((c) => `<td>${esc(c)}</td>`).join("")}</tr>`;
    })
    .join("\n");
  const recs = goalGroups(report)
    .map((group) => {
      const r = group[0] as (typeof report.recommendations)[number];
      return `<section class="rec"><h3>${esc(group.map((g) => g.goal).join(" = "))}: ${esc(r.index === 0 ? "OpenClaw defaults" : r.label)}</h3>
${group.map((g) => `<p>${group.length > 1 ? `As ${esc(g.goal)}: chosen` : "Chosen"} as ${esc(g.rule)}.</p>`).join("")}<p class="evidence">Evidence: ${esc(r.evidence)}</p>
${r.alternatives.length === 0 ? "" : `<p class="alternatives">Nearest alternatives on the front: ${esc(r.alternatives.map((a) => `#${a.index} (${a.label}): ${a.trades}`).join("; "))}.</p>`}
<p>Stuck families it still misses: ${esc(r.stillMissed.length === 0 ? "none" : r.stillMissed.map((m) => `${m.family} (${percentOneDecimal(m.caughtShare)})`).join(", "))}.</p>
<pre>${esc(r.snippet)}</pre>${r.ignoredFields.length === 0 ? "" : `<p>Left out of the snippet: ${esc(r.ignoredFields.join(", "))}, which ${esc(report.target ?? "the guard")} ignores.</p>`}</section>`;
    })
    .join("\n");
  const picks = picksTable(report);
  const picksHtml = `<div class="wide"><table class="picks"><caption>The picks beside OpenClaw's defaults (95% intervals in brackets)</caption><thead><tr>${picks.header.map((h) => `<th>${esc(h)}</th>`).join("")}</tr></thead><tbody>\n${picks.rows.map((r, k) => `<tr${k === 0 ? ' class="defaults"' : ""}>${r.map((c) => `<td>${esc(c)}</td>`).join("")}</tr>`).join("\n")}\n</tbody></table></div>${picks.clearDifferences.length === 0 ? "" : `<ul>${picks.clearDifferences.map((d) => `<li>${esc(d)}.</li>`).join("")}</ul>`}`;
  const shown = [report.rows[0], ...report.recommendations.map((r) => report.rows.find((x) => x.index === r.index))].filter((r, i, all) => r !== undefined && all.indexOf(r) === i);
  const families = familyList(shown.map((r) => r?.metrics.byFamily ?? {}), true).map(
    (f) => `<tr><td>${esc(f.name)}</td><td>${f.label}</td>${shown.map((r) => {
      const n = r?.metrics.byFamily[f.name];
      return `<td>${n === undefined ? "-" : `${percentOneDecimal(n.caughtShare)} / ${percentOneDecimal(n.warnedShare)} / ${percentOneDecimal(n.wronglyBlockedShare)}`}</td>`;
    }).join("")}</tr>`,
  ).join("\n");
  const definitions = Object.entries(report.definitions).map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join("");
  const skipped = report.grid.skipped.map((s) => `<li>${esc(s.label)}: ${esc(s.reason)}</li>`).join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>loopsim tuning report</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;color:#111}
table{border-collapse:collapse;margin:1rem 0;font-size:13px}td,th{border:1px solid #ddd;padding:3px 7px;text-align:right}td:nth-child(2),th:nth-child(2){text-align:left}
tr.defaults{background:#fef2f2}tr.group th{background:#f3f4f6;text-align:left}.evidence{color:#555;font-size:13px}th{position:sticky;top:0;background:#fff}pre{background:#f6f8fa;padding:.75rem;overflow:auto}.rec{border-left:4px solid #2563eb;padding-left:1rem;margin:1rem 0}
.wide{overflow-x:auto}.wide td{white-space:nowrap}.wide td:nth-child(2){white-space:normal;min-width:14rem}caption{text-align:left;font-weight:600;padding:.25rem 0}
table.picks td:first-child,table.picks th:first-child{text-align:left;font-weight:600}
.charts{display:flex;flex-wrap:wrap;gap:1rem}figure{margin:0}figcaption{font-size:12px;color:#555}dt{font-weight:600}
${SENSITIVITY_CSS}
</style></head><body>
<h1>loopsim tuning report</h1>
<p>loopsim ${esc(report.loopsimVersion)}, seed ${report.seed}, ${report.rows.length} configs, ${esc(populationLine(report).replace(/`/g, ""))}. Baseline: ${esc(report.baseline.source)}. Grid: <code>${esc(report.grid.spec)}</code>. Reproduce: <code>${esc(report.reproduce)}</code>.</p>${report.target === undefined ? "" : `<p>Guard under test: <code>${esc(report.target)}</code>${report.targetIgnores === undefined ? "." : `, which ignores ${esc(report.targetIgnores.join(", "))}: grid points that differ only in those fields give identical rows.`}</p>`}
${stretchSourceNote(report.realOutcomes) === undefined ? "" : `<p>${esc((stretchSourceNote(report.realOutcomes) as string).replace(/`|\*\*/g, ""))}</p>\n`}<h2>Recommendations</h2>
${picksHtml}
${recs}
<h2>Charts</h2>
<div class="charts">
<figure>${paretoChart(report)}<figcaption>Pareto front: mean tokens wasted in loops (the statistic the recommendations quote) against the ${report.grounded?.primary === true ? "" : "simulated "}false-positive rate; OpenClaw's defaults and each recommendation ringed, with bars for their 95% intervals (bootstrap for the mean, Wilson for the rate).</figcaption></figure>
<figure>${caughtChart(report)}<figcaption>Stuck agents caught against the threshold, ticks at the tested values.</figcaption></figure>
<figure>${wasteChart(report)}<figcaption>Wasted tokens per stuck agent, cumulative on a log scale: a line further up and to the left wastes less.</figcaption></figure>
<figure>${warnedChart(report)}<figcaption>Warnings: progressing agents warned, stuck agents stopped by a warning (they changed approach, so no block was needed), and stuck agents caught.</figcaption></figure>
<figure>${familyChart(report)}<figcaption>By family: stuck families stopped (greener is better), progressing and recovering families stopped wrongly (redder is worse).</figcaption></figure>
</div>
<h2>Every config</h2>
<table><thead><tr>${header.map((h) => `<th>${esc(h)}</th>`).join("")}</tr></thead><tbody>
${rows}
</tbody></table>
${skipped === "" ? "" : `<p>Skipped ${report.grid.skipped.length} combinations that break warning &lt; critical &lt; global:</p><ul>${skipped}</ul>`}
${report.sessions === undefined ? "" : `<h2>Recorded sessions</h2>
<p>${esc(sessionsIntro(report))}</p>
<table><thead><tr>${SESSION_HEADER.map((h) => `<th>${esc(h)}</th>`).join("")}</tr></thead><tbody>
${report.rows.map((r) => `<tr${r.index === 0 ? ' class="defaults"' : ""}>${sessionCells(r).map((c) => `<td>${esc(c)}</td>`).join("")}</tr>`).join("\n")}
</tbody></table>`}
${[groundedSection(report), disagreementSection(report), realLoopsSection(report)].map((section) => (section === undefined ? "" : sectionHtml(section))).join("\n")}
${realOutcomesHtml(report.realOutcomes, esc, "config")}
${report.reactionSensitivity === undefined ? "" : sensitivityHtml(tuneSensitivitySection(report.reactionSensitivity), report.reactionSensitivity.grid)}
${report.grounded?.primary === true ? "" : `<h2>By family (caught / warned / stopped wrongly)</h2>
<table><thead><tr><th>family</th><th>kind</th>${shown.map((r) => `<th>${esc(r === undefined ? "" : rowLabel(r))}</th>`).join("")}</tr></thead><tbody>
${families}
</tbody></table>
<h2>Population</h2>
<table><thead><tr><th>family</th><th>model</th><th>weight</th></tr></thead><tbody>
${report.population.members.map((m) => `<tr><td>${esc(m.family)}</td><td>${m.model}</td><td>${m.weight}</td></tr>`).join("\n")}
</tbody></table>`}
<h2>Definitions</h2><dl>${definitions}</dl>
</body></html>
`;
}
