// Under mutation testing only: a property that fails has killed its mutant, and shrinking the
// counterexample (seconds, sometimes minutes, per mutant) would tell Stryker nothing more. The
// cases tried, the seed and every assertion stay exactly those of `npm test`.
import fc from "fast-check";

fc.configureGlobal({ ...fc.readConfigureGlobal(), endOnFailure: true });
