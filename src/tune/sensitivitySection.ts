// The tuning report's reaction-sensitivity section: which goals' picks hold across the grid of
// reaction odds, and where each that does not flips. Drawn by src/reportParts/reactionGridView.ts.
import type { TuneReactionSensitivity } from "./reactionSensitivity.js";
import { SECTION_TITLE, costParagraph, gridParagraph, mapOf, mapTable, whereText, type SensitivitySection } from "../reportParts/reactionGridView.js";

export function tuneSensitivitySection(s: TuneReactionSensitivity): SensitivitySection {
  const holding = s.picks.filter((p) => p.holds);
  const flipping = s.picks.filter((p) => !p.holds);
  const name = (index: number, label: string) => `#${index} (${index === 0 ? "OpenClaw defaults" : label})`;
  const paragraphs = [
    gridParagraph(s.grid, `The goals' picks on ${s.evidence},`),
    holding.length === 0 ? "No pick holds across the whole grid." : `Holds across the whole grid: ${holding.map((p) => `${p.goal} ${name(p.stated.index, p.stated.label)}`).join("; ")}.`,
    ...flipping.map((p) => {
      const others = [...new Set(p.flips.map((f) => f.index))];
      return `- **${p.goal}** picks ${name(p.stated.index, p.stated.label)} at the stated model and at ${s.grid.points.length - 1 - p.flips.length} of ${s.grid.points.length - 1} grid points; it flips at ${p.flips.length}: ${others.map((i) => `to #${i} where warnings are ${whereText(p.flips.filter((f) => f.index === i), s.grid)}`).join("; ")}.`;
    }),
    costParagraph(s.cost),
  ];
  const maps = s.picks.map((p) => ({
    caption: `${p.goal}: the pick at each point (${p.holds ? "the same everywhere" : `differs from #${p.stated.index} where marked`})`,
    cells: mapOf(s.grid, (q) => {
      const index = p.byPoint[q - 1] as number;
      return { text: `#${index}`, differs: index !== p.stated.index };
    }),
  }));
  const tables = maps.filter((_, k) => !(s.picks[k] as TuneReactionSensitivity["picks"][number]).holds).map((m) => ({ caption: `${m.caption}, in bold`, table: mapTable(s.grid, m.cells) }));
  return { title: SECTION_TITLE, paragraphs, tables, maps };
}
