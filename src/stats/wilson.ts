// The Wilson score interval for a share of n cases (sound at 0%, 100% and small n, where the
// textbook normal interval is not), apart from interval.ts's bootstrap so that a command that
// prints only shares (`loops`: precision and recall) loads no resampling package (issue 35).

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

/** "64.2% (60.1-68.0%, n=300)"; "n/a (n=0)" when it rests on no case (0% of nothing is no finding). */
export function percentWithInterval(value: number, i: Interval): string {
  if (i.n === 0) return "n/a (n=0)";
  const pct = (x: number) => (Math.round(x * 1000) / 10).toFixed(1);
  return `${pct(value)}% (${pct(i.low)}-${pct(i.high)}%, n=${i.n})`;
}
