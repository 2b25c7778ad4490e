// One shape for a report section (a title, paragraphs and lists, captioned tables), with one
// Markdown and one HTML rendering: every report that builds its sections as plain text and cells
// gets the same layout, and cell text is escaped in one place (`|` in Markdown, `<&>"` in HTML).

export interface Table {
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

export interface ReportSection {
  readonly title: string;
  /** Paragraphs; one starting with "- " is a list item (a run of them is one list). `code` and **bold** are kept. */
  readonly paragraphs: readonly string[];
  readonly tables: readonly { readonly caption: string; readonly table: Table }[];
}

/** A Markdown table row, every `|` in a cell escaped. */
export function markdownRow(cells: readonly string[]): string {
  return `| ${cells.map((c) => c.replace(/\|/g, "\\|")).join(" | ")} |`;
}

/** A whole Markdown table: header, rule, rows. */
export function markdownTable(table: Table): string[] {
  return [markdownRow(table.header), markdownRow(table.header.map(() => "---")), ...table.rows.map(markdownRow)];
}

/** Paragraphs with a blank line after each, list items kept together. */
export function markdownParagraphs(paragraphs: readonly string[]): string[] {
  const out: string[] = [];
  paragraphs.forEach((p, i) => {
    out.push(p);
    if (!p.startsWith("- ") || paragraphs[i + 1]?.startsWith("- ") !== true) out.push("");
  });
  return out;
}

export function sectionMarkdown(section: ReportSection): string[] {
  const out = [`## ${section.title}`, "", ...markdownParagraphs(section.paragraphs)];
  for (const { caption, table } of section.tables) out.push(`**${caption}**`, "", ...markdownTable(table), "");
  return out;
}

export const escapeHtml = (t: string): string => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Escaped text with `code` and **bold** as HTML. */
export const inlineHtml = (t: string): string => escapeHtml(t).replace(/`([^`]+)`/g, "<code>$1</code>").replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>");

/** Paragraphs in order, each run of "- " items as one list. */
export function htmlParagraphs(paragraphs: readonly string[]): string[] {
  return paragraphs.map((p, i) => {
    if (!p.startsWith("- ")) return `<p>${inlineHtml(p)}</p>`;
    return `${paragraphs[i - 1]?.startsWith("- ") === true ? "" : "<ul>"}<li>${inlineHtml(p.slice(2))}</li>${paragraphs[i + 1]?.startsWith("- ") === true ? "" : "</ul>"}`;
  });
}

/** A captioned table in a scrolling box. */
export function htmlTable(caption: string, table: Table): string {
  return `<div class="wide"><table><caption>${escapeHtml(caption)}</caption><thead><tr>${table.header.map((h) => `<th>${escapeHtml(h)}</th>`).join("")}</tr></thead><tbody>\n${table.rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join("")}</tr>`).join("\n")}\n</tbody></table></div>`;
}

export function sectionHtml(section: ReportSection): string {
  return [`<h2>${escapeHtml(section.title)}</h2>`, ...htmlParagraphs(section.paragraphs), ...section.tables.map(({ caption, table }) => htmlTable(caption, table))].join("\n");
}
