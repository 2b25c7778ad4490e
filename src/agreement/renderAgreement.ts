// The agreement report as Markdown: one line per model and runtime, then each difference.
import { agreementLine, notRunLine, type AgreementReport, type NotRun } from "./agreement.js";
import { notesFor } from "./knownDifferences.js";

export function renderAgreementMarkdown(reports: readonly AgreementReport[], command: string, notRun: readonly NotRun[] = []): string {
  const lines = [
    "# Peer models against the real runtimes",
    "",
    `Made with \`${command}\`. Each pinned probe (src/agreement/probeSet.ts) runs on the real runtime and on loopsim's model of it; a difference is where the stop, the fate of a call (ran, refused, not run) or a warning differs. Each model describes the runtime's current release; older releases are checked too, to show how the real guard changed.`,
    "",
  ];
  for (const r of reports) lines.push(`- **${agreementLine(r)}**`);
  for (const n of notRun) lines.push(`- **${notRunLine(n)}**: ${escape(n.reason)}`);
  for (const r of reports) {
    lines.push("", `## ${r.model} against ${r.against}`, "", `${r.summary}.`, "");
    for (const note of notesFor(r.model, r.against)) lines.push(`- ${note}`);
    if (notesFor(r.model, r.against).length > 0) lines.push("");
    const shown = r.probes.filter((p) => p.verdict !== "agree");
    if (shown.length === 0) {
      lines.push(`Every one of the ${r.probes.length} probes agrees.`);
      continue;
    }
    lines.push("| probe | what | verdict | where | model | runtime |", "|---|---|---|---|---|---|");
    for (const p of shown) {
      if (p.verdict === "n/a") lines.push(`| ${p.probe} | ${p.what} | n/a | | | ${escape(p.reason ?? "")} |`);
      for (const d of p.differences) lines.push(`| ${p.probe} | ${p.what} | differ | prompt ${d.prompt}, ${d.what} | ${d.model} | ${d.runtime} |`);
    }
  }
  if (notRun.length > 0) {
    lines.push("", "## Not run here", "", "These runtimes could not be run on this machine, so their models are not checked against them; each line says why and what would make it run.", "");
    for (const n of notRun) lines.push(`- **${n.against}** (the ${n.model} model): ${escape(n.reason)}`);
  }
  return lines.join("\n") + "\n";
}

function escape(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}
