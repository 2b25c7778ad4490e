// 95% intervals for every rate loopsim prints. A share of n cases gets the Wilson score interval
// (sound at 0%, 100% and small n, where the textbook normal interval is not); a median, a p90, a
// mean or a sum over agents or sessions gets a percentile bootstrap, resampled with a seeded
// generator so the same inputs give the same interval, byte for byte. simple-statistics provides
// the resampling and the quantiles; nothing here reads a clock or Math.random.
import seedrandom from "seedrandom";
import { quantileSorted, sampleWithReplacement } from "simple-statistics";

import { CONFIDENCE, type Interval } from "./wilson.js";

// The Wilson interval lives in wilson.ts, without this file's packages: `loops` needs only it, and
// loading seedrandom and simple-statistics cost every `loops` start (and each worker thread) about
// 20 ms (issue 35, ninth pass). Re-exported so that every other importer reads it from here as before.
export { CONFIDENCE, type Interval, percentWithInterval, wilson } from "./wilson.js";

const BOOTSTRAP_RESAMPLES = 400;

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
