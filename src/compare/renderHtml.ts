// compare.html: self-contained (inline CSS and SVG, no scripts, no network), from the report alone.
import { planeChart, heatmap } from "./charts.js";
import { SENSITIVITY_CSS, sensitivityHtml } from "../reportParts/reactionGridView.js";
import { compareSensitivitySection } from "./sensitivitySection.js";
import { escapeHtml } from "../reportParts/section.js";
import { headline, populationSentence, sessionCells, type CompareReport } from "./report.js";
import { sessionLabels } from "./renderMarkdown.js";
import { realLoopsHtml, realLoopsSection } from "./realLoopsSection.js";
import { realOutcomesHtml, wholeTraceRowsNote } from "../reportParts/realOutcomesSection.js";

const esc = escapeHtml;

function table(rows: readonly Record<string, string>[]): string {
  const first = rows[0];
  if (first === undefined) return "";
  const head = Object.keys(first);
  return `<table><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join("")}</tr></thead><tbody>${rows.map((r) => `<tr>${head.map((h) => `<td>${esc(r[h] ?? "")}</td>`).join("")}</tr>`).join("\n")}</tbody></table>`;
}

export function renderCompareHtml(report: CompareReport): string {
  const labels = sessionLabels(report);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>loopsim compare</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1150px;padding:0 1rem;color:#111}
table{border-collapse:collapse;margin:1rem 0;font-size:13px}td,th{border:1px solid #ddd;padding:3px 7px;text-align:right}td:first-child,th:first-child{text-align:left}
figure{margin:1rem 0}figcaption{font-size:12px;color:#555}dt{font-weight:600}code{background:#f6f8fa;padding:0 .2rem}
${SENSITIVITY_CSS}
</style></head><body>
<h1>loopsim compare: loop guards side by side</h1>
<p>loopsim ${esc(report.loopsimVersion)}, seed ${report.seed}, ${esc(populationSentence(report).replace(/`/g, ""))}. Reproduce: <code>${esc(report.reproduce)}</code>.</p>
${wholeTraceRowsNote(report.realOutcomes) === undefined ? "" : `<p>${esc((wholeTraceRowsNote(report.realOutcomes) as string).replace(/`|\*\*/g, ""))}</p>\n`}<h2>${report.grounded === undefined ? "Simulated agents" : "Real sessions as agents"}</h2>
${table(report.rows.map(headline))}
<figure>${planeChart(report)}<figcaption>Each guard on the plane of waste (median tokens a stuck agent spends in its loop before the stop; further left is better) against false positives (progressing agents stopped wrongly; lower is better). Red: OpenClaw, blue: other runtimes. Bars: 95% intervals (bootstrap for the median, Wilson for the share).</figcaption></figure>
<figure>${heatmap(report)}<figcaption>Families by guards. Stuck families: the share stopped (greener is better). Progressing and recovering families: the share stopped wrongly (redder is worse).</figcaption></figure>
${realOutcomesHtml(report.realOutcomes, esc)}${realLoopsHtml(realLoopsSection(report.realLoops, report.grounded), esc)}${report.reactionSensitivity === undefined ? "" : sensitivityHtml(compareSensitivitySection(report.reactionSensitivity), report.reactionSensitivity.grid)}
${report.sessions === undefined ? "" : `<h2>Recorded sessions</h2>
<p>${report.sessions.count} sessions (${esc(labels.map((l) => `${report.sessions?.byLabel[l] ?? 0} ${l}`).join(", "))}). Open-loop: after a run's first block or stop, the rest of it counts as cut.</p>
${table(report.rows.map((r) => sessionCells(r, labels)))}`}
<h2>The guards</h2>
<dl>${report.rows.map((r) => `<dt>${esc(r.name)}</dt><dd>${esc(r.description)}${r.notes.length === 0 ? "" : `<br>Choices: ${esc(r.notes.join("; "))}`}</dd>`).join("")}</dl>
<h2>How their actions are read</h2>
<ul>${report.choices.map((c) => `<li>${esc(c)}</li>`).join("")}</ul>
<h2>Definitions</h2><dl>${Object.entries(report.definitions).map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join("")}</dl>
</body></html>
`;
}
