// The field matrix as Markdown: the headline, the matrix (one row per reported failure), then per
// report its thread, what was reported, what a correct guard does, where its real code reproduces
// it, and every cell's account with its replay line.
import type { CellStatus, FieldReport, FieldRow } from "./report.js";

export const MARK: Readonly<Record<CellStatus, string>> = { failure: "**FAILS**", fixed: "fixed", "n/a": "n/a", "not-run": "not run" };

/** The headline sentences, shared by the Markdown, the HTML and the command's summary. */
export function headlineLines(report: FieldReport): string[] {
  const h = report.headline;
  const kinds = Object.entries(h.byKind).sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${n} ${k}`).join(", ");
  const worst = report.targets
    .map((t) => ({ name: t.name, totals: report.totals[t.name] }))
    .filter((t) => t.totals !== undefined && t.totals.failure + t.totals.fixed > 0)
    .map((t) => `${t.name} ${t.totals?.failure}/${(t.totals?.failure ?? 0) + (t.totals?.fixed ?? 0)}`);
  const fixes = Object.entries(h.laterFixes).map(([id, v]) => `${id} (fixed in ${v})`);
  return [
    `${h.scenarios} reported failures (${kinds}).`,
    `On the reported runtime's own code: ${h.reproducedOnRealCode.length} reproduce, ${h.notReproducedOnRealCode.length} do not, ${h.realCodeNotRun.length} not run (their runtime's code does not run here, or is not among the columns).`,
    `A later version shows the fix: ${fixes.length === 0 ? "none" : fixes.join(", ")}.`,
    `Reported failures each target still has (of those it was judged on): ${worst.join(", ")}.`,
  ];
}

export function renderFieldMarkdown(report: FieldReport): string {
  const lines: string[] = [];
  lines.push("# The field matrix: reported guard failures, replayed", "");
  lines.push(`Made by \`${report.command}\` (loopsim ${report.loopsimVersion}). Each row is a failure a user reported in a public thread, as a trace with what a correct guard does (a predicate on the outputs). Each cell: **FAILS** (the target still has the reported failure), fixed (it does what the scenario expects), n/a (it cannot show what the scenario needs; why below), not run (why below). Every cell replays with \`loopsim field replay FILE --target T\`.`, "");
  for (const l of headlineLines(report)) lines.push(`- ${l}`);
  lines.push("");
  lines.push(`| report | kind | real code | ${report.targets.map((t) => t.name).join(" | ")} |`);
  lines.push(`|---|---|---|${report.targets.map(() => "---").join("|")}|`);
  for (const r of report.rows) lines.push(`| [${r.id}](${r.url}) | ${r.kind} | ${realCodeText(r)} | ${report.targets.map((t) => MARK[r.cells[t.name]?.status ?? "not-run"]).join(" | ")} |`);
  lines.push(`| | | **still failing** | ${report.targets.map((t) => `**${report.totals[t.name]?.failure ?? 0}**`).join(" | ")} |`, "");
  for (const r of report.rows) lines.push(...rowSection(r, report));
  lines.push("## The targets", "");
  for (const t of report.targets) lines.push(`- **${t.name}** (${t.kind}): ${escape(t.summary)}`);
  return lines.join("\n") + "\n";
}

export function realCodeText(r: FieldRow): string {
  const rc = r.realCode;
  if (rc.target === undefined) return `not run: ${escape(rc.why ?? "")}`;
  const verdict = rc.status === "failure" ? "reproduces" : rc.status === "fixed" ? "does not reproduce" : (rc.status ?? "");
  return `${verdict} on ${rc.target}${rc.laterFix === undefined ? "" : `; fixed in ${rc.laterFix}`}`;
}

function rowSection(r: FieldRow, report: FieldReport): string[] {
  const out: string[] = [`## ${r.id}: ${escape(r.title)}`, ""];
  out.push(`[${r.url}](${r.url}) · ${r.runtime} · reported against: ${escape(r.reportedAs)}${r.reportedVersion === null ? "" : ` (taken as ${r.reportedVersion})`} · ${r.kind}${r.fixedAs === undefined ? "" : ` · fix: ${escape(r.fixedAs)}`}`, "");
  out.push(`- **Reported**: ${escape(r.reported)}`);
  out.push(`- **A correct guard**: ${escape(r.expected.text)} (checked: ${predicateText(r.expected)}; ${r.calls} calls in \`${r.file}\`)`);
  if (r.adjusted !== undefined) out.push(`- **Where the trace differs from the thread**: ${escape(r.adjusted)}`);
  out.push(`- **Real code**: ${realCodeText(r)}`, "");
  out.push("| target | verdict | what it did | replay |", "|---|---|---|---|");
  for (const t of report.targets) {
    const c = r.cells[t.name];
    if (c === undefined) continue;
    const what = c.status === "failure" || c.status === "fixed" ? `${c.observed ?? ""}${c.broken === undefined || c.broken.length === 0 ? "" : ` (${c.broken.join("; ")})`}` : (c.reason ?? "");
    out.push(`| ${t.name} | ${MARK[c.status]} | ${escape(what)} | \`${c.replay}\` |`);
  }
  out.push("");
  return out;
}

export function predicateText(e: FieldRow["expected"]): string {
  const parts: string[] = [];
  if (e.stopsBy !== undefined) parts.push(`stops by call ${e.stopsBy}`);
  if (e.runsNothingAfter !== undefined) parts.push(`no call runs after call ${e.runsNothingAfter}`);
  if (e.endsRunBy !== undefined) parts.push(`the run ends by call ${e.endsRunBy}`);
  if (e.neverStops === true) parts.push("never stops");
  if (e.neverFlags === true) parts.push("never flags");
  if (e.tellsModelBy !== undefined) parts.push(`the model is told by call ${e.tellsModelBy}`);
  return parts.join(", ");
}

function escape(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}
