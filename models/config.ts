// SPEC C1 and C5: the fields of tools.loopDetection, their defaults, and the three-valued switch.

export interface DetectorFlags {
  readonly genericRepeat: boolean;
  readonly knownPollNoProgress: boolean;
  readonly pingPong: boolean;
}

/** The effective config the engine runs with: every field present and already repaired (C3). */
export interface ResolvedConfig {
  /** undefined = unset: rolling detectors off, post-compaction guard on (C5). */
  readonly enabled: boolean | undefined;
  readonly historySize: number;
  readonly warningThreshold: number;
  readonly criticalThreshold: number;
  readonly unknownToolThreshold: number;
  readonly globalCircuitBreakerThreshold: number;
  readonly detectors: DetectorFlags;
  readonly postCompactionGuard: { readonly windowSize: number };
}

export const DEFAULT_CONFIG: ResolvedConfig = {
  enabled: undefined,
  historySize: 30,
  warningThreshold: 10,
  criticalThreshold: 20,
  unknownToolThreshold: 10,
  globalCircuitBreakerThreshold: 30,
  detectors: { genericRepeat: true, knownPollNoProgress: true, pingPong: true },
  postCompactionGuard: { windowSize: 3 },
};

export const NUMBER_FIELDS = [
  "historySize",
  "warningThreshold",
  "criticalThreshold",
  "unknownToolThreshold",
  "globalCircuitBreakerThreshold",
] as const;
export type NumberField = (typeof NUMBER_FIELDS)[number];

export const DETECTOR_FIELDS = ["genericRepeat", "knownPollNoProgress", "pingPong"] as const;
export type DetectorField = (typeof DETECTOR_FIELDS)[number];

export const TOP_LEVEL_FIELDS = ["enabled", ...NUMBER_FIELDS, "detectors", "postCompactionGuard"] as const;
export const GUARD_FIELDS = ["windowSize"] as const;

/** C5: what each value of `enabled` switches on. */
export interface EnabledMode {
  readonly rollingDetectors: boolean;
  readonly guard: boolean;
  readonly recordCalls: boolean;
}

export function enabledMode(enabled: boolean | undefined): EnabledMode {
  if (enabled === true) return { rollingDetectors: true, guard: true, recordCalls: true };
  if (enabled === false) return { rollingDetectors: false, guard: false, recordCalls: false };
  return { rollingDetectors: false, guard: true, recordCalls: true };
}

export function isPositiveInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value > 0;
}
