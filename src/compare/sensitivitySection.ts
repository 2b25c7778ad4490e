// The comparison report's reaction-sensitivity section: which pairwise orders of the guards hold
// across the grid of reaction odds, and where each that does not flips. Drawn by
// src/reportParts/reactionGridView.ts.
import { percentOneDecimal } from "../format/percent.js";
import type { CompareReactionSensitivity, Order, OrderingFlip } from "./reactionSensitivity.js";
import { SECTION_TITLE, costParagraph, gridParagraph, whereText, type SensitivitySection } from "../reportParts/reactionGridView.js";

const BECOMES: Readonly<Record<Order, string>> = { 1: "ahead", 0: "tied", [-1]: "behind" };
const orderWord = (o: Order) => (o === 1 ? "ahead of" : o === 0 ? "tied with" : "behind");

/** How a measure's values read: tokens as counts, the rest as shares. */
const formatOf = (measure: string) => (measure === "loopTokensBeforeStop" ? (x: number) => String(x) : percentOneDecimal);

function statedText(f: OrderingFlip, format: (x: number) => string): string {
  return `${f.a} ${format(f.values[0])} ${orderWord(f.stated)} ${f.b} ${format(f.values[1])}`;
}

export function compareSensitivitySection(s: CompareReactionSensitivity): SensitivitySection {
  const paragraphs = [
    gridParagraph(s.grid, "Every pairwise order of the guards on each headline measure,"),
    ...s.measures.map(
      (m) =>
        `- **${m.title}**: ${m.holding} of ${m.pairs} pairwise orders hold across the whole grid; the best at the stated model (${m.leaders.join(", ")}) ${m.leadersHold ? "is the best at every point" : "is not the best at every point"}.`,
    ),
    costParagraph(s.cost),
  ];
  const rows = s.measures.flatMap((m) => m.flipped.map((f) => [m.title, statedText(f, formatOf(m.measure)), `${f.flips.length} of ${s.grid.points.length - 1}`, [...new Set(f.flips.map((x) => x.order))].map((o) => `${BECOMES[o]} where warnings are ${whereText(f.flips.filter((x) => x.order === o), s.grid)}`).join("; ")]));
  const tables = rows.length === 0 ? [] : [{ caption: "Orders that flip: the order at the stated model, and where (at which odds) it becomes another", table: { header: ["measure", "at the stated model", "points where it flips", "becomes"], rows } }];
  const flips = s.measures.flatMap((m) => m.flipped.map((f) => ({ measure: m.title, stated: statedText(f, formatOf(m.measure)), where: f.flips })));
  return { title: SECTION_TITLE, paragraphs, tables, maps: [], flips };
}
