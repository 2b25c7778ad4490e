// Replaying a captured counterexample checks the law it broke again, from fast-check's seed and
// path: the file fails while the law is broken, whatever the timeline says.
import fc from "fast-check";
import { ALL_LAWS } from "../../properties/laws/index.js";
import { Coverage } from "../../properties/laws/coverage.js";
import type { Target } from "../targets/target.js";
import type { LawReplay } from "../scenario/scenario.js";

/** The law's failure message on target, or undefined when the law holds on that case. */
export function recheckLaw(law: LawReplay, target: Target): string | undefined {
  const found = ALL_LAWS.find((l) => l.name === law.name);
  if (found === undefined) return `unknown law ${JSON.stringify(law.name)} (known: ${ALL_LAWS.map((l) => l.name).join(", ")})`;
  const coverage = new Coverage(found.name, []);
  const details = fc.check(
    fc.property(found.arbitrary, (value) => {
      found.check(value, target, coverage);
    }),
    { seed: law.seed, path: law.path, numRuns: found.runs },
  );
  if (!details.failed) return undefined;
  return details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
}
