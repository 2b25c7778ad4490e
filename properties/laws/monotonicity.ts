// Monotonicity (SPEC D2, C1): raising criticalThreshold never adds a block; raising
// warningThreshold never adds a warning; disabling one detector never adds a block.
import fc from "fast-check";
import { runTarget, type Need, type Target } from "../../src/targets/target.js";
import { configFrom } from "../../models/configResolution.js";
import type { ResolvedConfig } from "../../models/config.js";
import { knownAnomaly } from "./anomalies.js";
import { broken, type Law } from "./law.js";
import type { Coverage } from "./coverage.js";
import { warningMasksBlock, configuredTrace, describeVerdict, draft, tagOutputs, blockStatusDivergesBefore, verdictsByIndex, type ConfiguredTrace } from "./common.js";

interface Bumped {
  readonly value: ConfiguredTrace;
  readonly by: number;
  readonly detector: "genericRepeat" | "knownPollNoProgress" | "pingPong";
}

const bumped = fc.record({
  value: configuredTrace({ enabled: [true], repairs: false }),
  by: fc.integer({ min: 1, max: 6 }),
  detector: fc.constantFrom("genericRepeat" as const, "knownPollNoProgress" as const, "pingPong" as const),
});

/** The trace's call verdicts under both configs, by input index. */
function runBoth(subject: Target, value: ConfiguredTrace, base: ResolvedConfig, changed: ResolvedConfig, coverage: Coverage) {
  const a = runTarget(subject, base, value.events);
  tagOutputs(coverage, a);
  return { before: verdictsByIndex(a), after: verdictsByIndex(runTarget(subject, changed, value.events)) };
}

/** A block under `changed` that `base` did not have, unless anomaly A1 explains it. */
function noAddedBlocks(
  subject: Target,
  value: ConfiguredTrace,
  base: ResolvedConfig,
  changed: ResolvedConfig,
  coverage: Coverage,
  what: string,
  disabled?: string,
): void {
  const { before, after } = runBoth(subject, value, base, changed, coverage);
  for (const [index, v] of after) {
    const was = before.get(index);
    if (was === undefined || v.verdict !== "critical" || was.verdict === "critical") continue;
    if (blockStatusDivergesBefore(index, before, after) !== undefined && knownAnomaly("A1", coverage, "unrecorded-block")) {
      return;
    }
    // Known anomaly A5 (README): first match wins, so a warning from an earlier D2 row hides a
    // block of a later row; switching the warning's detector off uncovers the block.
    if (disabled !== undefined && was.verdict === "warning" && was.detector === disabled && warningMasksBlock(was, v) && knownAnomaly("A5", coverage, "warning-masks-block")) {
      return;
    }
    broken(`${what} added a block at call ${index}: ${describeVerdict(v)}, was ${describeVerdict(was)}`);
  }
  if ([...before.values()].some((v) => v.verdict === "critical")) coverage.hit("had-blocks");
}

/** A law that a config change never adds a block; `change` says what is changed. */
function neverAddsBlocks(name: string, spec: readonly string[], needs: readonly Need[], change: (c: Bumped, base: ResolvedConfig) => { config: ResolvedConfig; what: string; disabled?: string }): Law<Bumped> {
  return {
    name,
    spec,
    needs,
    arbitrary: bumped,
    runs: 200,
    required: ["had-blocks"],
    check(c, subject, coverage) {
      const base = configFrom(c.value.block);
      const changed = change(c, base);
      noAddedBlocks(subject, c.value, base, changed.config, coverage, changed.what, changed.disabled);
    },
    scenario: ({ value }) => draft(value, ["D2"], `Counterexample: ${name.replace(/-/g, " ")}.`),
  };
}

export const raisingCriticalNeverAddsBlocks = neverAddsBlocks("raising-critical-never-adds-blocks", ["D2", "C3"], ["rollingDetectors", "honours:criticalThreshold"], ({ value, by }, base) => ({
  config: configFrom({ ...value.block, criticalThreshold: base.criticalThreshold + by }),
  what: `raising criticalThreshold by ${by}`,
}));

const DETECTOR_NAMES = { genericRepeat: "generic_repeat", knownPollNoProgress: "known_poll_no_progress", pingPong: "ping_pong" } as const;

export const disablingDetectorNeverAddsBlocks = neverAddsBlocks("disabling-a-detector-never-adds-blocks", ["D2", "C1"], ["rollingDetectors", "honours:detectors.genericRepeat", "honours:detectors.knownPollNoProgress", "honours:detectors.pingPong"], ({ value, detector }) => ({
  config: configFrom({ ...value.block, detectors: { ...(value.block.detectors as Record<string, boolean>), [detector]: false } }),
  what: `disabling ${detector}`,
  disabled: DETECTOR_NAMES[detector],
}));

export const raisingWarningNeverAddsWarnings: Law<Bumped> = {
  name: "raising-warning-never-adds-warnings",
  spec: ["D2", "W1"],
  needs: ["rollingDetectors", "warningLevel", "honours:warningThreshold"],
  arbitrary: bumped,
  runs: 200,
  required: ["had-warnings"],
  check({ value, by }, subject, coverage) {
    const base = configFrom(value.block);
    // Stay below critical so no repair (C3) moves the other thresholds.
    const raised = Math.min(base.warningThreshold + by, base.criticalThreshold - 1);
    const changed = configFrom({ ...value.block, warningThreshold: raised });
    const { before, after } = runBoth(subject, value, base, changed, coverage);
    for (const [index, v] of after) {
      const was = before.get(index);
      if (v.verdict === "critical" && was?.verdict === "warning") coverage.hit("raised-warning-unmasked-a-block");
      if (v.verdict === "warning" && was !== undefined && was.verdict === "allow") {
        if (blockStatusDivergesBefore(index, before, after) !== undefined && knownAnomaly("A1", coverage, "unrecorded-block")) {
          return;
        }
        broken(`raising warningThreshold ${base.warningThreshold} -> ${raised} added a warning at call ${index}: ${describeVerdict(v)}`);
      }
    }
    // Emitted warnings are not compared: W1 emission depends on which detector answered each
    // earlier call, so raising the threshold can move and even add emissions (anomaly A7).
    if ([...before.values()].some((v) => v.verdict === "warning")) coverage.hit("had-warnings");
  },
  scenario: ({ value }) => draft(value, ["D2", "W1"], "Counterexample: raising warningThreshold added a warning."),
};
