// The nearest-rank percentile, apart from evaluation/metrics.ts so that `loops`, which reads only
// it, loads none of the statistics packages metrics.ts uses (issue 35).

/** The value at rank ceil(p * n) of the sorted values (the nearest-rank percentile); 0 for no value. */
export function nearestRank(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] as number;
}
