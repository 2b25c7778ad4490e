// Axis scales for the reports' inline SVG charts: round tick steps, and escaping.

export const escapeXml = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export const fmt = (x: number): string => (Math.round(x * 100) / 100).toString();

/** A share as a percentage with at most one decimal: 0.1234 -> "12.3%" (the charts' short name for it). */
export { percentUpToOneDecimal as pct } from "./percent.js";

/** A round step (1, 2 or 5 times a power of ten) giving about four ticks up to max. */
export function roundStep(max: number): number {
  const raw = max / 4;
  const power = 10 ** Math.floor(Math.log10(raw || 1));
  for (const m of [1, 2, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}

/** The axis maximum rounded up to a whole step, and the round ticks up to it. */
export function roundAxis(max: number): { max: number; ticks: number[] } {
  const step = roundStep(max);
  const top = Math.max(step, Math.ceil(max / step) * step);
  const ticks: number[] = [];
  for (let t = 0; t <= top + step / 1e6; t += step) ticks.push(Math.round(t * 1e6) / 1e6);
  return { max: top, ticks };
}

/**
 * Error bars of a point: a horizontal and a vertical line with end caps, from its 95% intervals
 * (x from x0 to x1, y from y0 to y1, all in pixels), drawn under the point, class "error-bar".
 */
export function errorBars(cx: number, cy: number, x0: number, x1: number, y0: number, y1: number, colour: string): string {
  const cap = 3;
  const h = x1 - x0 > 0.5 ? `<line x1="${fmt(x0)}" y1="${fmt(cy)}" x2="${fmt(x1)}" y2="${fmt(cy)}"/><line x1="${fmt(x0)}" y1="${fmt(cy - cap)}" x2="${fmt(x0)}" y2="${fmt(cy + cap)}"/><line x1="${fmt(x1)}" y1="${fmt(cy - cap)}" x2="${fmt(x1)}" y2="${fmt(cy + cap)}"/>` : "";
  const v = Math.abs(y1 - y0) > 0.5 ? `<line x1="${fmt(cx)}" y1="${fmt(y0)}" x2="${fmt(cx)}" y2="${fmt(y1)}"/><line x1="${fmt(cx - cap)}" y1="${fmt(y0)}" x2="${fmt(cx + cap)}" y2="${fmt(y0)}"/><line x1="${fmt(cx - cap)}" y1="${fmt(y1)}" x2="${fmt(cx + cap)}" y2="${fmt(y1)}"/>` : "";
  return `<g class="error-bar" stroke="${colour}" stroke-width="1.2" opacity="0.8">${h}${v}</g>`;
}
