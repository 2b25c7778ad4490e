// Inline SVG charts for report.html: no scripts, no network, no fonts beyond the system's.
import type { TuneReport } from "./report.js";
import { rowLabel } from "./table.js";

const W = 640;
const H = 360;
const PAD = { left: 64, right: 20, top: 20, bottom: 48 };
const COLORS = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2", "#4d7c0f", "#be185d"];

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const fmt = (x: number) => (Math.round(x * 100) / 100).toString();
/** Tick labels: whole numbers once the axis is long enough, two places below that. */
const tick = (x: number, max: number) => (max >= 50 ? Math.round(x).toString() : fmt(x));

function axes(xLabel: string, yLabel: string, xMax: number, yMax: number, yPercent: boolean): string {
  const parts: string[] = [];
  const x0 = PAD.left;
  const y0 = H - PAD.bottom;
  parts.push(`<line x1="${x0}" y1="${y0}" x2="${W - PAD.right}" y2="${y0}" stroke="#333"/>`, `<line x1="${x0}" y1="${PAD.top}" x2="${x0}" y2="${y0}" stroke="#333"/>`);
  for (let i = 0; i <= 4; i++) {
    const x = x0 + ((W - PAD.left - PAD.right) * i) / 4;
    const y = y0 - ((H - PAD.top - PAD.bottom) * i) / 4;
    parts.push(`<text x="${fmt(x)}" y="${y0 + 16}" font-size="11" text-anchor="middle">${tick((xMax * i) / 4, xMax)}</text>`);
    parts.push(`<text x="${x0 - 6}" y="${fmt(y + 4)}" font-size="11" text-anchor="end">${yPercent ? `${fmt((yMax * i * 100) / 4)}%` : tick((yMax * i) / 4, yMax)}</text>`);
    parts.push(`<line x1="${x0}" y1="${fmt(y)}" x2="${W - PAD.right}" y2="${fmt(y)}" stroke="#eee"/>`);
  }
  parts.push(`<text x="${(W + PAD.left) / 2}" y="${H - 10}" font-size="12" text-anchor="middle">${esc(xLabel)}</text>`);
  parts.push(`<text x="14" y="${H / 2}" font-size="12" text-anchor="middle" transform="rotate(-90 14 ${H / 2})">${esc(yLabel)}</text>`);
  return parts.join("");
}

const sx = (x: number, max: number) => PAD.left + ((W - PAD.left - PAD.right) * x) / (max || 1);
const sy = (y: number, max: number) => H - PAD.bottom - ((H - PAD.top - PAD.bottom) * y) / (max || 1);

export function paretoChart(report: TuneReport): string {
  const xMax = Math.max(1, ...report.rows.map((r) => r.metrics.stuck.wastedTokens.mean)) * 1.05;
  const yMax = Math.max(0.05, ...report.rows.map((r) => r.metrics.overall.falsePositiveRate)) * 1.1;
  const dots = report.rows.map((r) => {
    const front = report.pareto.includes(r.index);
    const x = sx(r.metrics.stuck.wastedTokens.mean, xMax);
    const y = sy(r.metrics.overall.falsePositiveRate, yMax);
    return `<circle cx="${fmt(x)}" cy="${fmt(y)}" r="${front ? 5 : 3}" fill="${r.index === 0 ? "#dc2626" : front ? "#2563eb" : "#9ca3af"}"><title>${esc(`#${r.index} ${rowLabel(r)}: ${r.metrics.stuck.wastedTokens.mean} tokens, FP ${fmt(r.metrics.overall.falsePositiveRate * 100)}%`)}</title></circle>`;
  });
  const front = report.rows.filter((r) => report.pareto.includes(r.index)).sort((a, b) => a.metrics.stuck.wastedTokens.mean - b.metrics.stuck.wastedTokens.mean);
  const path = front.map((r, i) => `${i === 0 ? "M" : "L"}${fmt(sx(r.metrics.stuck.wastedTokens.mean, xMax))},${fmt(sy(r.metrics.overall.falsePositiveRate, yMax))}`).join(" ");
  // Goals are labelled one above the other, so close points keep readable labels.
  const labels = report.recommendations.map((rec, k) => {
    const r = report.rows.find((x) => x.index === rec.index);
    if (r === undefined) return "";
    const x = sx(r.metrics.stuck.wastedTokens.mean, xMax);
    const y = sy(r.metrics.overall.falsePositiveRate, yMax);
    return `<line x1="${fmt(x)}" y1="${fmt(y)}" x2="${fmt(x + 14)}" y2="${fmt(y - 10 - 14 * k)}" stroke="#555"/><text x="${fmt(x + 16)}" y="${fmt(y - 7 - 14 * k)}" font-size="11">${rec.goal}</text>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="Pareto front">${axes("mean wasted tokens per stuck agent", "false-positive rate", xMax, yMax, true)}<path d="${path}" fill="none" stroke="#2563eb" stroke-dasharray="4 3"/>${dots.join("")}${labels.join("")}</svg>`;
}

/** Caught share against criticalThreshold (or the first numeric grid field), one line per warningThreshold. */
export function caughtChart(report: TuneReport): string {
  const num = (b: Record<string, unknown>, k: string) => (typeof b[k] === "number" ? (b[k] as number) : undefined);
  const xField = report.rows.some((r) => num(r.block, "criticalThreshold") !== undefined) ? "criticalThreshold" : "warningThreshold";
  const seriesField = xField === "criticalThreshold" ? "warningThreshold" : "historySize";
  const series = new Map<string, Map<number, number[]>>();
  for (const r of report.rows.slice(1)) {
    const x = num(r.block, xField);
    if (x === undefined) continue;
    const key = String(num(r.block, seriesField) ?? "all");
    const points = series.get(key) ?? new Map<number, number[]>();
    points.set(x, [...(points.get(x) ?? []), r.metrics.stuck.caughtShare]);
    series.set(key, points);
  }
  const xs = [...series.values()].flatMap((p) => [...p.keys()]);
  const xMax = Math.max(1, ...xs) * 1.05;
  const lines: string[] = [];
  let i = 0;
  for (const [key, points] of [...series].sort(([a], [b]) => Number(a) - Number(b))) {
    const color = COLORS[i++ % COLORS.length] as string;
    const sorted = [...points].sort(([a], [b]) => a - b).map(([x, ys]) => [x, ys.reduce((s, y) => s + y, 0) / ys.length] as const);
    lines.push(`<path d="${sorted.map(([x, y], k) => `${k === 0 ? "M" : "L"}${fmt(sx(x, xMax))},${fmt(sy(y, 1))}`).join(" ")}" fill="none" stroke="${color}" stroke-width="2"/>`);
    for (const [x, y] of sorted) lines.push(`<circle cx="${fmt(sx(x, xMax))}" cy="${fmt(sy(y, 1))}" r="3" fill="${color}"><title>${esc(`${seriesField}=${key}, ${xField}=${x}: ${fmt(y * 100)}% caught`)}</title></circle>`);
    lines.push(`<text x="${W - PAD.right - 4}" y="${PAD.top + 14 * i}" font-size="11" text-anchor="end" fill="${color}">${esc(`${seriesField}=${key}`)}</text>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="caught against threshold">${axes(`${xField} (mean over the other grid fields)`, "stuck agents caught", xMax, 1, true)}${lines.join("")}</svg>`;
}

/** Histogram of wasted tokens per stuck agent: OpenClaw defaults against each recommendation. */
export function wasteChart(report: TuneReport): string {
  const picked = [report.rows[0], ...report.recommendations.map((r) => report.rows.find((x) => x.index === r.index))].filter((r, i, all) => r !== undefined && all.indexOf(r) === i);
  const all = picked.flatMap((r) => r?.metrics.wastedTokensByAgent ?? []);
  const max = Math.max(1, ...all);
  const bins = 12;
  const width = Math.ceil(max / bins);
  const counts = picked.map((r) => {
    const c = new Array<number>(bins).fill(0);
    for (const v of r?.metrics.wastedTokensByAgent ?? []) c[Math.min(bins - 1, Math.floor(v / width))]++;
    return c;
  });
  const yMax = Math.max(1, ...counts.flat());
  const barW = (W - PAD.left - PAD.right) / bins / Math.max(1, picked.length);
  const bars: string[] = [];
  counts.forEach((c, s) => {
    const color = COLORS[s % COLORS.length] as string;
    c.forEach((n, b) => {
      const x = PAD.left + ((W - PAD.left - PAD.right) * b) / bins + s * barW;
      const y = sy(n, yMax);
      bars.push(`<rect x="${fmt(x)}" y="${fmt(y)}" width="${fmt(barW - 1)}" height="${fmt(H - PAD.bottom - y)}" fill="${color}"><title>${esc(`${picked[s] === undefined ? "" : rowLabel(picked[s])}: ${n} agents wasted ${b * width}-${(b + 1) * width} tokens`)}</title></rect>`);
    });
    bars.push(`<text x="${W - PAD.right - 4}" y="${PAD.top + 14 * (s + 1)}" font-size="11" text-anchor="end" fill="${color}">${esc(picked[s] === undefined ? "" : rowLabel(picked[s]))}</text>`);
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="wasted tokens">${axes("wasted tokens per stuck agent", "stuck agents", bins * width, yMax, false)}${bars.join("")}</svg>`;
}
