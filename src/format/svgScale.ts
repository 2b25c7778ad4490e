// Axis scales for the reports' inline SVG charts: round tick steps, and escaping.

export const escapeXml = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export const fmt = (x: number): string => (Math.round(x * 100) / 100).toString();

/** A share as a percentage with at most one decimal: 0.1234 -> "12.3%". */
export const pct = (x: number): string => `${(Math.round(x * 1000) / 10).toString()}%`;

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
