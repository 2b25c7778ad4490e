// The points where the bug zoo (models/bugZoo.ts) bends the engine. The reference uses
// REFERENCE_HOOKS; each variant overrides one or two of them, so the reference stays one code path.
import type { EnabledMode, ResolvedConfig } from "./config.js";
import type { GuardOptions } from "./guard.js";
import type { OutcomeHashOptions } from "./outcomeHash.js";
import type { HistoryIndex } from "./history/types.js";

export interface EngineHooks {
  readonly outcomeHash: OutcomeHashOptions;
  /** The run a record is filed and counted under (R1 scopes by runId). */
  readonly historyRun: (run: string) => string;
  /** W1's bucket size. */
  readonly warningBucketSize: (config: ResolvedConfig) => number;
  /** C5: whether compactions arm the guard. */
  readonly guardOn: (mode: EnabledMode) => boolean;
  readonly guard: GuardOptions;
  /** R4 says compaction never touches the history. */
  readonly compactionClearsHistory: boolean;
  /** Applied to the effective config before the engine starts. */
  readonly effectiveConfig: (config: ResolvedConfig) => ResolvedConfig;
  /** Replaces the history implementation (the bug zoo's contiguous streak). */
  readonly history?: (historySize: number) => HistoryIndex;
}

export const REFERENCE_HOOKS: EngineHooks = {
  outcomeHash: {},
  historyRun: (run) => run,
  warningBucketSize: (config) => config.warningThreshold,
  guardOn: (mode) => mode.guard,
  guard: {},
  compactionClearsHistory: false,
  effectiveConfig: (config) => config,
};
