// How far two readers who judged the same items agree, beyond what chance would give. Readings are
// the evidence behind every real-loop figure, so a figure read by one person is reported with a
// second person's reading of a sample and this agreement: the share of items both judged alike and
// Cohen's kappa (observed agreement corrected for the agreement two readers with the same base
// rates would reach by chance). Kappa is undefined when both readers gave one answer to every item
// (chance agreement is then 1); it is null there rather than a number that looks like a verdict.

/** Two readers' yes/no answers to the same items, in the same order. */
export interface PairedAnswers {
  readonly first: readonly boolean[];
  readonly second: readonly boolean[];
}

export interface RaterAgreement {
  readonly n: number;
  readonly agree: number;
  /** agree / n, 0 when there are no items. */
  readonly observed: number;
  /** Cohen's kappa, rounded to 2 decimals; null when chance agreement is 1 (or n is 0). */
  readonly kappa: number | null;
  readonly firstYes: number;
  readonly secondYes: number;
}

const r2 = (x: number): number => Math.round(x * 100) / 100;
const r4 = (x: number): number => Math.round(x * 10_000) / 10_000;

export function raterAgreement(answers: PairedAnswers): RaterAgreement {
  if (answers.first.length !== answers.second.length) throw new RangeError(`raterAgreement: ${answers.first.length} first answers against ${answers.second.length} second ones`);
  const n = answers.first.length;
  let agree = 0;
  let firstYes = 0;
  let secondYes = 0;
  answers.first.forEach((a, k) => {
    const b = answers.second[k] as boolean;
    if (a === b) agree++;
    if (a) firstYes++;
    if (b) secondYes++;
  });
  if (n === 0) return { n, agree, observed: 0, kappa: null, firstYes, secondYes };
  const observed = agree / n;
  const p1 = firstYes / n;
  const p2 = secondYes / n;
  const chance = p1 * p2 + (1 - p1) * (1 - p2);
  return { n, agree, observed: r4(observed), kappa: chance >= 1 ? null : r2((observed - chance) / (1 - chance)), firstYes, secondYes };
}
