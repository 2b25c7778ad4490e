// 95% intervals for every rate loopsim prints. A share of n cases gets the Wilson score interval
// (sound at 0%, 100% and small n, where the textbook normal interval is not); a median, a p90, a
// mean or a sum over agents or sessions gets a percentile bootstrap, resampled with a seeded
// generator so the same inputs give the same interval, byte for byte. simple-statistics provides
// the resampling and the quantiles; nothing here reads a clock or Math.random.
import seedrandom from "seedrandom";
import { quantileSorted, sampleWithReplacement } from "simple-statistics";

/** A value with its 95% interval and the number of cases it rests on. */
export interface Interval {
  readonly low: number;
  readonly high: number;
  readonly n: number;
}

export const CONFIDENCE = 0.95;
/** The normal distribution's 97.5% quantile, to full precision (simple-statistics' probit is an
 * approximation that gives 1.9572 here, which moves Wilson bounds in the 4th decimal). */
const Z = 1.959963984540054;
const BOOTSTRAP_RESAMPLES = 400;

const r4 = (x: number): number => Math.round(x * 10_000) / 10_000;

/** Wilson score interval for k successes in n; [0, 1] when there are no cases. */
export function wilson(k: number, n: number): Interval {
  if (n <= 0) return { low: 0, high: 1, n: 0 };
  const p = k / n;
  const z2 = Z * Z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (Z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return { low: r4(Math.max(0, centre - half)), high: r4(Math.min(1, centre + half)), n };
}

/**
 * Percentile bootstrap of `statistic` over `values` (one per agent or session). `seed` names the
 * quantity (config and metric), so every interval has its own stream and none depends on order.
 */
export function bootstrap(values: readonly number[], statistic: (sample: readonly number[]) => number, seed: string, round: (x: number) => number = (x) => Math.round(x * 10) / 10): Interval {
  if (values.length === 0) return { low: 0, high: 0, n: 0 };
  const random = seedrandom(seed);
  const source = [...values];
  const estimates: number[] = [];
  for (let i = 0; i < BOOTSTRAP_RESAMPLES; i++) estimates.push(statistic(sampleWithReplacement(source, source.length, random)));
  estimates.sort((a, b) => a - b);
  const tail = (1 - CONFIDENCE) / 2;
  return { low: round(quantileSorted(estimates, tail)), high: round(quantileSorted(estimates, 1 - tail)), n: values.length };
}

/** Whether two intervals overlap (then the difference between the two values is not shown). */
export function overlaps(a: Interval, b: Interval): boolean {
  return a.low <= b.high && b.low <= a.high;
}

/** "64.2% (60.1-68.0%, n=300)"; "n/a (n=0)" when it rests on no case (0% of nothing is no finding). */
export function percentWithInterval(value: number, i: Interval): string {
  if (i.n === 0) return "n/a (n=0)";
  const pct = (x: number) => (Math.round(x * 1000) / 10).toFixed(1);
  return `${pct(value)}% (${pct(i.low)}-${pct(i.high)}%, n=${i.n})`;
}

/** "67.4% [62.9-71.6]": a share with its interval, for table cells; "n/a" over no case. */
export function shareCell(value: number, i: Interval | undefined): string {
  if (i?.n === 0) return "n/a";
  const pct = (x: number) => `${(Math.round(x * 1000) / 10).toFixed(1)}`;
  return i === undefined ? `${pct(value)}%` : `${pct(value)}% [${pct(i.low)}-${pct(i.high)}]`;
}

/** "1519 [1402-1630]": a number with its interval, for table cells; "n/a" over no case. */
export function numberCell(value: number, i: Interval | undefined): string {
  if (i?.n === 0) return "n/a";
  return i === undefined ? String(value) : `${value} [${i.low}-${i.high}]`;
}
