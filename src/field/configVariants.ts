// Which configs a report is judged with. Threads often do not say whether loop detection was on,
// and OpenClaw's verdict turns on it (from 2026.8.1 the detector runs only when `enabled` is
// true), so every OpenClaw report is judged with the default config and with loop detection
// enabled, and with the scenario's own config where that is neither. The matrix says which of
// them the thread states; the others are assumed.
import { resolveEffectiveConfig } from "../../models/configResolution.js";
import { stableSerialize } from "../../models/stableSerialize.js";
import type { FieldScenario } from "./fieldScenario.js";

export type ConfigVariantName = "default" | "enabled" | "scenario";

export interface ConfigVariant {
  readonly name: ConfigVariantName;
  readonly config: unknown;
  /** In words: which config, and whether the thread states it. */
  readonly label: string;
  /** This is the config the thread states. */
  readonly stated: boolean;
  /** This is the config the scenario file gives (stated or assumed): the row its headline counts. */
  readonly primary: boolean;
}

export const DEFAULT_CONFIG: unknown = {};
export const ENABLED_CONFIG: unknown = { tools: { loopDetection: { enabled: true } } };

/** Two configs are the same when they resolve to the same effective config. */
function sameConfig(a: unknown, b: unknown): boolean {
  return stableSerialize(resolveEffectiveConfig(a ?? {}).config) === stableSerialize(resolveEffectiveConfig(b ?? {}).config);
}

/** The loopDetection block of a config, compactly, for a label. */
export function configSummary(config: unknown): string {
  const block = (config as { tools?: { loopDetection?: unknown } } | null)?.tools?.loopDetection;
  return block === undefined ? "{}" : stableSerialize(block);
}

/** The configs a scenario is judged with, in row order (default, enabled, then the scenario's own). */
export function configVariants(s: Pick<FieldScenario, "runtime" | "config" | "configStated">): ConfigVariant[] {
  const stated = s.configStated !== undefined;
  if (s.runtime !== "openclaw") return [{ name: "scenario", config: s.config ?? {}, label: stated ? "the thread's config" : "the scenario's config", stated, primary: true }];
  const isDefault = sameConfig(s.config, DEFAULT_CONFIG);
  const isEnabled = sameConfig(s.config, ENABLED_CONFIG);
  const whose = (mine: boolean) => (!mine ? "" : stated ? " (the thread's)" : " (assumed by the scenario)");
  const variants: ConfigVariant[] = [
    { name: "default", config: DEFAULT_CONFIG, label: `default config (loop detection not enabled)${whose(isDefault)}`, stated: stated && isDefault, primary: isDefault },
    { name: "enabled", config: ENABLED_CONFIG, label: `loop detection enabled, default thresholds${whose(isEnabled)}`, stated: stated && isEnabled, primary: isEnabled },
  ];
  if (!isDefault && !isEnabled) variants.push({ name: "scenario", config: s.config, label: `${stated ? "the thread's config" : "the config the scenario assumes"}: loopDetection ${configSummary(s.config)}`, stated, primary: true });
  return variants;
}

/** A row's key in the matrix: the scenario id, with the config when a report has several. */
export function rowKey(id: string, variant: ConfigVariantName, variants: number): string {
  return variants === 1 ? id : `${id}:${variant}`;
}
