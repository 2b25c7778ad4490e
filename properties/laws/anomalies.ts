// Known anomalies: places where SPEC.md itself breaks an invariant (README "Known anomalies").
// A law that meets one asserts it narrowly through this function, which records it in the law's
// coverage. LOOPSIM_STRICT=A1,A5 (or "all") turns the exceptions off, so fast-check finds and
// shrinks the minimal counterexample of each anomaly again.
import type { Coverage } from "./coverage.js";

export const KNOWN_ANOMALIES = {
  A1: "a blocked call is not recorded, so a call blocked under one config but run under another changes every later count",
  A2: "ping-pong's count includes the current call, so it blocks on criticalThreshold - 1 identical outcomes",
  A3: "unknown_tool_repeat has no warning level: its first verdict is a block",
  A4: "the global breaker has no warning level: with the pattern's own detector off, its block comes unwarned",
  A5: "first match wins, so a warning from an earlier D2 row hides a block of a later row",
  A6: "ping-pong's first count is 3, so with criticalThreshold <= 3 it blocks without a warning",
  A7: "W1 emission depends on which detector answered earlier calls, so emitted counts are not monotone",
  A8: "ping-pong evidence is judged over the whole tail; evicting its older, varied records can turn a warning into a block",
} as const;

export type AnomalyId = keyof typeof KNOWN_ANOMALIES;

const strict = new Set((process.env.LOOPSIM_STRICT ?? "").split(",").map((s) => s.trim()).filter((s) => s !== ""));

/** True when the documented exception applies (and is not switched off). */
export function knownAnomaly(id: AnomalyId, coverage: Coverage, tag: string): boolean {
  if (strict.has(id) || strict.has("all")) return false;
  coverage.hit(`anomaly:${id}-${tag}`);
  return true;
}
