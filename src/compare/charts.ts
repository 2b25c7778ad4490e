// The comparison's pictures, as inline SVG (no scripts, no network): every guard on the plane of
// waste against false positives, and a heatmap of families by guards.
import { familyHeatmap } from "../reportParts/familyHeatmap.js";
import { errorBars, escapeXml as esc, fmt, pct, roundStep } from "../format/svgScale.js";
import { familyNa, type CompareReport } from "./report.js";
import { isOpenClawRow } from "./rows.js";

export function planeChart(report: CompareReport): string {
  const W = 720;
  const H = 420;
  const P = { left: 70, right: 150, top: 20, bottom: 50 };
  const xs = report.rows.map((r) => r.metrics.stuck.wastedTokens.median);
  const ys = report.rows.map((r) => r.metrics.progressing.stoppedWronglyShare);
  // The axes reach the intervals' ends too, so no error bar is cut off.
  const xHigh = report.rows.map((r) => r.metrics.intervals?.wastedTokensMedian.high ?? 0);
  const yHigh = report.rows.map((r) => r.metrics.intervals?.stoppedWronglyShare.high ?? 0);
  const xStep = roundStep(Math.max(1, ...xs, ...xHigh));
  const xMax = Math.ceil((Math.max(1, ...xs, ...xHigh) * 1.05) / xStep) * xStep;
  const yStep = roundStep(Math.max(0.05, ...ys, ...yHigh));
  const yMax = Math.ceil((Math.max(0.05, ...ys, ...yHigh) * 1.05) / yStep) * yStep;
  const sx = (x: number) => P.left + ((W - P.left - P.right) * x) / xMax;
  const sy = (y: number) => H - P.bottom - ((H - P.top - P.bottom) * y) / yMax;
  const parts: string[] = [];
  for (let x = 0; x <= xMax + 1e-9; x += xStep) parts.push(`<line x1="${fmt(sx(x))}" y1="${P.top}" x2="${fmt(sx(x))}" y2="${H - P.bottom}" stroke="#eee"/><text x="${fmt(sx(x))}" y="${H - P.bottom + 16}" font-size="11" text-anchor="middle">${fmt(x)}</text>`);
  for (let y = 0; y <= yMax + 1e-9; y += yStep) parts.push(`<line x1="${P.left}" y1="${fmt(sy(y))}" x2="${W - P.right}" y2="${fmt(sy(y))}" stroke="#eee"/><text x="${P.left - 6}" y="${fmt(sy(y) + 4)}" font-size="11" text-anchor="end">${pct(y)}</text>`);
  parts.push(`<line x1="${P.left}" y1="${H - P.bottom}" x2="${W - P.right}" y2="${H - P.bottom}" stroke="#333"/><line x1="${P.left}" y1="${P.top}" x2="${P.left}" y2="${H - P.bottom}" stroke="#333"/>`);
  parts.push(`<text x="${(W - P.right + P.left) / 2}" y="${H - 12}" font-size="12" text-anchor="middle">median tokens a stuck agent spends in its loop before the stop</text>`);
  parts.push(`<text x="16" y="${(H - P.bottom + P.top) / 2}" font-size="12" text-anchor="middle" transform="rotate(-90 16 ${(H - P.bottom + P.top) / 2})">progressing agents stopped wrongly</text>`);
  // Labels go in a column at the right, each joined to its dot, so close dots keep readable names.
  const order = report.rows.map((r, i) => ({ r, i, y: sy(ys[i] as number), x: sx(xs[i] as number) })).sort((a, b) => a.y - b.y || a.x - b.x);
  const gap = (H - P.top - P.bottom) / Math.max(1, order.length);
  // Guards on the same point (five guards that never stop anything all sit at one spot) are spread
  // on a small ring around it, each dot still joined to its name, and the point itself is marked:
  // drawn on top of each other, all but the last would be hidden.
  const sharing = new Map<string, number[]>();
  order.forEach(({ x, y }, k) => {
    const key = `${fmt(x)},${fmt(y)}`;
    sharing.set(key, [...(sharing.get(key) ?? []), k]);
  });
  const placed = order.map(({ x, y }, k) => {
    const group = sharing.get(`${fmt(x)},${fmt(y)}`) ?? [k];
    if (group.length === 1) return { x, y, shared: 1 };
    const angle = (2 * Math.PI * group.indexOf(k)) / group.length - Math.PI / 2;
    return { x: x + 8 * Math.cos(angle), y: y + 8 * Math.sin(angle), shared: group.length };
  });
  for (const [key, group] of sharing) {
    if (group.length < 2) continue;
    const [cx, cy] = key.split(",");
    parts.push(`<circle cx="${cx}" cy="${cy}" r="11" fill="none" stroke="#999" stroke-dasharray="2 2"><title>${group.length} guards on this point</title></circle>`);
  }
  order.forEach(({ r, x: trueX, y: trueY }, k) => {
    const { x, y, shared } = placed[k] as { x: number; y: number; shared: number };
    const ly = P.top + gap * (k + 0.5);
    const colour = isOpenClawRow(r.name) ? "#dc2626" : "#2563eb";
    const i = r.metrics.intervals;
    if (i !== undefined) parts.push(errorBars(trueX, trueY, sx(i.wastedTokensMedian.low), sx(i.wastedTokensMedian.high), sy(i.stoppedWronglyShare.low), sy(i.stoppedWronglyShare.high), colour));
    const together = shared > 1 ? ` (one of ${shared} guards on this point)` : "";
    parts.push(`<circle cx="${fmt(x)}" cy="${fmt(y)}" r="${shared > 1 ? 4 : 5}" fill="${colour}" stroke="#fff" stroke-width="1"><title>${esc(`${r.name}: ${r.metrics.stuck.wastedTokens.median} tokens, ${pct(r.metrics.progressing.stoppedWronglyShare)} stopped wrongly${together}`)}</title></circle>`);
    parts.push(`<line x1="${fmt(x)}" y1="${fmt(y)}" x2="${W - P.right + 6}" y2="${fmt(ly)}" stroke="#bbb" stroke-width="0.7"/><text x="${W - P.right + 10}" y="${fmt(ly + 4)}" font-size="11" fill="${colour}">${esc(r.name)}</text>`);
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="waste against false positives">${parts.join("")}</svg>`;
}

/** Families by guards (see src/tune/familyHeatmap.ts). */
export function heatmap(report: CompareReport): string {
  return familyHeatmap(report.rows.map((r) => ({ name: r.name, byFamily: r.metrics.byFamily, na: (family: string) => familyNa(r, family) })), "families by guards");
}
