// The Pareto charts of real loops with real outcomes, as inline SVG (no scripts, no network): each
// guard's share of real stuck stretches caught (or of stuck calls saved) against the share of
// resolved runs it would have stopped, with both 95% intervals as error bars inside the plot (the
// axes reach every interval's end). Shipped guards are filled dots, candidate rules hollow diamonds, so the two are
// told apart without colour too; names sit in a column at the right, each joined to its point.
import { errorBars, escapeXml as esc, fmt, pct, roundAxis } from "../format/svgScale.js";
import type { RealOutcomes } from "../grounded/realOutcomes.js";
import { isOpenClawLabel } from "../targets/targetRef.js";

const W = 760;
const H = 440;
const P = { left: 70, right: 200, top: 20, bottom: 50 };

/** The y axis: stretches caught (Wilson), or stuck calls saved (a bootstrap over stretches). */
export type CaughtMeasure = "stretches" | "calls";

export function realOutcomesChart(r: RealOutcomes, measure: CaughtMeasure = "stretches"): string {
  const rows = r.rows;
  const yOf = (row: RealOutcomes["rows"][number]) => (measure === "stretches" ? { value: row.caught.share, low: row.caught.interval.low, high: row.caught.interval.high } : { value: row.callsSaved.share, low: row.callsSaved.shareInterval.low, high: row.callsSaved.shareInterval.high });
  const x = roundAxis(Math.max(0.05, ...rows.flatMap((row) => [row.resolvedStopped.share, row.resolvedStopped.interval.high])));
  const y = roundAxis(Math.max(0.05, ...rows.flatMap((row) => [yOf(row).value, yOf(row).high])));
  const sx = (v: number) => P.left + ((W - P.left - P.right) * v) / x.max;
  const sy = (v: number) => H - P.bottom - ((H - P.top - P.bottom) * v) / y.max;
  const parts: string[] = [];
  for (const t of x.ticks) parts.push(`<line x1="${fmt(sx(t))}" y1="${P.top}" x2="${fmt(sx(t))}" y2="${H - P.bottom}" stroke="#eee"/><text x="${fmt(sx(t))}" y="${H - P.bottom + 16}" font-size="11" text-anchor="middle">${pct(t)}</text>`);
  for (const t of y.ticks) parts.push(`<line x1="${P.left}" y1="${fmt(sy(t))}" x2="${W - P.right}" y2="${fmt(sy(t))}" stroke="#eee"/><text x="${P.left - 6}" y="${fmt(sy(t) + 4)}" font-size="11" text-anchor="end">${pct(t)}</text>`);
  parts.push(`<line x1="${P.left}" y1="${H - P.bottom}" x2="${W - P.right}" y2="${H - P.bottom}" stroke="#333"/><line x1="${P.left}" y1="${P.top}" x2="${P.left}" y2="${H - P.bottom}" stroke="#333"/>`);
  parts.push(`<text x="${(W - P.right + P.left) / 2}" y="${H - 12}" font-size="12" text-anchor="middle">resolved runs the guard would have stopped</text>`);
  parts.push(`<text x="16" y="${(H - P.bottom + P.top) / 2}" font-size="12" text-anchor="middle" transform="rotate(-90 16 ${(H - P.bottom + P.top) / 2})">${measure === "stretches" ? "real stuck stretches caught" : "stuck calls saved"}</text>`);
  const placed = rows.map((row) => ({ row, px: sx(row.resolvedStopped.share), py: sy(yOf(row).value) })).sort((a, b) => a.py - b.py || a.px - b.px || (a.row.name < b.row.name ? -1 : 1));
  const gap = (H - P.top - P.bottom) / Math.max(1, placed.length);
  placed.forEach(({ row, px, py }, k) => {
    const colour = !row.shipped ? "#ea580c" : isOpenClawLabel(row.name) ? "#dc2626" : "#2563eb";
    parts.push(errorBars(px, py, sx(row.resolvedStopped.interval.low), sx(row.resolvedStopped.interval.high), sy(yOf(row).low), sy(yOf(row).high), colour));
    const caught = measure === "stretches" ? `${pct(row.caught.share)} of ${row.caught.n} stretches caught` : `${pct(row.callsSaved.share)} of ${row.callsSaved.of} stuck calls saved`;
    const title = `<title>${esc(`${row.name}${row.shipped ? "" : " (candidate, shipped by no runtime)"}: ${caught}, ${pct(row.resolvedStopped.share)} of ${row.resolvedStopped.n} resolved runs stopped`)}</title>`;
    parts.push(
      row.shipped
        ? `<circle cx="${fmt(px)}" cy="${fmt(py)}" r="5" fill="${colour}" stroke="#fff" stroke-width="1">${title}</circle>`
        : `<path d="M${fmt(px)} ${fmt(py - 6)} L${fmt(px + 6)} ${fmt(py)} L${fmt(px)} ${fmt(py + 6)} L${fmt(px - 6)} ${fmt(py)} Z" fill="#fff" stroke="${colour}" stroke-width="2">${title}</path>`,
    );
    const ly = P.top + gap * (k + 0.5);
    parts.push(`<line x1="${fmt(px)}" y1="${fmt(py)}" x2="${W - P.right + 6}" y2="${fmt(ly)}" stroke="#bbb" stroke-width="0.7"/><text x="${W - P.right + 10}" y="${fmt(ly + 4)}" font-size="11" fill="${colour}">${esc(row.shipped ? row.name : `${row.name} (candidate)`)}</text>`);
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${measure === "stretches" ? "stuck stretches caught" : "stuck calls saved"} against resolved runs stopped">${parts.join("")}</svg>`;
}
