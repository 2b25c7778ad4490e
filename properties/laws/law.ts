// A law is a named invariant over generated inputs, tied to SPEC IDs. Laws are run against any
// target (src/targets): the reference by the property tests, every bug-zoo variant by the zoo
// test, and whatever `loopsim conform --target` names, so the same law that guards the reference
// is the one that catches a broken or foreign engine.
import type fc from "fast-check";
import type { ScenarioDraft } from "../../src/scenario/write.js";
import type { Need, Target } from "../../src/targets/target.js";
import type { Coverage } from "./coverage.js";

export { REFERENCE_TARGET as REFERENCE, ORACLE_TARGET as ORACLE } from "../../src/targets/reference.js";

export interface Law<T> {
  readonly name: string;
  readonly spec: readonly string[];
  /** What a target must model for the law to say anything; otherwise the law is n/a for it. */
  readonly needs: readonly Need[];
  readonly arbitrary: fc.Arbitrary<T>;
  readonly runs: number;
  /** Coverage tags a passing run must reach. */
  readonly required: readonly string[];
  /** Throws with a one-line reason when the law does not hold. */
  check(value: T, target: Target, coverage: Coverage): void;
  /**
   * The rules a failing case breaks by its making (say, an interleaved loop not blocked breaks
   * K4), whether or not its trace differs from the reference's; conform blames them.
   */
  blames?(value: T): readonly string[];
  /** The counterexample as a scenario draft (for failure capture). */
  scenario(value: T): Omit<ScenarioDraft, "id" | "title">;
}

export class LawBroken extends Error {}

export function broken(reason: string): never {
  throw new LawBroken(reason);
}
