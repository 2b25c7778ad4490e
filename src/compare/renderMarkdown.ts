// compare.md: the table first, then the sessions, the families, and every choice made.
import { unreadableNote } from "../format/unreadableNote.js";
import { markdownRow } from "../reportParts/section.js";
import { pct } from "../format/svgScale.js";
import { realLoopsMarkdown, realLoopsSection } from "./realLoopsSection.js";
import { realOutcomesMarkdown, wholeTraceRowsNote } from "../reportParts/realOutcomesSection.js";
import { sensitivityMarkdown } from "../reportParts/reactionGridView.js";
import { compareSensitivitySection } from "./sensitivitySection.js";
import { familiesIn, familyNa, headline, populationSentence, sessionCells, type CompareReport } from "./report.js";

function table(rows: readonly Record<string, string>[]): string {
  const first = rows[0];
  if (first === undefined) return "";
  const head = Object.keys(first);
  return [markdownRow(head), `|${head.map(() => "---").join("|")}|`, ...rows.map((r) => markdownRow(head.map((h) => r[h] ?? "")))].join("\n");
}

export function sessionLabels(report: CompareReport): string[] {
  return Object.keys(report.sessions?.byLabel ?? {}).sort();
}

export function renderCompareMarkdown(report: CompareReport): string {
  const lines: string[] = [];
  lines.push("# loopsim compare: loop guards side by side", "");
  lines.push(`loopsim ${report.loopsimVersion}, seed ${report.seed}, ${populationSentence(report)}.`, "");
  lines.push(`Reproduce: \`${report.reproduce}\``, "");
  const cliRows = wholeTraceRowsNote(report.realOutcomes);
  if (cliRows !== undefined) lines.push(cliRows, "");
  const first = report.rows[0]?.metrics;
  const agentsWord = report.grounded === undefined ? "simulated agents" : `agents from real sessions (stuck: with an injected loop${report.grounded.loops === undefined ? "" : " or a mined stuck stretch"})`;
  lines.push(`## ${report.grounded === undefined ? "Simulated agents" : "Real sessions as agents"}`, "");
  if (first !== undefined) lines.push(`Sample sizes per guard: ${first.overall.agents} ${agentsWord} (${first.stuck.agents} stuck, ${first.progressing.agents} progressing, ${first.recovering.agents} recovering). Brackets are 95% intervals: Wilson for shares, a seeded percentile bootstrap over agents (400 resamples) for medians; two guards whose intervals overlap may not differ.`, "");
  lines.push(table(report.rows.map(headline)), "");
  if (report.sessions !== undefined) {
    const labels = sessionLabels(report);
    lines.push("## Recorded sessions", "");
    lines.push(`${report.sessions.count} sessions (${labels.map((l) => `${report.sessions?.byLabel[l] ?? 0} ${l}`).join(", ")}) from ${report.sessions.paths.map((p) => `\`${p}\``).join(", ")}${report.sessions.labels === undefined ? "" : `, labels \`${report.sessions.labels}\` matched by ${report.sessions.labelKey ?? "id"}`}. Open-loop: after a run's first block or stop the rest of it counts as cut. Brackets are 95% Wilson intervals over the ${report.sessions.count} sessions.${unreadableNote(report.sessions.unreadable)}`, "");
    lines.push(table(report.rows.map((r) => sessionCells(r, labels))), "");
  }
  lines.push(...realOutcomesMarkdown(report.realOutcomes));
  lines.push(...realLoopsMarkdown(realLoopsSection(report.realLoops, report.grounded)));
  if (report.reactionSensitivity !== undefined) lines.push(...sensitivityMarkdown(compareSensitivitySection(report.reactionSensitivity)));
  lines.push("## By family (stuck families: stopped; others: stopped wrongly)", "");
  lines.push(
    table(
      familiesIn(report).map((f) => {
        const row: Record<string, string> = { family: f.name, kind: f.label };
        for (const r of report.rows) {
          const n = r.metrics.byFamily[f.name];
          const na = familyNa(r, f.name);
          row[r.name] = na !== undefined ? `n/a (${na})` : n === undefined ? "-" : pct(f.label === "stuck" ? n.caughtShare : n.wronglyBlockedShare);
        }
        return row;
      }),
    ),
    "",
  );
  lines.push("## The guards", "");
  for (const r of report.rows) {
    lines.push(`- **${r.name}**: ${r.description}${r.notes.length === 0 ? "" : `. Choices: ${r.notes.join("; ")}`}.`);
  }
  lines.push("", "## How their actions are read", "", ...report.choices.map((c) => `- ${c}`), "");
  lines.push("## Definitions", "", ...Object.entries(report.definitions).map(([k, v]) => `- **${k}**: ${v}`), "");
  return lines.join("\n");
}

