// The bug zoo: known buggy behaviours as switchable variants of the reference, kept apart from
// it. Each bends one or two engine hooks; the reference itself never reads this file. The test
// test/bugZoo.test.ts checks that the property suite or the scenario corpus catches every one.
import { DEFAULT_CONFIG } from "./config.js";
import { REFERENCE_HOOKS, type EngineHooks } from "./engineHooks.js";
import { ScanningHistory } from "./history/scanning.js";
import { NO_RUN } from "./normalize.js";

export interface BugVariant {
  readonly name: string;
  readonly summary: string;
  /** SPEC IDs and upstream issues it breaks. */
  readonly breaks: readonly string[];
  readonly hooks: EngineHooks;
}

const variant = (name: string, summary: string, breaks: string[], hooks: Partial<EngineHooks>): BugVariant => ({
  name,
  summary,
  breaks,
  hooks: { ...REFERENCE_HOOKS, ...hooks },
});

export const BUG_VARIANTS: readonly BugVariant[] = [
  variant("send-ids-kept", "volatile send ids are not stripped: every send looks like progress", ["H2.7", "K1", "#89090"], { outcomeHash: { keepSendIds: true } }),
  variant("no-run-scoping", "every run shares one history, so heartbeat runs inherit counts", ["R1", "K2", "#40144"], { historyRun: () => NO_RUN }),
  variant("warning-buckets-of-10", "warning buckets fixed at 10 hide warnings when warningThreshold < 10", ["W1", "K5"], { warningBucketSize: () => 10 }),
  variant("veto-as-progress", "a loop veto is hashed and recorded like any result, so a block is not sticky", ["H2.4", "E4"], { outcomeHash: { hashLoopVetoes: true } }),
  variant("guard-ignores-enabled-false", "the guard is armed even when enabled is false", ["C5", "G1"], { guardOn: () => true }),
  variant("guard-never-disarms", "the guard keeps counting after its window", ["G5"], { guard: { neverDisarm: true } }),
  variant("compaction-clears-history", "a compaction empties the rolling history", ["R4"], { compactionClearsHistory: true }),
  variant("unset-disables-guard", "enabled unset turns the guard off too", ["C5", "K6", "#77474"], { guardOn: (mode) => mode.rollingDetectors }),
  variant("thresholds-ignored", "every field but enabled is ignored (later OpenClaw releases)", ["C1", "K7"], {
    effectiveConfig: (config) => ({ ...DEFAULT_CONFIG, enabled: config.enabled }),
  }),
  variant("contiguous-streak", "the no-progress streak resets when another call interleaves", ["S1", "K4", "#71671"], {
    history: (size) => new ScanningHistory(size, { contiguousStreak: true }),
  }),
];

export function findVariant(name: string): BugVariant | undefined {
  return BUG_VARIANTS.find((v) => v.name === name);
}
