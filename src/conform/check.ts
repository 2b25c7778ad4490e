// One conformance check's result: pass, fail with a minimal counterexample, or n/a with the reason.
export type CheckStatus = "pass" | "fail" | "n/a";

export interface Counterexample {
  /** The scenario file, recorded from the target, that reproduces the failure. */
  readonly file: string;
  readonly events: number;
  /** One command that shows it again. */
  readonly replay: string;
  /** The first line where the target and the reference part ways (reference, then target). */
  readonly reference?: string;
  readonly target?: string;
}

export interface CheckResult {
  readonly kind: "scenario" | "law" | "differential" | "probe";
  readonly name: string;
  readonly rules: readonly string[];
  readonly status: CheckStatus;
  readonly reason?: string;
  readonly counterexample?: Counterexample;
  /** A failing check's other rules, which its counterexample did not judge (fast-check stops at the first failure). */
  readonly unjudged?: readonly string[];
}
