// `--junit FILE` and `--annotations`, the same on every command that reports test cases (conform,
// replay, scan): what CI systems read (src/ci).
import { InvalidArgumentError, type Command } from "commander";
import type { CiOutputs } from "../ci/emit.js";

/** One JUnit file per run: a second --junit would silently win over the first, so it is refused. */
function oneJunit(value: string, previous: string | undefined): string {
  if (previous !== undefined) throw new InvalidArgumentError(`--junit given twice (${previous}, then ${value}); a run writes one JUnit file`);
  return value;
}

export function withCiOptions(command: Command): Command {
  return command
    .option("--junit <file>", "also write the results as JUnit XML (one test case per rule, scenario or session), atomically; a file, never - (stdout carries the report)", oneJunit)
    .option("--annotations", "also print GitHub Actions annotations (::error file=...,line=...,title=...::...) to stderr, one per failure");
}

export function ciOutputsOf(opts: { junit?: string; annotations?: boolean }): CiOutputs | undefined {
  if (opts.junit === undefined && opts.annotations !== true) return undefined;
  return { ...(opts.junit === undefined ? {} : { junit: opts.junit }), annotations: opts.annotations === true };
}
