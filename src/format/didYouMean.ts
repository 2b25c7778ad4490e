// "did you mean": the known name closest to what was typed (Levenshtein distance), when it is
// close enough to be a typo; otherwise the whole list is the better help.
export function closest(typed: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const d = distance(typed.toLowerCase(), name.toLowerCase());
    if (best === undefined || d < best.distance) best = { name, distance: d };
  }
  return best !== undefined && best.distance <= Math.max(2, Math.floor(typed.length / 3)) ? best.name : undefined;
}

function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = row;
  }
  return previous[b.length] as number;
}

/** "unknown law "nope" (did you mean "no-block-without-evidence"? known: a, b, c)" */
export function unknownName(kind: string, typed: string, known: readonly string[]): string {
  const guess = closest(typed, known);
  return `unknown ${kind} "${typed}" (${guess === undefined ? "" : `did you mean "${guess}"? `}known: ${known.join(", ")})`;
}
