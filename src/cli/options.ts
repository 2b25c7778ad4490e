// The option parsers and limits every command group shares (program.ts and
// simulationCommands.ts both import them; neither imports the other for them).
import { InvalidArgumentError, type Command } from "commander";
import { UserError } from "../io/errors.js";

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

export { MAX_AGENTS, MAX_WORKERS } from "../io/limits.js";
/** Law repetitions (conform --depth). */
export const MAX_DEPTH = 1_000;

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

/** Whether the user gave an option (on the command line), not its default. */
function given(command: Command, key: string): boolean {
  const source = command.getOptionValueSource(key);
  return source !== undefined && source !== "default";
}

/**
 * Options that mean nothing without another, or contradict one: refused with both named, never
 * silently dropped (`--label-key` without `--labels` would label nothing).
 */
export function refuseOptionConflicts(command: Command, rules: readonly OptionRule[]): void {
  const opts = command.opts<Record<string, unknown>>();
  for (const rule of rules) {
    if (!given(command, rule.option)) continue;
    if ("needs" in rule && opts[rule.needs] === undefined) throw new UserError(`${flag(rule.option)} needs ${flag(rule.needs)}${rule.why === undefined ? "" : `: ${rule.why}`}`);
    if ("notWith" in rule && (rule.when === undefined ? given(command, rule.notWith) : rule.when(opts))) throw new UserError(`${flag(rule.option)} and ${flag(rule.notWith)} cannot be given together: ${rule.why}`);
  }
}

export type OptionRule =
  | { readonly option: string; readonly needs: string; readonly why?: string }
  | { readonly option: string; readonly notWith: string; readonly why: string; readonly when?: (opts: Record<string, unknown>) => boolean };

const flag = (key: string): string => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
