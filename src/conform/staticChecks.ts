// Rules no run of a target can judge, said once per target so their cells are n/a with a reason
// rather than blank.
import type { CheckResult } from "./check.js";

export function staticChecks(): CheckResult[] {
  return [
    { kind: "probe", name: "config validation", rules: ["C2"], status: "n/a", reason: "validating a user's file happens in loopsim's config reader before any target runs" },
    { kind: "probe", name: "per-agent override", rules: ["C4"], status: "n/a", reason: "agents.list overrides are merged by loopsim before the target starts; a target sees the effective block" },
    { kind: "probe", name: "keys and wording", rules: ["D3"], status: "n/a", reason: "warning keys embed each engine's own hashes and messages are each engine's own words; neither is compared" },
  ];
}
