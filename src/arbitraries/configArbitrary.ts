// Random configs: small thresholds so short traces reach them, both valid blocks and blocks that
// need runtime repair (C3). The block is what a user would write; resolve it with configFrom.
import fc from "fast-check";

export interface ConfigArbitraryOptions {
  /** Restrict `enabled`; default mostly true, sometimes unset or false. */
  readonly enabled?: readonly (boolean | undefined)[];
  readonly repairs?: boolean;
}

export type LoopDetectionBlock = Record<string, unknown>;

/**
 * A fast-check arbitrary of `tools.loopDetection` blocks with small thresholds (so short traces
 * reach them): valid blocks and, with `repairs`, blocks the runtime must repair (C3).
 *
 * @param options - which values of `enabled` to use, and whether to generate blocks to repair.
 */
export function configBlockArbitrary(options: ConfigArbitraryOptions = {}): fc.Arbitrary<LoopDetectionBlock> {
  const enabled = options.enabled ?? [true, true, true, true, undefined, false];
  return fc
    .record({
      enabled: fc.constantFrom(...enabled),
      historySize: fc.integer({ min: 4, max: 80 }),
      warningThreshold: fc.integer({ min: 2, max: 10 }),
      criticalDelta: fc.integer({ min: 1, max: 10 }),
      globalDelta: fc.integer({ min: 1, max: 12 }),
      unknownToolThreshold: fc.integer({ min: 2, max: 10 }),
      windowSize: fc.integer({ min: 1, max: 5 }),
      genericRepeat: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
      knownPollNoProgress: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
      pingPong: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
      repair: options.repairs === false ? fc.constant(0) : fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 4 }) }),
    })
    .map((r) => {
      const block: LoopDetectionBlock = {
        historySize: r.historySize,
        warningThreshold: r.warningThreshold,
        criticalThreshold: r.warningThreshold + r.criticalDelta,
        unknownToolThreshold: r.unknownToolThreshold,
        globalCircuitBreakerThreshold: r.warningThreshold + r.criticalDelta + r.globalDelta,
        detectors: { genericRepeat: r.genericRepeat, knownPollNoProgress: r.knownPollNoProgress, pingPong: r.pingPong },
        postCompactionGuard: { windowSize: r.windowSize },
      };
      if (r.enabled !== undefined) block.enabled = r.enabled;
      // Blocks that bypass validation and need C3's repair.
      if (r.repair === 1) block.criticalThreshold = r.warningThreshold;
      if (r.repair === 2) block.globalCircuitBreakerThreshold = 1;
      if (r.repair === 3) block.historySize = 0;
      if (r.repair === 4) block.warningThreshold = "3";
      return block;
    });
}
