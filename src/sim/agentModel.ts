// How a simulated model reacts to the guardrail. The seed page advises enabling detection for
// small models: they heed warnings less and keep retrying blocked calls more often.

export type ModelPreset = "small" | "flagship";
export const MODEL_PRESETS: readonly ModelPreset[] = ["small", "flagship"];

export interface ReactionModel {
  /** Chance of changing approach when an emitted warning reaches the agent. */
  readonly heedWarning: number;
  /** Chance of changing approach after a blocked call (else it retries the same call). */
  readonly changeAfterBlock: number;
  /** Context window in tokens; passing it triggers a compaction-retry. */
  readonly contextWindow: number;
  /** What the context shrinks to after compaction (the summary). */
  readonly summaryTokens: number;
}

export const REACTION_MODELS: Readonly<Record<ModelPreset, ReactionModel>> = {
  small: { heedWarning: 0.15, changeAfterBlock: 0.5, contextWindow: 16_000, summaryTokens: 1_500 },
  flagship: { heedWarning: 0.7, changeAfterBlock: 0.9, contextWindow: 64_000, summaryTokens: 3_000 },
};

export function isModelPreset(value: string): value is ModelPreset {
  return (MODEL_PRESETS as readonly string[]).includes(value);
}
