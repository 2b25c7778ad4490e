// The reaction-sensitivity sections of the tuning and comparison reports, drawn from plain text,
// cells and small heatmaps: where a pick or an ordering flips on the grid of reaction odds
// (warnings heeded down the rows, blocks skipped across the columns). tune and compare each build
// their own section (src/tune/sensitivitySection.ts, src/compare/sensitivitySection.ts); this file
// holds what both use, and draws either in Markdown and HTML.
import type { GridCost, ReactionGridSummary } from "../grounded/reactionGrid.js";
import { percentWhole } from "../format/percent.js";
import { escapeHtml, htmlParagraphs, sectionMarkdown, type ReportSection, type Table } from "./section.js";

/** A heatmap for HTML: cells by heed (rows) and skip (columns); `differs` marks the cells unlike the stated model's. */
export interface SensitivityMap {
  readonly caption: string;
  readonly cells: readonly (readonly { readonly text: string; readonly differs: boolean }[])[];
}

/** An ordering that flips, for HTML: its cells, and the grid points where it flips (drawn as a small map). */
export interface FlipRow {
  readonly measure: string;
  readonly stated: string;
  readonly where: readonly { readonly heed: number; readonly skip: number }[];
}

export interface SensitivitySection extends ReportSection {
  readonly maps: readonly SensitivityMap[];
  readonly flips?: readonly FlipRow[];
}

export const SECTION_TITLE = "Reaction sensitivity";

const share = percentWhole;

/** "warnings heeded 0% (blocks skipped 0%, 25%); 25% (any)": the points, grouped by warnings heeded. */
export function whereText(points: readonly { readonly heed: number; readonly skip: number }[], grid: ReactionGridSummary): string {
  const heeds = [...new Set(points.map((p) => p.heed))].sort((a, b) => a - b);
  return `heeded ${heeds
    .map((h) => {
      const skips = points.filter((p) => p.heed === h).map((p) => p.skip);
      return `${share(h)} (${skips.length === grid.skip.length ? "any skip" : `skip ${skips.map(share).join(", ")}`})`;
    })
    .join("; ")}`;
}

export function gridParagraph(grid: ReactionGridSummary, what: string): string {
  const stated = grid.points[0];
  return (
    `${what} recomputed at each of ${grid.points.length - 1} reaction models (\`--reaction-grid ${grid.spec}\`): warnings heeded (skip or end instead of going on) in {${grid.heed.map(share).join(", ")}} x blocks skipped past in {${grid.skip.map(share).join(", ")}}; ${grid.split}. ` +
    `The stated model heeds ${share(stated?.heed ?? 0)} of warnings and skips ${share(stated?.skip ?? 0)} of blocks. Every agent draws its reactions from its own seeded stream at every point (common random numbers), so a difference between points comes from the odds, not from noise; values are point estimates, so an order between two numbers within each other's intervals can flip on little.`
  );
}

export function costParagraph(cost: GridCost): string {
  const ratio = cost.ordinaryRuns === 0 ? 0 : cost.extraRuns / cost.ordinaryRuns;
  return `Cost: the grid made ${cost.extraRuns} agent runs beyond the ordinary ${cost.ordinaryRuns} (${Math.round(ratio * 1000) / 10}% more); running every point afresh would have made ${cost.naiveExtraRuns}. A run made at one point is reused at every point where each of its own draws picks the same reaction, so agents the guard never speaks to run once.`;
}

export function mapOf(grid: ReactionGridSummary, cell: (p: number) => { text: string; differs: boolean }): { text: string; differs: boolean }[][] {
  return grid.heed.map((_, h) => grid.skip.map((_, s) => cell(1 + h * grid.skip.length + s)));
}

export function mapTable(grid: ReactionGridSummary, cells: readonly (readonly { text: string; differs: boolean }[])[]): Table {
  return { header: ["warnings heeded \\ blocks skipped", ...grid.skip.map(share)], rows: grid.heed.map((h, i) => [share(h), ...(cells[i] ?? []).map((c) => (c.differs ? `**${c.text}**` : c.text))]) };
}

const esc = escapeHtml;

/** A tiny heatmap of one ordering over the grid, as inline SVG: grey where it holds, orange where it flips. */
function miniMap(grid: ReactionGridSummary, flips: readonly { heed: number; skip: number }[]): string {
  const size = 9;
  const cells = grid.heed.flatMap((h, i) => grid.skip.map((k, j) => `<rect x="${j * size}" y="${i * size}" width="${size - 1}" height="${size - 1}" fill="${flips.some((f) => f.heed === h && f.skip === k) ? "#f97316" : "#d1d5db"}"/>`));
  return `<svg class="minimap" role="img" aria-label="where it flips: rows warnings heeded ${grid.heed.map(share).join(", ")}; columns blocks skipped ${grid.skip.map(share).join(", ")}" width="${grid.skip.length * size}" height="${grid.heed.length * size}" viewBox="0 0 ${grid.skip.length * size} ${grid.heed.length * size}">${cells.join("")}</svg>`;
}

export const SENSITIVITY_CSS = ".sensitivity table.heat td{text-align:center;min-width:3rem}.sensitivity td.differs{background:#fed7aa;font-weight:600}.sensitivity td.same{background:#e5e7eb}.sensitivity .maps{display:flex;flex-wrap:wrap;gap:1.5rem}";

export function sensitivityHtml(section: SensitivitySection, grid: ReactionGridSummary): string {
  const maps = section.maps
    .map((m) => `<table class="heat"><caption>${esc(m.caption)}</caption><thead><tr><th>heeded \\ skipped</th>${grid.skip.map((k) => `<th>${share(k)}</th>`).join("")}</tr></thead><tbody>${m.cells.map((row, i) => `<tr><th>${share(grid.heed[i] as number)}</th>${row.map((c) => `<td class="${c.differs ? "differs" : "same"}">${esc(c.text)}</td>`).join("")}</tr>`).join("")}</tbody></table>`)
    .join("\n");
  const flips = (section.flips ?? []).map((f) => `<tr><td>${esc(f.measure)}</td><td>${esc(f.stated)}</td><td>${f.where.length} of ${grid.points.length - 1}</td><td>${miniMap(grid, f.where)}</td></tr>`).join("\n");
  return [
    `<section class="sensitivity" id="reaction-sensitivity"><h2>${esc(section.title)}</h2>`,
    ...htmlParagraphs(section.paragraphs),
    maps === "" ? "" : `<div class="maps">${maps}</div>`,
    flips === "" ? "" : `<table class="flips"><caption>Orders that flip: the order at the stated model, and where it flips (orange; rows: warnings heeded ${grid.heed.map(share).join(", ")}, columns: blocks skipped ${grid.skip.map(share).join(", ")})</caption><thead><tr><th>measure</th><th>at the stated model</th><th>points</th><th>where</th></tr></thead><tbody>${flips}</tbody></table>`,
    "</section>",
  ].join("\n");
}

/** Markdown: paragraphs, then the tables (the maps are the tables' cells in bold where they differ). */
export function sensitivityMarkdown(section: SensitivitySection): string[] {
  return sectionMarkdown(section);
}
