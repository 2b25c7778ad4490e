// The comparison's section on real loops (--loops real): each guard's catch rate, delay and
// tokens on the stuck stretches mined from the sessions, beside the injected shapes, and where
// the two kinds of loops disagree. Markdown and HTML draw it from report.json's `realLoops`.
import type { GroundedSummary } from "../grounded/groundedPopulation.js";
import { realVsInjectedLines, realVsInjectedTable, type RealVsInjected } from "../grounded/realVsInjected.js";
import { markdownRow } from "../reportParts/section.js";
import { stretchesRunText } from "../grounded/realLoopAgents.js";

export interface RealLoopsSection {
  readonly intro: string;
  readonly table: { readonly header: readonly string[]; readonly rows: readonly (readonly string[])[] };
  readonly disagreeTitle: string;
  readonly disagree: readonly string[];
}

export function realLoopsSection(r: RealVsInjected | undefined, grounded: GroundedSummary | undefined): RealLoopsSection | undefined {
  if (grounded?.loops === undefined) return undefined;
  if (r === undefined) return { intro: `No stuck stretch in these sessions (${grounded.loops.what}): nothing to measure on real loops.`, table: { header: [], rows: [] }, disagreeTitle: "Where they disagree: injected and real loops", disagree: ["No real stretch, so nothing to set against the injected loops."] };
  const shapes = grounded.inject.shapes;
  const n = r.evidence[0]?.real.agents ?? 0;
  return {
    intro: `${stretchesRunText(n, grounded.loops, "real stuck stretch")}: ${grounded.loops.what}. A stretch is caught when a block or a stop falls inside it; the delay is the loop calls run before that (all of them when nothing stopped it), the tokens those calls' args and results. Injected loops, where there are any, are beside them; the injected medians are the median of the shapes' medians.`,
    table: realVsInjectedTable(r, shapes),
    disagreeTitle: "Where they disagree: injected and real loops",
    disagree: realVsInjectedLines(r),
  };
}

export function realLoopsMarkdown(section: RealLoopsSection | undefined): string[] {
  if (section === undefined) return [];
  const row = markdownRow;
  const table = section.table.header.length === 0 ? [] : [row(section.table.header), `|${section.table.header.map(() => "---").join("|")}|`, ...section.table.rows.map(row), ""];
  return ["## Real stuck stretches", "", section.intro, "", ...table, `## ${section.disagreeTitle}`, "", ...section.disagree.flatMap((l) => [l, ""])];
}

export function realLoopsHtml(section: RealLoopsSection | undefined, esc: (s: string) => string): string {
  if (section === undefined) return "";
  const cells = (tag: string, xs: readonly string[]) => xs.map((x) => `<${tag}>${esc(x)}</${tag}>`).join("");
  return `<h2>Real stuck stretches</h2>
<p>${esc(section.intro.replace(/`/g, ""))}</p>
${section.table.header.length === 0 ? "" : `<table><thead><tr>${cells("th", section.table.header)}</tr></thead><tbody>${section.table.rows.map((r) => `<tr>${cells("td", r)}</tr>`).join("\n")}</tbody></table>`}
<h2>${esc(section.disagreeTitle)}</h2>
${section.disagree.map((l) => `<p>${esc(l.replace(/`/g, ""))}</p>`).join("\n")}
`;
}
