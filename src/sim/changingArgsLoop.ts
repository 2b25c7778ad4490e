// A loop where the failure repeats while the args change, drawn from a system's fitted parameters
// (changingArgsParams.ts): every call's args differ from the last (a share `argChange` of their
// words replaced, at least one), and each answer is the same failure with probability
// `recurrence` (its text varied, a line number, with probability `textVaries`) or another
// failure. Shared by the simulator family (families.ts) and the injected shape (injection.ts), so
// both draw the same kind of loop from the same numbers. Every draw comes from the Rng given.
import type { ChangingArgsSystem } from "./changingArgsParams.js";
import type { Rng } from "./rng.js";

/** A stretch's length in calls: a uniform draw between two neighbouring fitted percentiles (10 to 90). */
export function drawLength(system: ChangingArgsSystem, rng: Rng): number {
  const i = rng.int(0, system.lengths.length - 2);
  return rng.int(system.lengths[i] as number, system.lengths[i + 1] as number);
}

/** A system by its weight (its stretches), from those given in name order; undefined when none. */
export function drawSystem(systems: Readonly<Record<string, ChangingArgsSystem>>, rng: Rng): string | undefined {
  const names = Object.keys(systems).sort();
  const total = names.reduce((sum, n) => sum + (systems[n] as ChangingArgsSystem).stretches, 0);
  if (total === 0) return undefined;
  let u = rng.next() * total;
  for (const n of names) {
    u -= (systems[n] as ChangingArgsSystem).stretches;
    if (u < 0) return n;
  }
  return names[names.length - 1];
}

/** Words an agent puts into a new attempt (a flag, a path, a value): lowercase words, no digits, so masking keeps them apart. */
const FRESH_WORDS: readonly string[] = ["--verbose", "--force", "-q", "--user", "src", "lib", "tests", "setup", "config", "main", "utils", "core", "--no-cache", "-x", "--pre", "build", "dist", "module", "package", "--upgrade", "check", "fix", "patch", "run", "local", "env", "path", "init"];

/** Failures that are not the recurring one: each another reason (another signature once masked). */
const OTHER_FAILURES: readonly string[] = [
  "PermissionError: [Errno 13] Permission denied",
  "bash: syntax error near unexpected token `)'",
  "ImportError: cannot import name 'helper' from partially initialized module",
  "fatal: not a git repository (or any of the parent directories): .git",
  "TypeError: unsupported operand type(s) for +: 'int' and 'str'",
];

export interface LoopCall {
  /** The command words of this attempt, joined by spaces. */
  readonly command: string;
  /** The failure it met, as the tool reports it. */
  readonly failure: string;
  /** Whether it is the recurring failure (the ground truth behind `recurrence`). */
  readonly recurring: boolean;
}

/**
 * Attempts of one changing-args loop: from `words` (the first attempt's command) and `failure`
 * (the recurring error; `{line}` in it is where a varying line number goes), `length` calls.
 */
export function changingArgsCalls(system: ChangingArgsSystem, rng: Rng, words: readonly string[], failure: string, length: number): LoopCall[] {
  const out: LoopCall[] = [];
  let current = [...words];
  let line = rng.int(2, 400);
  for (let i = 0; i < length; i++) {
    if (i > 0) {
      const next = current.map((w) => (rng.chance(system.argChange) ? rng.pick(FRESH_WORDS) : w));
      // Every attempt differs from the last: at least one word is new (or one is added).
      if (next.join(" ") === current.join(" ")) {
        const k = rng.int(0, next.length);
        if (k === next.length) next.push(rng.pick(FRESH_WORDS.filter((w) => !next.includes(w))));
        else next[k] = rng.pick(FRESH_WORDS.filter((w) => w !== next[k]));
      }
      current = next;
    }
    const recurring = i === 0 || rng.chance(system.recurrence);
    if (recurring && i > 0 && rng.chance(system.textVaries)) line += rng.int(1, 9);
    out.push({ command: current.join(" "), failure: recurring ? failure.replace("{line}", String(line)) : rng.pick(OTHER_FAILURES), recurring });
  }
  return out;
}

/** What a stock agent of the family runs and meets: a command and its recurring failure. */
export const STOCK_LOOPS: readonly { readonly words: readonly string[]; readonly failure: string }[] = [
  { words: ["python", "reproduce.py"], failure: 'Traceback (most recent call last):\n  File "reproduce.py", line {line}, in <module>\nModuleNotFoundError: No module named \'astropy.units.quantity_helper\'' },
  { words: ["cd", "/repo", "&&", "python", "-m", "pytest", "tests/test_core.py"], failure: "tests/test_core.py:{line}: in <module>\nE   AttributeError: module 'core' has no attribute 'Parser'" },
  { words: ["sed", "-i", "s/old/new/", "src/app.py", "&&", "python", "src/app.py"], failure: '  File "src/app.py", line {line}\n    return value +\n                 ^\nSyntaxError: invalid syntax' },
];
