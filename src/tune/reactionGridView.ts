// The reaction-sensitivity sections of the tuning and comparison reports, as text, cells and small
// heatmaps: where a pick or an ordering flips on the grid of reaction odds (warnings heeded down
// the rows, blocks skipped across the columns). Markdown and HTML draw the same things from the
// report alone.
import type { CompareReactionSensitivity, Order, OrderingFlip } from "../compare/reactionSensitivity.js";
import type { ReactionGridSummary } from "../grounded/reactionGrid.js";
import type { GridCost, TuneReactionSensitivity } from "./reactionSensitivity.js";
import { percent } from "./recommend.js";

export interface SensitivityTable {
  readonly caption: string;
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

export interface SensitivitySection {
  readonly title: string;
  readonly paragraphs: readonly string[];
  readonly tables: readonly SensitivityTable[];
  /** Heatmaps for HTML: cells by heed (rows) and skip (columns); `differs` marks the cells unlike the stated model's. */
  readonly maps: readonly { readonly caption: string; readonly cells: readonly (readonly { readonly text: string; readonly differs: boolean }[])[] }[];
}

export const SECTION_TITLE = "Reaction sensitivity";

const share = (x: number) => `${Math.round(x * 100)}%`;

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

function mapOf(grid: ReactionGridSummary, cell: (p: number) => { text: string; differs: boolean }): { text: string; differs: boolean }[][] {
  return grid.heed.map((_, h) => grid.skip.map((_, s) => cell(1 + h * grid.skip.length + s)));
}

function mapTable(caption: string, grid: ReactionGridSummary, cells: readonly (readonly { text: string; differs: boolean }[])[]): SensitivityTable {
  return { caption, header: ["warnings heeded \\ blocks skipped", ...grid.skip.map(share)], rows: grid.heed.map((h, i) => [share(h), ...(cells[i] ?? []).map((c) => (c.differs ? `**${c.text}**` : c.text))]) };
}

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
  const tables = maps.filter((_, k) => !(s.picks[k] as TuneReactionSensitivity["picks"][number]).holds).map((m) => mapTable(`${m.caption}, in bold`, s.grid, m.cells));
  return { title: SECTION_TITLE, paragraphs, tables, maps };
}

const BECOMES: Readonly<Record<Order, string>> = { 1: "ahead", 0: "tied", [-1]: "behind" };
const orderWord = (o: Order) => (o === 1 ? "ahead of" : o === 0 ? "tied with" : "behind");

function statedText(f: OrderingFlip, format: (x: number) => string): string {
  return `${f.a} ${format(f.values[0])} ${orderWord(f.stated)} ${f.b} ${format(f.values[1])}`;
}

export function compareSensitivitySection(s: CompareReactionSensitivity): SensitivitySection {
  const format = (measure: string) => (measure === "loopTokensBeforeStop" ? (x: number) => String(x) : (x: number) => percent(x));
  const paragraphs = [
    gridParagraph(s.grid, "Every pairwise order of the guards on each headline measure,"),
    ...s.measures.map(
      (m) =>
        `- **${m.title}**: ${m.holding} of ${m.pairs} pairwise orders hold across the whole grid; the best at the stated model (${m.leaders.join(", ")}) ${m.leadersHold ? "is the best at every point" : "is not the best at every point"}.`,
    ),
    costParagraph(s.cost),
  ];
  const rows = s.measures.flatMap((m) => m.flipped.map((f) => [m.title, statedText(f, format(m.measure)), `${f.flips.length} of ${s.grid.points.length - 1}`, [...new Set(f.flips.map((x) => x.order))].map((o) => `${BECOMES[o]} where warnings are ${whereText(f.flips.filter((x) => x.order === o), s.grid)}`).join("; ")]));
  const tables = rows.length === 0 ? [] : [{ caption: "Orders that flip: the order at the stated model, and where (at which odds) it becomes another", header: ["measure", "at the stated model", "points where it flips", "becomes"], rows }];
  return { title: SECTION_TITLE, paragraphs, tables, maps: [] };
}

const esc = (t: string) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const inline = (t: string) => esc(t).replace(/`([^`]+)`/g, "<code>$1</code>").replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>");

/** A tiny heatmap of one ordering over the grid, as inline SVG: grey where it holds, orange where it flips. */
function miniMap(grid: ReactionGridSummary, flips: readonly { heed: number; skip: number }[]): string {
  const size = 9;
  const cells = grid.heed.flatMap((h, i) => grid.skip.map((k, j) => `<rect x="${j * size}" y="${i * size}" width="${size - 1}" height="${size - 1}" fill="${flips.some((f) => f.heed === h && f.skip === k) ? "#f97316" : "#d1d5db"}"/>`));
  return `<svg class="minimap" role="img" aria-label="where it flips: rows warnings heeded ${grid.heed.map(share).join(", ")}; columns blocks skipped ${grid.skip.map(share).join(", ")}" width="${grid.skip.length * size}" height="${grid.heed.length * size}" viewBox="0 0 ${grid.skip.length * size} ${grid.heed.length * size}">${cells.join("")}</svg>`;
}

export const SENSITIVITY_CSS = ".sensitivity table.heat td{text-align:center;min-width:3rem}.sensitivity td.differs{background:#fed7aa;font-weight:600}.sensitivity td.same{background:#e5e7eb}.sensitivity .maps{display:flex;flex-wrap:wrap;gap:1.5rem}";

export function sensitivityHtml(section: SensitivitySection, grid: ReactionGridSummary, compare?: CompareReactionSensitivity): string {
  // Paragraphs in order, runs of "- " items as one list.
  const blocks: string[] = [];
  section.paragraphs.forEach((p, i) => {
    if (!p.startsWith("- ")) blocks.push(`<p>${inline(p)}</p>`);
    else blocks.push(`${section.paragraphs[i - 1]?.startsWith("- ") === true ? "" : "<ul>"}<li>${inline(p.slice(2))}</li>${section.paragraphs[i + 1]?.startsWith("- ") === true ? "" : "</ul>"}`);
  });
  const maps = section.maps
    .map((m) => `<table class="heat"><caption>${esc(m.caption)}</caption><thead><tr><th>heeded \\ skipped</th>${grid.skip.map((k) => `<th>${share(k)}</th>`).join("")}</tr></thead><tbody>${m.cells.map((row, i) => `<tr><th>${share(grid.heed[i] as number)}</th>${row.map((c) => `<td class="${c.differs ? "differs" : "same"}">${esc(c.text)}</td>`).join("")}</tr>`).join("")}</tbody></table>`)
    .join("\n");
  const flips = compare === undefined ? "" : compare.measures.flatMap((m) => m.flipped.map((f) => `<tr><td>${esc(m.title)}</td><td>${esc(statedText(f, m.measure === "loopTokensBeforeStop" ? String : percent))}</td><td>${f.flips.length} of ${grid.points.length - 1}</td><td>${miniMap(grid, f.flips)}</td></tr>`)).join("\n");
  return [
    `<section class="sensitivity" id="reaction-sensitivity"><h2>${esc(section.title)}</h2>`,
    ...blocks,
    maps === "" ? "" : `<div class="maps">${maps}</div>`,
    flips === "" ? "" : `<table class="flips"><caption>Orders that flip: the order at the stated model, and where it flips (orange; rows: warnings heeded ${grid.heed.map(share).join(", ")}, columns: blocks skipped ${grid.skip.map(share).join(", ")})</caption><thead><tr><th>measure</th><th>at the stated model</th><th>points</th><th>where</th></tr></thead><tbody>${flips}</tbody></table>`,
    "</section>",
  ].join("\n");
}

/** Markdown: paragraphs, then the tables. */
export function sensitivityMarkdown(section: SensitivitySection): string[] {
  const line = (cells: readonly string[]) => `| ${cells.map((c) => c.replace(/\|/g, "\\|")).join(" | ")} |`;
  const out = [`## ${section.title}`, ""];
  section.paragraphs.forEach((p, i) => {
    const item = p.startsWith("- ");
    out.push(p);
    if (!item || section.paragraphs[i + 1]?.startsWith("- ") !== true) out.push("");
  });
  for (const t of section.tables) out.push(`**${t.caption}**`, "", line(t.header), line(t.header.map(() => "---")), ...t.rows.map(line), "");
  return out;
}
