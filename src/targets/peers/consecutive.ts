// The streak most peers count: how many identical calls in a row, ending with this one.
export interface Streak {
  readonly key: string | undefined;
  readonly length: number;
}

export const NO_STREAK: Streak = { key: undefined, length: 0 };

export function extend(streak: Streak, key: string): Streak {
  return streak.key === key ? { key, length: streak.length + 1 } : { key, length: 1 };
}
