// The field matrix as one self-contained HTML page: coloured cells (the account and replay line on
// hover), then each report's details. No external assets.
import type { FieldReport } from "./report.js";
import { configShort, headlineLines, predicateText, realCodeText, timelineText } from "./renderMarkdown.js";

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const LABEL = { failure: "FAILS", "let-through": "let through", fixed: "fixed", "n/a": "n/a", "not-run": "not run" } as const;

export function renderFieldHtml(report: FieldReport): string {
  const head = report.targets.map((t) => `<th scope="col" title="${esc(t.kind)}">${esc(t.name)}</th>`).join("");
  const rows = report.rows
    .map((r) => {
      const cells = report.targets
        .map((t) => {
          const c = r.cells[t.name];
          const status = c?.status ?? "not-run";
          const tip = [c?.ran ?? "", c?.observed ?? c?.reason ?? "", (c?.broken ?? []).join("; "), c?.restsOn === undefined ? "" : `rests on: ${c.restsOn}`, c?.replay ?? ""].filter((x) => x !== "").join("\n");
          const marks = `${c?.standsInFor === undefined ? "" : "†"}${r.ruleFrom !== undefined && c?.restsOn !== undefined ? "‡" : ""}`;
          return `<td class="${status.replace("/", "")}" title="${esc(tip)}">${LABEL[status]}${marks}</td>`;
        })
        .join("");
      return `<tr><th scope="row"><a href="#${esc(r.key)}">${esc(r.id)}</a></th><td class="kind">${esc(configShort(r))}</td><td class="kind">${esc(r.kind)}</td><td class="real">${esc(realCodeText(r))}</td>${cells}</tr>`;
    })
    .join("\n");
  const totals = report.targets.map((t) => `<td><b>${(report.totals[t.name]?.failure ?? 0) + (report.totals[t.name]?.letThrough ?? 0)}</b></td>`).join("");
  const sections = report.rows
    .map((r) => {
      const items = report.targets
        .map((t) => {
          const c = r.cells[t.name];
          if (c === undefined) return "";
          const what = c.status === "failure" || c.status === "let-through" || c.status === "fixed" ? `${c.ran ?? ""}: ${c.observed ?? ""}${c.broken === undefined || c.broken.length === 0 ? "" : ` (${c.broken.join("; ")})`}` : (c.reason ?? "");
          return `<li><b>${esc(t.name)}</b> <span class="tag ${c.status.replace("/", "")}">${LABEL[c.status]}</span> ${esc(what)}${c.restsOn === undefined ? "" : ` (rests on ${esc(c.restsOn)})`}<br><code>${esc(c.replay)}</code></li>`;
        })
        .join("");
      return `<section id="${esc(r.key)}"><h2>${esc(r.key)}: ${esc(r.title)}</h2>
<p><b>Config</b>: ${esc(r.config.label)}; ${r.configStated === null ? "the thread does not state its config" : `the thread states: ${esc(r.configStated)}`}</p>
<p><a href="${esc(r.url)}">${esc(r.url)}</a> · ${esc(r.runtime)} · reported against: ${esc(r.reportedAs)} · ${esc(r.kind)}${r.fixedAs === undefined ? "" : ` · fix: ${esc(r.fixedAs)}`}</p>
<p><b>Reported</b>: ${esc(r.reported)}</p><p><b>A correct guard</b>: ${esc(r.expected.text)} (checked: ${esc(predicateText(r.expected))}; ${r.calls} calls in <code>${esc(r.file)}</code>)</p>
${r.adjusted === undefined ? "" : `<p><b>Where the trace differs from the thread</b>: ${esc(r.adjusted)}</p>`}<p><b>Real code</b>: ${esc(realCodeText(r))}</p>${(r.realCode.timeline ?? []).length > 1 ? `<p><b>Timeline</b>: ${esc(timelineText(r))}</p>` : ""}
<details><summary>Every target</summary><ul>${items}</ul></details></section>`;
    })
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>loopsim field matrix</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1b1b1b;max-width:1600px}
table{border-collapse:collapse;margin:12px 0}
th,td{border:1px solid #d0d0d0;padding:3px 6px;text-align:center;white-space:nowrap}
td.kind,td.real{text-align:left;color:#444;white-space:normal;min-width:9em}
thead th{position:sticky;top:0;background:#f4f4f4;writing-mode:vertical-rl;transform:rotate(180deg);vertical-align:bottom;padding:8px 3px}
td.failure,.tag.failure{background:#f8d4d4;font-weight:700}td.let-through,.tag.let-through{background:#fbe3c4;font-weight:700}td.fixed,.tag.fixed{background:#dff3df}td.na,.tag.na{background:#eeeeee;color:#666}td.not-run,.tag.not-run{background:#fff;color:#999}
.tag{padding:0 4px;border-radius:3px}
code{font-size:12px;background:#f4f4f4;padding:1px 3px}
li{margin:4px 0}
</style></head><body>
<h1>The field matrix: reported guard failures, replayed</h1>
<p>Made by <code>${esc(report.command)}</code> (loopsim ${esc(report.loopsimVersion)}). FAILS: the target still has the failure the thread reported; let through: it stopped the loop in time, then let later calls of it run (not fixed); † a CLI standing in for the product the thread reports; ‡ the verdict rests on a fix PR's rule; fixed: it does what the scenario expects; n/a: it cannot show what the scenario needs; not run: why on hover. Hover a cell for what the target did and its replay line.</p>
<ul>${headlineLines(report).map((l) => `<li>${esc(l)}</li>`).join("")}</ul>
<table><thead><tr><th>report</th><th>config</th><th>kind</th><th>real code</th>${head}</tr></thead><tbody>
${rows}
<tr><th></th><td></td><td></td><td class="real"><b>still failing</b></td>${totals}</tr>
</tbody></table>
${sections}
</body></html>
`;
}
