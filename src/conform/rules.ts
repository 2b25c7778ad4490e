// The rows of the conformance matrix: every rule of the behaviour contract, by ID. Sub-rules
// (H2.4, H2.7...) are reported under their rule.
export interface SpecRule {
  readonly id: string;
  readonly title: string;
}

/** The contract's rules, by id, as the rows of `conform`'s matrix. */
export const SPEC_RULES: readonly SpecRule[] = [
  { id: "C1", title: "config fields and defaults" },
  { id: "C2", title: "strict validation" },
  { id: "C3", title: "runtime repair of thresholds" },
  { id: "C4", title: "per-agent override" },
  { id: "C5", title: "enabled is three-valued" },
  { id: "E1", title: "event stream" },
  { id: "E2", title: "runId and tool-name normalisation" },
  { id: "E3", title: "a call gets its verdict before it is recorded" },
  { id: "E4", title: "a blocked call's outcome is the veto" },
  { id: "E5", title: "an abort ends its run" },
  { id: "H1", title: "args hash: stable, cycle-safe" },
  { id: "H2", title: "outcome hash rules (errors, vetoes, exec, poll, sends)" },
  { id: "H3", title: "unknown-tool name from errors" },
  { id: "R1", title: "one window, read per run" },
  { id: "R2", title: "calls recorded unless blocked" },
  { id: "R3", title: "outcomes fill pending records" },
  { id: "R4", title: "compaction leaves the history" },
  { id: "S1", title: "no-progress streak" },
  { id: "S2", title: "repeat count" },
  { id: "S3", title: "unknown-tool streak" },
  { id: "S4", title: "ping-pong count and evidence" },
  { id: "D1", title: "known poll calls" },
  { id: "D2", title: "detector order and thresholds" },
  { id: "D3", title: "warning keys and messages" },
  { id: "W1", title: "warnings emitted per warningThreshold bucket" },
  { id: "W2", title: "criticals never suppressed" },
  { id: "G1", title: "a compaction arms the guard" },
  { id: "G2", title: "the guard observes hashed outcomes" },
  { id: "G3", title: "abort on windowSize identical triples" },
  { id: "G4", title: "abort error and message" },
  { id: "G5", title: "the guard disarms after its window" },
  { id: "K1", title: "fresh send ids (#89090)" },
  { id: "K2", title: "heartbeat runs (#40144)" },
  { id: "K3", title: "breaker counts one tool+args (#64500)" },
  { id: "K4", title: "non-contiguous streak (#71671)" },
  { id: "K5", title: "warnings below 10 (K5)" },
  { id: "K6", title: "guard on when enabled is unset (#77474)" },
  { id: "K7", title: "fields honoured (K7)" },
];

const RULE_IDS = new Set(SPEC_RULES.map((r) => r.id));

/** The matrix rows a list of covers (SPEC IDs, sub-rules, issue numbers) falls under. */
export function rulesOf(covers: readonly string[]): string[] {
  const out = new Set<string>();
  for (const c of covers) {
    const id = c.split(".")[0] as string;
    if (RULE_IDS.has(id)) out.add(id);
  }
  return [...out].sort(ruleOrder);
}

export function ruleOrder(a: string, b: string): number {
  return SPEC_RULES.findIndex((r) => r.id === a) - SPEC_RULES.findIndex((r) => r.id === b);
}
