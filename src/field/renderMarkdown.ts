// The field matrix as Markdown: the headline, the matrix (one row per reported failure), then per
// report its thread, what was reported, what a correct guard does, where its real code reproduces
// it, and every cell's account with its replay line.
import type { CellStatus, FieldCell, FieldReport, FieldRow, FieldTotals } from "./report.js";
import { runtimeOf } from "./lineup.js";
import { isPrerelease, regressionText } from "./timeline.js";
import { versionLabelOf } from "../targets/targetRef.js";

export const MARK: Readonly<Record<CellStatus, string>> = { failure: "**FAILS**", "let-through": "**let through**", fixed: "fixed", "n/a": "n/a", "not-run": "not run" };

/** A cell's mark in the matrix: † a CLI standing in for the product the thread reports, ‡ a verdict resting on a fix PR's rule. */
export function cellMark(cell: FieldCell | undefined, row: FieldRow): string {
  const status = cell?.status ?? "not-run";
  const judged = status === "failure" || status === "let-through" || status === "fixed";
  return `${MARK[status]}${judged && cell?.standsInFor !== undefined ? "†" : ""}${judged && row.ruleFrom !== undefined ? "‡" : ""}`;
}

/** A row's config in a few words: default, enabled, or the scenario's own, and whether the thread states it. */
export function configShort(r: FieldRow): string {
  const name = r.config.name === "scenario" ? (r.runtime === "openclaw" ? "own" : "scenario") : r.config.name;
  return r.config.stated ? `${name} (thread's)` : name;
}

/** Still failing: the reported failure, or a block that lets the loop go on. */
const stillFailing = (t: FieldTotals | undefined) => (t?.failure ?? 0) + (t?.letThrough ?? 0);

/** The headline sentences, shared by the Markdown, the HTML and the command's summary. */
export function headlineLines(report: FieldReport): string[] {
  const h = report.headline;
  const kinds = Object.entries(h.byKind).sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${n} ${k}`).join(", ");
  const worst = report.targets
    .map((t) => ({ name: t.name, totals: report.totals[t.name] }))
    .filter((t) => t.totals !== undefined && t.totals.failure + t.totals.letThrough + t.totals.fixed > 0)
    .map((t) => `${t.name} ${stillFailing(t.totals)}/${stillFailing(t.totals) + (t.totals?.fixed ?? 0)}${(t.totals?.letThrough ?? 0) > 0 ? ` (${t.totals?.letThrough} let through)` : ""}`);
  const fixes = Object.entries(h.laterFixes).map(([id, v]) => `${id} (fixed in ${v})`);
  const regressions = Object.entries(h.regressions).map(([key, text]) => `${key}: ${text}`);
  const dependent = Object.entries(h.configDependent).map(([key, text]) => `${key} ${text}`);
  const letThroughRows = report.rows.filter((r) => r.config.primary && Object.values(r.cells).some((c) => c.status === "let-through")).map((r) => r.key);
  return [
    `${h.scenarios} reported failures (${kinds}). Every OpenClaw report is judged with the default config and with loop detection enabled, and with its own config where that is neither: ${h.configStated.length} of ${h.configStated.length + h.configAssumed.length} OpenClaw threads state their config; for ${h.configAssumed.length} it is assumed.`,
    `On the reported runtime's own code, with the config each scenario gives: ${h.reproducedOnRealCode.length} reproduce (the failure, or a block that lets the loop go on), ${h.notReproducedOnRealCode.length} do not, ${h.realCodeNotRun.length} not run (their runtime's code does not run here, or is not among the columns).`,
    `Blocked, then let through (stopped in time, then later calls of the loop ran; not fixed): ${h.letThroughCells} cells over every config and column; in the rows of each scenario's own config: ${letThroughRows.length === 0 ? "none" : letThroughRows.join(", ")}.`,
    `Fixed, then back: ${regressions.length === 0 ? "none" : regressions.join("; ")}.`,
    `A later version shows the fix and every later version keeps it: ${fixes.length === 0 ? "none" : fixes.join(", ")}.`,
    `The verdict on the real code turns on the config: ${dependent.length === 0 ? "none" : dependent.join("; ")}.`,
    `Reported failures each target still has (FAILS or let through, of those it was judged on, with each scenario's config): ${worst.join(", ")}.`,
  ];
}

export function renderFieldMarkdown(report: FieldReport): string {
  const lines: string[] = [];
  lines.push("# The field matrix: reported guard failures, replayed", "");
  lines.push(`Made by \`${report.command}\` (loopsim ${report.loopsimVersion}). Each row is a failure a user reported in a public thread, as a trace with what a correct guard does (a predicate on the outputs), judged with one config: an OpenClaw report has a row with the default config, one with loop detection enabled, and one with its own config where that is neither; "(thread's)" marks the config the thread states. Each cell: **FAILS** (the target still has the reported failure), **let through** (it stopped the loop in time, then let later calls of it run: not fixed), fixed (it does what the scenario expects and the loop ends where it is stopped), n/a (it cannot show what the scenario needs; why below), not run (why below). † the product that ran stands in for the one the thread reports (a CLI for a VS Code extension); ‡ the verdict rests on a rule taken from a fix PR (or a proposal), not on the product's own stop. Every cell replays with \`loopsim field replay FILE --target T [--config default|enabled]\`.`, "");
  for (const l of headlineLines(report)) lines.push(`- ${l}`);
  lines.push("");
  lines.push(`| report | config | kind | real code | ${report.targets.map((t) => t.name).join(" | ")} |`);
  lines.push(`|---|---|---|---|${report.targets.map(() => "---").join("|")}|`);
  for (const r of report.rows) lines.push(`| [${r.id}](${r.url}) | ${configShort(r)} | ${r.kind} | ${realCodeText(r)} | ${report.targets.map((t) => cellMark(r.cells[t.name], r)).join(" | ")} |`);
  lines.push(`| | | | **still failing** (each scenario's config) | ${report.targets.map((t) => `**${stillFailing(report.totals[t.name])}**`).join(" | ")} |`, "");
  const seen = new Set<string>();
  for (const r of report.rows) {
    if (seen.has(r.id)) continue;
    seen.add(r.id);
    lines.push(...reportSection(report.rows.filter((x) => x.id === r.id), report));
  }
  lines.push("## The targets", "");
  for (const t of report.targets) lines.push(`- **${t.name}** (${t.kind}): ${escape(t.summary)}`);
  return lines.join("\n") + "\n";
}

export function realCodeText(r: FieldRow): string {
  const rc = r.realCode;
  if (rc.target === undefined) return `not run: ${escape(rc.why ?? "")}`;
  const verdict = rc.status === "failure" ? "reproduces" : rc.status === "let-through" ? "reproduces (blocked, then let through)" : rc.status === "fixed" ? "does not reproduce" : (rc.status ?? "");
  const back = (rc.regressions ?? []).map(regressionText);
  const cell = r.cells[rc.target];
  const standIn = cell?.standsInFor === undefined ? "" : ` (a CLI standing in for the ${escape(cell.standsInFor)})`;
  const stop = cell?.loop?.firstStop === undefined ? "none" : `at call ${cell.loop.firstStop}`;
  const rule = r.ruleFrom === undefined ? "" : `, by a rule taken from ${escape(r.ruleFrom)} (its own stop: ${stop})`;
  return `${verdict} on ${rc.target}${standIn}${rule}${rc.laterFix === undefined ? "" : `; fixed in ${rc.laterFix}`}${back.length === 0 ? "" : `; ${back.join("; ")}`}`;
}

/** Oldest first: each release judged and its verdict; then the pre-releases, which are not steps of it. */
export function timelineText(r: FieldRow): string {
  const word = (s: CellStatus | undefined) => (s === "failure" ? "FAILS" : s === "let-through" ? "let through" : "fixed");
  const point = (target: string) => `${versionLabelOf(target)} ${word(r.cells[target]?.status)}`;
  const pre = Object.keys(r.cells).filter((t) => isPrerelease(t) && r.realCode.target !== undefined && runtimeOf(t) === r.runtime && (r.cells[t]?.status === "failure" || r.cells[t]?.status === "let-through" || r.cells[t]?.status === "fixed"));
  return (r.realCode.timeline ?? []).map((p) => point(p.target)).join(" · ") + (pre.length === 0 ? "" : ` (pre-releases, not in the timeline: ${pre.map(point).join(", ")})`);
}

function reportSection(rows: readonly FieldRow[], report: FieldReport): string[] {
  const r = rows[0] as FieldRow;
  const out: string[] = [`## ${r.id}: ${escape(r.title)}`, ""];
  out.push(`[${r.url}](${r.url}) · ${r.runtime}${r.reportedProduct === undefined ? "" : ` (${escape(r.reportedProduct)})`} · reported against: ${escape(r.reportedAs)}${r.reportedVersion === null ? "" : ` (taken as ${r.reportedVersion})`} · ${r.kind}${r.fixedAs === undefined ? "" : ` · fix: ${escape(r.fixedAs)}`}`, "");
  out.push(`- **Reported**: ${escape(r.reported)}`);
  out.push(`- **A correct guard**: ${escape(r.expected.text)} (checked: ${predicateText(r.expected)}; ${r.calls} calls in \`${r.file}\`)`);
  if (r.ruleFrom !== undefined) out.push(`- **Whose rule**: the predicate's bounds are a rule taken from ${escape(r.ruleFrom)}, not what the product's own guard does`);
  out.push(`- **Config**: ${r.configStated === null ? "the thread does not state it" : `the thread states: ${escape(r.configStated)}`}`);
  if (r.adjusted !== undefined) out.push(`- **Where the trace differs from the thread**: ${escape(r.adjusted)}`);
  out.push("");
  for (const row of rows) {
    out.push(`### ${row.key}: ${escape(row.config.label)}`, "");
    out.push(`- **Real code**: ${realCodeText(row)}`);
    if ((row.realCode.timeline ?? []).length > 1) out.push(`- **Timeline**: ${timelineText(row)}`);
    out.push("");
    // What ran is the target's (see "The targets"), so a cell names it only when it stands in for
    // another product; cells not run are gathered on one line per reason.
    out.push("| target | verdict | what it did | rests on | replay |", "|---|---|---|---|---|");
    const notRun = new Map<string, string[]>();
    for (const t of report.targets) {
      const c = row.cells[t.name];
      if (c === undefined) continue;
      if (c.status === "not-run") {
        const why = c.reason ?? "";
        notRun.set(why, [...(notRun.get(why) ?? []), t.name]);
        continue;
      }
      const judged = c.status === "failure" || c.status === "let-through" || c.status === "fixed";
      const what = judged ? `${c.observed ?? ""}${c.broken === undefined || c.broken.length === 0 ? "" : ` (${c.broken.join("; ")})`}` : (c.reason ?? "");
      const standIn = c.standsInFor === undefined ? "" : ` († ${c.ran ?? ""})`;
      const basis = c.restsOn !== undefined && (row.ruleFrom !== undefined || c.restsOn.startsWith("its own stop")) ? c.restsOn : "";
      out.push(`| ${t.name} | ${MARK[c.status]}${standIn} | ${escape(what)} | ${escape(basis)} | \`${c.replay}\` |`);
    }
    out.push("");
    for (const [why, names] of notRun) out.push(`Not run here (${names.join(", ")}): ${escape(why)}`, "");
    out.push("");
  }
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
