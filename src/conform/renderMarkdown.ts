// The conformance report as Markdown: the matrix, then every failure with its counterexample and
// replay line, every n/a with its reason, and what each target is.
import type { ConformanceReport } from "./matrix.js";

const MARK = { pass: "pass", fail: "**FAIL**", "n/a": "n/a", untested: "untested" } as const;

export function renderConformanceMarkdown(report: ConformanceReport, command: string): string {
  const lines: string[] = [];
  lines.push("# Conformance to the loopsim behaviour contract", "");
  lines.push(`Made by \`${command}\` (loopsim ${report.loopsimVersion}, seed ${report.seed}, depth ${report.depth}). Each cell: **FAIL** (a check covering the rule failed; its minimal counterexample is listed below), pass (checks covering it passed), n/a (the target lacks what the rule needs; reason below), untested (no check judged it: none covers it, or one that covers it failed on another rule first; reason below).`, "");
  lines.push(`| rule | | ${report.targets.map((t) => t.target).join(" | ")} |`);
  lines.push(`|---|---|${report.targets.map(() => "---").join("|")}|`);
  for (const rule of report.rules) {
    lines.push(`| ${rule.id} | ${rule.title} | ${report.targets.map((t) => MARK[t.cells[rule.id]?.status ?? "untested"]).join(" | ")} |`);
  }
  lines.push(`| | **failing rules** | ${report.targets.map((t) => `**${t.counts.fail}**`).join(" | ")} |`, "");
  for (const t of report.targets) {
    lines.push(`## ${t.target}`, "", t.summary, "");
    const c = t.capabilities;
    lines.push(`Models: rolling detectors ${c.rollingDetectors ? "yes" : "no"}, warning level ${c.warningLevel ? "yes" : "no"}, warning policy ${c.warningPolicy ? "yes" : "no"}, post-compaction guard ${c.guard ? "driven" : "no"}, counts ${c.counts ? "yes" : "no"}; honours ${c.honours.join(", ")}; detectors ${c.detectors.join(", ")}.`, "");
    if (t.notes.length > 0) {
      lines.push("How loopsim drives it:", "");
      for (const n of t.notes) lines.push(`- ${n}`);
      lines.push("");
    }
    const fails = report.rules.filter((r) => t.cells[r.id]?.status === "fail");
    if (fails.length > 0) {
      lines.push("| failing rule | check | what differs | counterexample | replay |", "|---|---|---|---|---|");
      for (const r of fails) {
        const cell = t.cells[r.id];
        const ce = cell?.counterexample;
        lines.push(`| ${r.id} | ${(cell?.failing ?? []).join(", ")} | ${escape(cell?.reason ?? "")} | ${ce === undefined || ce.file === "" ? "" : `${ce.file} (${ce.events} events)`} | \`${ce?.replay ?? ""}\` |`);
      }
      lines.push("");
    }
    const nas = report.rules.filter((r) => t.cells[r.id]?.status === "n/a" || t.cells[r.id]?.status === "untested");
    if (nas.length > 0) {
      lines.push("| rule not judged | why |", "|---|---|");
      for (const r of nas) lines.push(`| ${r.id} | ${escape(t.cells[r.id]?.reason ?? "")} |`);
      lines.push("");
    }
    lines.push(`Checks: ${t.checks.length} (${t.checks.filter((x) => x.status === "pass").length} pass, ${t.checks.filter((x) => x.status === "fail").length} fail, ${t.checks.filter((x) => x.status === "n/a").length} n/a).`, "");
  }
  return lines.join("\n") + "\n";
}

function escape(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}
