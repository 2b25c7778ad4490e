// Inline SVG charts for report.html: no scripts, no network, no fonts beyond the system's.
// Every chart names the recommendations by their goal (strict, balanced, lenient), puts its
// legend in a margin of its own so nothing is clipped, and ticks at round values; the caught
// chart also ticks at the thresholds the grid tested.
import { familyHeatmap } from "../reportParts/familyHeatmap.js";
import { errorBars, escapeXml as esc, fmt, roundAxis } from "../format/svgScale.js";
import type { ConfigRow } from "../evaluation/evaluate.js";
import type { TuneReport } from "./report.js";
import { operatorFront } from "./recommend.js";

const W = 860;
const H = 380;
const PAD = { left: 64, right: 250, top: 20, bottom: 52 };
const COLORS = ["#dc2626", "#2563eb", "#16a34a", "#9333ea", "#ea580c", "#0891b2", "#4d7c0f", "#be185d"];
const plotW = W - PAD.left - PAD.right;
const plotH = H - PAD.top - PAD.bottom;
const pct = (x: number) => `${fmt(x * 100)}%`;

/** OpenClaw's defaults and each recommendation, by the names the report uses for them. */
export function namedRows(report: TuneReport): { name: string; row: ConfigRow }[] {
  const named: { name: string; row: ConfigRow }[] = [];
  const defaults = report.rows[0];
  if (defaults !== undefined) named.push({ name: "OpenClaw defaults", row: defaults });
  for (const rec of report.recommendations) {
    const row = report.rows.find((r) => r.index === rec.index);
    if (row === undefined) continue;
    const same = named.find((n) => n.row === row);
    if (same !== undefined) same.name += ` = ${rec.goal}`;
    else named.push({ name: rec.goal, row });
  }
  return named;
}

interface Axis {
  readonly max: number;
  readonly ticks: readonly number[];
  readonly label: (x: number) => string;
  readonly title: string;
  /** Position in [0, 1] of a value. */
  readonly at?: (x: number) => number;
}

const linear = (max: number) => (x: number) => x / (max || 1);

function frame(x: Axis, y: Axis): { parts: string[]; sx: (v: number) => number; sy: (v: number) => number } {
  const fx = x.at ?? linear(x.max);
  const fy = y.at ?? linear(y.max);
  const sx = (v: number) => PAD.left + plotW * fx(v);
  const sy = (v: number) => H - PAD.bottom - plotH * fy(v);
  const parts: string[] = [];
  for (const t of x.ticks) parts.push(`<line x1="${fmt(sx(t))}" y1="${PAD.top}" x2="${fmt(sx(t))}" y2="${H - PAD.bottom}" stroke="#eee"/><text x="${fmt(sx(t))}" y="${H - PAD.bottom + 16}" font-size="11" text-anchor="middle">${esc(x.label(t))}</text>`);
  for (const t of y.ticks) parts.push(`<line x1="${PAD.left}" y1="${fmt(sy(t))}" x2="${W - PAD.right}" y2="${fmt(sy(t))}" stroke="#eee"/><text x="${PAD.left - 6}" y="${fmt(sy(t) + 4)}" font-size="11" text-anchor="end">${esc(y.label(t))}</text>`);
  parts.push(`<line x1="${PAD.left}" y1="${H - PAD.bottom}" x2="${W - PAD.right}" y2="${H - PAD.bottom}" stroke="#333"/><line x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${H - PAD.bottom}" stroke="#333"/>`);
  parts.push(`<text x="${PAD.left + plotW / 2}" y="${H - 12}" font-size="12" text-anchor="middle">${esc(x.title)}</text>`);
  parts.push(`<text x="16" y="${PAD.top + plotH / 2}" font-size="12" text-anchor="middle" transform="rotate(-90 16 ${PAD.top + plotH / 2})">${esc(y.title)}</text>`);
  return { parts, sx, sy };
}

/** Legend entries in the right margin, one per line, never over the plot. */
/** How an entry is drawn: a line, a filled dot, or an open ring (each as the chart draws it). */
type Mark = "line" | "dashed" | "dot" | "ring" | "hollow";

function legend(entries: readonly { name: string; color: string; dot?: boolean; mark?: Mark }[]): string {
  return entries
    .map((e, k) => {
      const y = PAD.top + 8 + 16 * k;
      const kind: Mark = e.mark ?? (e.dot === true ? "dot" : "line");
      const cx = W - PAD.right + 16;
      const mark =
        kind === "dot"
          ? `<circle cx="${cx}" cy="${y - 4}" r="4" fill="${e.color}"/>`
          : kind === "ring"
            ? `<circle cx="${cx}" cy="${y - 4}" r="5" fill="none" stroke="${e.color}" stroke-width="2.5"/>`
            : kind === "hollow"
              ? `<circle cx="${cx}" cy="${y - 4}" r="3.5" fill="#fff" stroke="${e.color}" stroke-width="1.5"/>`
              : `<line x1="${W - PAD.right + 8}" y1="${y - 4}" x2="${W - PAD.right + 24}" y2="${y - 4}" stroke="${e.color}" stroke-width="${kind === "dashed" ? 1.5 : 3}"${kind === "dashed" ? ` stroke-dasharray="4 3"` : ""}/>`;
      return `${mark}<text x="${W - PAD.right + 30}" y="${y}" font-size="11">${esc(e.name)}</text>`;
    })
    .join("");
}

/** Lines of small print in the legend margin, below `after` legend entries. */
function note(lines: readonly string[], after: number): string {
  return lines.map((line, k) => `<text x="${W - PAD.right + 10}" y="${PAD.top + 8 + 16 * after + 8 + 13 * k}" font-size="10" fill="#555">${esc(line)}</text>`).join("");
}

const svg = (label: string, body: string) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${esc(label)}">${body}</svg>`;

/** Mean wasted tokens (the statistic the Pareto front and the recommendations quote) against the false-positive rate. */
export function paretoChart(report: TuneReport): string {
  const waste = (r: ConfigRow) => r.metrics.stuck.wastedTokens.mean;
  const fp = (r: ConfigRow) => r.metrics.overall.falsePositiveRate;
  const named = namedRows(report);
  // The axes reach the ends of the named configs' intervals too, so no error bar leaves the plot
  // (at a 0% false-positive rate the points sit low while the Wilson interval still reaches up).
  const xHigh = named.map((n) => n.row.metrics.intervals?.wastedTokensMean.high ?? 0);
  const yHigh = named.map((n) => n.row.metrics.intervals?.falsePositiveRate.high ?? 0);
  const xAxis = roundAxis(Math.max(1, ...report.rows.map(waste), ...xHigh));
  const yAxis = roundAxis(Math.max(0.05, ...report.rows.map(fp), ...yHigh));
  const { parts, sx, sy } = frame(
    { ...xAxis, label: (x) => fmt(x), title: "mean wasted tokens per stuck agent" },
    { ...yAxis, label: pct, title: report.grounded?.primary === true ? "false-positive rate (real sessions)" : "false-positive rate (simulated)" },
  );
  const front = report.rows.filter((r) => report.pareto.includes(r.index)).sort((a, b) => waste(a) - waste(b));
  parts.push(`<path d="${front.map((r, i) => `${i === 0 ? "M" : "L"}${fmt(sx(waste(r)))},${fmt(sy(fp(r)))}`).join(" ")}" fill="none" stroke="#2563eb" stroke-dasharray="4 3"/>`);
  // The picks come from the front over four objectives (caught, good work stopped, false aborts,
  // waste); this plane shows two, so a pick can lie off the dashed line. Rows of the four-way front
  // that the plane hides are drawn as open blue rings, and the legend says so.
  const fourWay = new Set(operatorFront(report.rows).map((r) => r.index));
  for (const r of report.rows) {
    const onFront = report.pareto.includes(r.index);
    const title = `<title>${esc(`#${r.index} ${r.label}: mean ${waste(r)} tokens, FP ${pct(fp(r))}, caught ${pct(r.metrics.stuck.caughtShare)}`)}</title>`;
    if (onFront) parts.push(`<circle cx="${fmt(sx(waste(r)))}" cy="${fmt(sy(fp(r)))}" r="4" fill="#2563eb">${title}</circle>`);
    else if (fourWay.has(r.index)) parts.push(`<circle cx="${fmt(sx(waste(r)))}" cy="${fmt(sy(fp(r)))}" r="3.5" fill="#fff" stroke="#2563eb" stroke-width="1.5">${title}</circle>`);
    else parts.push(`<circle cx="${fmt(sx(waste(r)))}" cy="${fmt(sy(fp(r)))}" r="3" fill="#9ca3af">${title}</circle>`);
  }
  named.forEach((n, k) => {
    const color = COLORS[k % COLORS.length] as string;
    // 95% intervals of the named configs: mean waste (bootstrap) and false-positive rate (Wilson).
    const i = n.row.metrics.intervals;
    if (i !== undefined) parts.push(errorBars(sx(waste(n.row)), sy(fp(n.row)), sx(i.wastedTokensMean.low), sx(i.wastedTokensMean.high), sy(i.falsePositiveRate.low), sy(i.falsePositiveRate.high), color));
    parts.push(`<circle cx="${fmt(sx(waste(n.row)))}" cy="${fmt(sy(fp(n.row)))}" r="7" fill="none" stroke="${color}" stroke-width="2.5"/>`);
  });
  const entries: { name: string; color: string; mark: Mark }[] = [
    ...named.map((n, k) => ({ name: n.name, color: COLORS[k % COLORS.length] as string, mark: "ring" as const })),
    { name: "front on these two axes", color: "#2563eb", mark: "dashed" },
    { name: "on it", color: "#2563eb", mark: "dot" },
    { name: "on the four-objective front only", color: "#2563eb", mark: "hollow" },
    { name: "other configs", color: "#9ca3af", mark: "dot" },
  ];
  parts.push(legend(entries));
  // Lines of at most 34 characters: the margin holds no more at 11 px.
  parts.push(note(["The picks come from the front over", "four objectives: caught, good work", "stopped, false aborts and waste.", "This plot shows two of them, so a", "pick can lie off the dashed line;", "hover a dot for its caught rate."], entries.length));
  return svg("Pareto front", parts.join(""));
}

/** Caught share against criticalThreshold (or the first numeric grid field), one line per warningThreshold; ticks at the tested values. */
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
  const tested = [...new Set([...series.values()].flatMap((p) => [...p.keys()]))].sort((a, b) => a - b);
  const xAxis = roundAxis(Math.max(1, ...tested));
  const ticks = [...new Set([...xAxis.ticks, ...tested])].sort((a, b) => a - b);
  const { parts, sx, sy } = frame(
    { max: xAxis.max, ticks, label: (x) => fmt(x), title: `${xField} (mean over the other grid fields; ticks at the tested values)` },
    { max: 1, ticks: [0, 0.25, 0.5, 0.75, 1], label: pct, title: "stuck agents caught" },
  );
  const entries: { name: string; color: string }[] = [];
  [...series].sort(([a], [b]) => Number(a) - Number(b)).forEach(([key, points], i) => {
    const color = COLORS[(i + 1) % COLORS.length] as string;
    const sorted = [...points].sort(([a], [b]) => a - b).map(([x, ys]) => [x, ys.reduce((s, y) => s + y, 0) / ys.length] as const);
    parts.push(`<path d="${sorted.map(([x, y], k) => `${k === 0 ? "M" : "L"}${fmt(sx(x))},${fmt(sy(y))}`).join(" ")}" fill="none" stroke="${color}" stroke-width="2"/>`);
    for (const [x, y] of sorted) parts.push(`<circle cx="${fmt(sx(x))}" cy="${fmt(sy(y))}" r="3" fill="${color}"><title>${esc(`${seriesField}=${key}, ${xField}=${x}: ${pct(y)} caught`)}</title></circle>`);
    entries.push({ name: `${seriesField}=${key}`, color });
  });
  parts.push(legend(entries));
  return svg("caught against threshold", parts.join(""));
}

/** Share of stuck agents that wasted at most x tokens, x on a log scale: the defaults and each recommendation. */
export function wasteChart(report: TuneReport): string {
  const named = namedRows(report);
  const all = named.flatMap((n) => n.row.metrics.wastedTokensByAgent);
  const decades = Math.max(1, Math.ceil(Math.log10(Math.max(10, ...all))));
  const at = (x: number) => Math.log10(Math.max(1, x)) / decades;
  const ticks = Array.from({ length: decades + 1 }, (_, i) => 10 ** i);
  const { parts, sx, sy } = frame(
    { max: 10 ** decades, ticks, at, label: (x) => (x >= 1000 ? `${x / 1000}k` : String(x)), title: "wasted tokens per stuck agent (log scale)" },
    { max: 1, ticks: [0, 0.25, 0.5, 0.75, 1], label: pct, title: "stuck agents that wasted at most this" },
  );
  named.forEach((n, k) => {
    const color = COLORS[k % COLORS.length] as string;
    const values = [...n.row.metrics.wastedTokensByAgent].sort((a, b) => a - b);
    const steps: string[] = [`M${fmt(sx(1))},${fmt(sy(0))}`];
    values.forEach((v, i) => {
      steps.push(`L${fmt(sx(v))},${fmt(sy(i / values.length))}`, `L${fmt(sx(v))},${fmt(sy((i + 1) / values.length))}`);
    });
    steps.push(`L${fmt(sx(10 ** decades))},${fmt(sy(1))}`);
    parts.push(`<path d="${steps.join(" ")}" fill="none" stroke="${color}" stroke-width="2" stroke-dasharray="${k === 0 ? "none" : `${2 + 2 * k} 2`}"><title>${esc(`${n.name}: median ${n.row.metrics.stuck.wastedTokens.median}, mean ${n.row.metrics.stuck.wastedTokens.mean}`)}</title></path>`);
  });
  parts.push(legend(named.map((n, k) => ({ name: n.name, color: COLORS[k % COLORS.length] as string }))));
  return svg("wasted tokens", parts.join(""));
}

/** Warnings as pictures: progressing agents warned, and stuck agents stopped by a warning, per named config. */
export function warnedChart(report: TuneReport): string {
  const named = namedRows(report);
  const { parts, sy } = frame(
    { max: 1, ticks: [], label: () => "", title: "OpenClaw defaults and the recommendations" },
    { max: 1, ticks: [0, 0.25, 0.5, 0.75, 1], label: pct, title: "share of agents" },
  );
  const group = plotW / Math.max(1, named.length);
  const bars = [
    { name: "progressing agents warned", color: "#ea580c", value: (r: ConfigRow) => r.metrics.progressing.warnedShare },
    { name: "stuck agents stopped by a warning", color: "#16a34a", value: (r: ConfigRow) => r.metrics.stuck.escapedShare },
    { name: "stuck agents caught (block or abort)", color: "#2563eb", value: (r: ConfigRow) => r.metrics.stuck.caughtShare },
  ];
  const barW = (group * 0.8) / bars.length;
  named.forEach((n, k) => {
    const x0 = PAD.left + group * k + group * 0.1;
    bars.forEach((b, j) => {
      const v = b.value(n.row);
      parts.push(`<rect x="${fmt(x0 + barW * j)}" y="${fmt(sy(v))}" width="${fmt(barW - 2)}" height="${fmt(H - PAD.bottom - sy(v))}" fill="${b.color}"><title>${esc(`${n.name}: ${b.name} ${pct(v)}`)}</title></rect>`);
    });
    parts.push(`<text x="${fmt(x0 + group * 0.4)}" y="${H - PAD.bottom + 16}" font-size="11" text-anchor="middle">${esc(n.name)}</text>`);
  });
  parts.push(legend(bars.map((b) => ({ name: b.name, color: b.color }))));
  return svg("warned share", parts.join(""));
}

/** Families by the defaults and the recommendations. */
export function familyChart(report: TuneReport): string {
  return familyHeatmap(namedRows(report).map((n) => ({ name: n.name, byFamily: n.row.metrics.byFamily })), "families by config");
}
