// Delta debugging (Zeller's ddmin) over an event list: the smallest sub-list, in order, for which
// a chosen fact still holds. Deterministic: the same input and predicate give the same result.
export function minimizeEvents<T>(items: readonly T[], holds: (candidate: readonly T[]) => boolean, options: { maxTests?: number } = {}): { kept: T[]; tests: number } {
  let current = [...items];
  let tests = 0;
  const budget = options.maxTests ?? 20_000;
  const test = (candidate: readonly T[]): boolean => {
    tests++;
    return holds(candidate);
  };
  let n = 2;
  while (current.length >= 2 && tests < budget) {
    const size = Math.ceil(current.length / n);
    let reduced = false;
    for (let start = 0; start < current.length && tests < budget; start += size) {
      const complement = [...current.slice(0, start), ...current.slice(start + size)];
      if (complement.length > 0 && test(complement)) {
        current = complement;
        n = Math.max(n - 1, 2);
        reduced = true;
        break;
      }
    }
    if (!reduced) {
      if (n >= current.length) break;
      n = Math.min(current.length, n * 2);
    }
  }
  // A last pass of single removals: ddmin's result is 1-minimal only at granularity 1.
  for (let i = current.length - 1; i >= 0 && tests < budget; i--) {
    const candidate = [...current.slice(0, i), ...current.slice(i + 1)];
    if (candidate.length > 0 && test(candidate)) current = candidate;
  }
  return { kept: current, tests };
}
