// The conformance report as one self-contained HTML page: the matrix with coloured cells (the
// reason and counterexample on hover and in the lists below), no external assets.
import type { ConformanceReport } from "./matrix.js";

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function renderConformanceHtml(report: ConformanceReport, command: string): string {
  const head = report.targets.map((t) => `<th scope="col">${esc(t.target)}</th>`).join("");
  const rows = report.rules
    .map((rule) => {
      const cells = report.targets
        .map((t) => {
          const cell = t.cells[rule.id];
          const status = cell?.status ?? "untested";
          const tip = [cell?.reason ?? "", cell?.counterexample?.replay ?? ""].filter((x) => x !== "").join("\n");
          return `<td class="${status.replace("/", "")}" title="${esc(tip)}">${status === "fail" ? "FAIL" : status}</td>`;
        })
        .join("");
      return `<tr><th scope="row">${rule.id}</th><td class="title">${esc(rule.title)}</td>${cells}</tr>`;
    })
    .join("\n");
  const sections = report.targets
    .map((t) => {
      const fails = report.rules.filter((r) => t.cells[r.id]?.status === "fail");
      const items = fails
        .map((r) => {
          const cell = t.cells[r.id];
          const ce = cell?.counterexample;
          return `<li><b>${r.id}</b> ${esc((cell?.failing ?? []).join(", "))}: ${esc(cell?.reason ?? "")}${ce === undefined ? "" : `<br><code>${esc(ce.replay)}</code>${ce.file === "" ? "" : ` (${ce.events} events)`}`}</li>`;
        })
        .join("");
      const nas = report.rules
        .filter((r) => t.cells[r.id]?.status === "n/a" || t.cells[r.id]?.status === "untested")
        .map((r) => `<li><b>${r.id}</b>: ${esc(t.cells[r.id]?.reason ?? "")}</li>`)
        .join("");
      const notes = t.notes.map((n) => `<li>${esc(n)}</li>`).join("");
      return `<section><h2>${esc(t.target)}</h2><p>${esc(t.summary)}</p>${notes === "" ? "" : `<details><summary>How loopsim drives it</summary><ul>${notes}</ul></details>`}${items === "" ? "<p>No failing rule.</p>" : `<h3>Failing rules</h3><ul>${items}</ul>`}${nas === "" ? "" : `<details><summary>Rules not judged (${fails.length === 0 ? "" : ""}${report.rules.filter((r) => t.cells[r.id]?.status === "n/a" || t.cells[r.id]?.status === "untested").length})</summary><ul>${nas}</ul></details>`}</section>`;
    })
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>loopsim conformance</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1b1b1b;max-width:1400px}
table{border-collapse:collapse;margin:12px 0}
th,td{border:1px solid #d0d0d0;padding:3px 8px;text-align:center;white-space:nowrap}
td.title{text-align:left;color:#444}
thead th{position:sticky;top:0;background:#f4f4f4;writing-mode:vertical-rl;transform:rotate(180deg);vertical-align:bottom;padding:8px 3px}
td.pass{background:#dff3df}td.fail{background:#f8d4d4;font-weight:700}td.na{background:#eeeeee;color:#666}td.untested{background:#fff;color:#999}
code{font-size:12px;background:#f4f4f4;padding:1px 3px}
li{margin:4px 0}
</style></head><body>
<h1>Conformance to the loopsim behaviour contract</h1>
<p>Made by <code>${esc(command)}</code> (loopsim ${esc(report.loopsimVersion)}, seed ${report.seed}). FAIL: a check covering the rule failed (its minimal counterexample replays with the command shown); pass: the checks covering it passed; n/a: the target lacks what the rule needs; untested: no check judged it (none covers it, or one that covers it failed on another rule first). Hover a cell for its reason.</p>
<table><thead><tr><th></th><th></th>${head}</tr></thead><tbody>
${rows}
<tr><th></th><td class="title"><b>failing rules</b></td>${report.targets.map((t) => `<td><b>${t.counts.fail}</b></td>`).join("")}</tr>
</tbody></table>
${sections}
</body></html>
`;
}
