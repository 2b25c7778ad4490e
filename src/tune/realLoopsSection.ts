// The tuning report's section on real loops (--loops real): every config's catch rate, delay and
// tokens on the stuck stretches mined from the sessions, beside the injected shapes, and where the
// two kinds of loops disagree. Drawn from report.json's `realLoops` for Markdown and HTML alike.
import { realVsInjectedLines, realVsInjectedTable } from "../grounded/realVsInjected.js";
import type { GroundedSection } from "./groundedSection.js";
import type { TuneReport } from "./report.js";
import { stretchesRunText } from "../grounded/realLoopAgents.js";

export function realLoopsSection(report: TuneReport): GroundedSection | undefined {
  const r = report.realLoops;
  const g = report.grounded;
  if (g?.loops === undefined) return undefined;
  if (r === undefined) return { title: "Real stuck stretches", paragraphs: [`No stuck stretch in these sessions (${g.loops.what}): nothing to measure on real loops, nothing to set against the injected ones.`], tables: [] };
  const n = r.evidence[0]?.real.agents ?? 0;
  const table = realVsInjectedTable(r, g.inject.shapes);
  return {
    title: "Real stuck stretches, and where they disagree with injected loops",
    paragraphs: [
      `${stretchesRunText(n, g.loops, "real stuck stretch")} (\`--loops real\`): ${g.loops.what}. A stretch is caught when a block or a stop falls inside it; the delay is the loop calls run before that (all of them when nothing stopped it), the tokens those calls' args and results. The recorded sessions keep running whole with their stretches labelled stuck, so a block inside a real loop is not counted as good work stopped.`,
      ...realVsInjectedLines(r),
    ],
    tables: [{ caption: "Every config on the real stretches, beside the injected loops (injected medians: the median of the shapes' medians)", table: { header: table.header.map((h) => (h === "guard" ? "config" : h)), rows: table.rows } }],
  };
}
