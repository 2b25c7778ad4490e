// Writing what a CI system reads, for any command that produces test cases: `--junit FILE`
// (atomic) and `--annotations` (GitHub workflow commands on stderr; see annotations.ts).
import { existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { writeFileAtomic } from "../io/atomicWrite.js";
import { UserError } from "../io/errors.js";
import { checkOutputDir } from "../io/writable.js";
import { annotationsOf, renderAnnotations } from "./annotations.js";
import { renderJUnit, type JUnitCase, type JUnitSuite } from "./junit.js";

/** What CI reads besides the report: a JUnit XML file, and GitHub Actions annotations on stderr. */
export interface CiOutputs {
  /** --junit FILE */
  readonly junit?: string;
  /** --annotations */
  readonly annotations?: boolean;
}

/** A case's place in the repository, for annotations that mark a file. */
export type CasePlace = (c: JUnitCase) => { file?: string; line?: number; path?: string; noLine?: string };

/**
 * --junit checked before any work starts, as output folders are, so a long run never fails at its
 * last step. `others` are the files the run also writes or reads (its --out reports, its inputs):
 * a JUnit file there would replace one of them silently. `-` is refused rather than written to
 * stdout: stdout carries the report (`--json` output must still parse), and a file named `-`
 * is never what was meant.
 */
export function checkCiOutputs(outputs: CiOutputs | undefined, others: readonly string[] = []): void {
  const junit = outputs?.junit;
  if (junit === undefined) return;
  if (junit === "-") throw new UserError("--junit -: JUnit XML is written to a file (stdout carries the report); give a path, say --junit junit.xml");
  if (junit.trim() === "") throw new UserError("--junit: the file name is empty");
  if (existsSync(junit) && statSync(junit).isDirectory()) throw new UserError(`--junit ${junit}: is a folder; give a file path`);
  const clash = others.find((other) => resolve(other) === resolve(junit));
  if (clash !== undefined) throw new UserError(`--junit ${junit}: the run also writes or reads ${clash}; the JUnit file would replace it, so give another path`);
  checkOutputDir(dirname(resolve(junit)));
}

export function writeCiOutputs(outputs: CiOutputs | undefined, runName: string, suites: readonly JUnitSuite[], place?: CasePlace): void {
  if (outputs === undefined) return;
  if (outputs.junit !== undefined) writeFileAtomic(outputs.junit, renderJUnit(suites, runName));
  if (outputs.annotations === true) process.stderr.write(renderAnnotations(annotationsOf(suites.flatMap((s) => s.cases), place)));
}
