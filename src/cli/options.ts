// The option parsers and limits every command group shares (program.ts and
// simulationCommands.ts both import them; neither imports the other for them).
import { InvalidArgumentError } from "commander";
import { targetNamesHelp } from "../targets/registry.js";

export const TARGET_HELP = `loop guard to run: ${targetNamesHelp()}`;

/** Above 2^53 a number no longer names one integer: a seed of 9007199254740993 would run as ...992. */
function safe(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError(`${name} must be at most ${Number.MAX_SAFE_INTEGER} (got "${value}")`);
  return n;
}

/**
 * A positive integer no larger than max (a bound that keeps a run's memory and time sane). The
 * bound is checked on the digits, before any conversion, so a huge value names the real limit.
 */
export function boundedInt(name: string, max: number): (value: string) => number {
  return (value: string) => {
    if (!/^[1-9][0-9]*$/.test(value)) throw new InvalidArgumentError(`${name} must be a positive integer (got "${value}")`);
    if (BigInt(value) > BigInt(max)) throw new InvalidArgumentError(`${name} must be at most ${max} (got ${value})`);
    return Number(value);
  };
}

/** Simulated agents per config or guard: beyond this a run takes days, and its arrays exhaust memory. */
export const MAX_AGENTS = 100_000;
/** Law repetitions (conform --depth). */
export const MAX_DEPTH = 1_000;
/** Worker threads: more than cores only adds start-up cost; the bound keeps a typo from spawning thousands. */
export const MAX_WORKERS = 256;

export function nonNegativeInt(name: string): (value: string) => number {
  return (value: string) => {
    if (!/^(0|[1-9][0-9]*)$/.test(value)) throw new InvalidArgumentError(`${name} must be a whole number (got "${value}")`);
    return safe(name, value);
  };
}

/** A share below 1: 0 allowed, 1 not (a population all of one side has nothing to weigh against). */
export function shareArg(name: string): (value: string) => number {
  return (value: string) => {
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n) || n < 0 || n >= 1) throw new InvalidArgumentError(`${name} must be a number from 0 up to (not including) 1 (got "${value}")`);
    return n;
  };
}
