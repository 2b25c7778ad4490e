// Writing what a CI system reads, for any command that produces test cases: `--junit FILE`
// (atomic) and `--annotations` (GitHub workflow commands on stderr; see annotations.ts).
import { writeFileAtomic } from "../io/atomicWrite.js";
import { annotationsOf, renderAnnotations } from "./annotations.js";
import { renderJUnit, type JUnitCase, type JUnitSuite } from "./junit.js";

export interface CiOutputs {
  /** --junit FILE */
  readonly junit?: string;
  /** --annotations */
  readonly annotations?: boolean;
}

/** A case's place in the repository, for annotations that mark a file. */
export type CasePlace = (c: JUnitCase) => { file?: string; line?: number };

export function writeCiOutputs(outputs: CiOutputs | undefined, runName: string, suites: readonly JUnitSuite[], place?: CasePlace): void {
  if (outputs === undefined) return;
  if (outputs.junit !== undefined) writeFileAtomic(outputs.junit, renderJUnit(suites, runName));
  if (outputs.annotations === true) process.stderr.write(renderAnnotations(annotationsOf(suites.flatMap((s) => s.cases), place)));
}
