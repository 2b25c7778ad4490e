// One seed drives every random choice of a simulation: seedrandom with an explicit seed string,
// never Math.random. Sub-streams are derived by name so adding a draw in one place does not
// shift every other choice.
import seedrandom from "seedrandom";

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** A short lowercase hex id, for fresh message ids, request ids and pids. */
  id(length?: number): string;
}

export function makeRng(seed: string): Rng {
  const source = seedrandom(seed);
  const next = (): number => source.quick();
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (probability) => next() < probability,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    id: (length = 8) => {
      let out = "";
      while (out.length < length) out += Math.floor(next() * 0x100000000).toString(16).padStart(8, "0");
      return out.slice(0, length);
    },
  };
}
