// A heatmap of behaviour families (rows) by columns (guards in `compare`, configs in `tune`).
// Stuck families show the share stopped (greener is better); progressing and recovering
// families the share stopped wrongly (redder is worse).
import { familyList } from "./familyList.js";
import type { FamilyNumbers } from "../evaluation/metrics.js";
import { escapeXml as esc, fmt, pct } from "../format/svgScale.js";

export interface HeatmapColumn {
  readonly name: string;
  readonly byFamily: Readonly<Record<string, FamilyNumbers>>;
  /** Why the column has no number on a family (shown grey as n/a), or undefined. */
  readonly na?: (family: string) => string | undefined;
}

export function familyHeatmap(columns: readonly HeatmapColumn[], label: string): string {
  const families = familyList(columns.map((c) => c.byFamily), false);
  if (families.length === 0) return "";
  const cellW = 64;
  const cellH = 22;
  // Room for the longest family label at about 6.5 px a character (11 px system-ui).
  const left = 16 + Math.ceil(6.5 * Math.max(...families.map((f) => `${f.name} (${f.label})`.length)));
  const top = 16 + Math.ceil(4.8 * Math.max(...columns.map((c) => c.name.length)));
  const W = left + cellW * columns.length + 10 + Math.ceil(4.8 * (columns.at(-1)?.name.length ?? 0));
  const H = top + cellH * families.length + 10;
  const parts: string[] = [];
  columns.forEach((c, j) => {
    const x = left + cellW * j + cellW / 2;
    parts.push(`<text x="${x}" y="${top - 8}" font-size="11" transform="rotate(-45 ${x} ${top - 8})">${esc(c.name)}</text>`);
  });
  families.forEach((f, i) => {
    const y = top + cellH * i;
    parts.push(`<text x="${left - 8}" y="${y + 15}" font-size="11" text-anchor="end">${esc(f.name)} (${f.label})</text>`);
    columns.forEach((c, j) => {
      const na = c.na?.(f.name);
      if (na !== undefined) {
        parts.push(`<rect x="${left + cellW * j}" y="${y}" width="${cellW - 2}" height="${cellH - 2}" fill="rgba(107,114,128,0.15)"><title>${esc(`${f.name} under ${c.name}: n/a, ${na}`)}</title></rect><text x="${left + cellW * j + cellW / 2 - 1}" y="${y + 15}" font-size="10" text-anchor="middle">n/a</text>`);
        return;
      }
      const n = c.byFamily[f.name];
      const value = n === undefined ? 0 : f.label === "stuck" ? n.caughtShare : n.wronglyBlockedShare;
      const fill = f.label === "stuck" ? `rgba(22,163,74,${fmt(0.08 + 0.85 * value)})` : `rgba(220,38,38,${fmt(0.04 + 0.85 * value)})`;
      parts.push(`<rect x="${left + cellW * j}" y="${y}" width="${cellW - 2}" height="${cellH - 2}" fill="${fill}"><title>${esc(`${f.name} under ${c.name}: ${pct(value)} ${f.label === "stuck" ? "stopped" : "stopped wrongly"}`)}</title></rect><text x="${left + cellW * j + cellW / 2 - 1}" y="${y + 15}" font-size="10" text-anchor="middle">${pct(value)}</text>`);
    });
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${esc(label)}">${parts.join("")}</svg>`;
}
