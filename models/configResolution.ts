// SPEC C3 and C4: the effective config of an agent. The agent's block is laid over the global one
// key by key (detectors and postCompactionGuard too), then every value that is unusable falls back
// to its default and the ordering is repaired. Every repair is reported, so nothing changes silently.
import {
  DEFAULT_CONFIG,
  DETECTOR_FIELDS,
  NUMBER_FIELDS,
  isPositiveInteger,
  type DetectorFlags,
  type ResolvedConfig,
} from "./config.js";
import { describeValue } from "./configValidation.js";
import { isPlainObject } from "./outcomeHash.js";

export interface Repair {
  readonly field: string;
  readonly from: string;
  readonly to: string;
  readonly reason: string;
}

export interface Resolution {
  readonly config: ResolvedConfig;
  readonly repairs: readonly Repair[];
  /** Where each top-level value came from: "default", "global" or "agent". */
  readonly sources: Readonly<Record<string, "default" | "global" | "agent">>;
}

type Block = Record<string, unknown>;

function asBlock(value: unknown): Block {
  return isPlainObject(value) ? value : {};
}

/** C4: merge key by key, nested blocks too. */
export function mergeBlocks(global: unknown, agent: unknown): Block {
  const base = asBlock(global);
  const over = asBlock(agent);
  const merged: Block = { ...base, ...over };
  for (const nested of ["detectors", "postCompactionGuard"]) {
    if (isPlainObject(base[nested]) || isPlainObject(over[nested])) {
      merged[nested] = { ...asBlock(base[nested]), ...asBlock(over[nested]) };
    }
  }
  return merged;
}

export function resolveBlock(block: unknown): Omit<Resolution, "sources"> {
  const raw = asBlock(block);
  const repairs: Repair[] = [];
  const numbers = {} as Record<(typeof NUMBER_FIELDS)[number], number>;
  for (const field of NUMBER_FIELDS) {
    const value = raw[field];
    if (value === undefined || isPositiveInteger(value)) numbers[field] = value ?? DEFAULT_CONFIG[field];
    else {
      numbers[field] = DEFAULT_CONFIG[field];
      repairs.push({ field, from: describeValue(value), to: String(DEFAULT_CONFIG[field]), reason: "not a positive integer; default used" });
    }
  }
  if (numbers.criticalThreshold <= numbers.warningThreshold) {
    const to = numbers.warningThreshold + 1;
    repairs.push({ field: "criticalThreshold", from: String(numbers.criticalThreshold), to: String(to), reason: `must exceed warningThreshold (${numbers.warningThreshold}); set to warningThreshold + 1` });
    numbers.criticalThreshold = to;
  }
  if (numbers.globalCircuitBreakerThreshold <= numbers.criticalThreshold) {
    const to = numbers.criticalThreshold + 1;
    repairs.push({ field: "globalCircuitBreakerThreshold", from: String(numbers.globalCircuitBreakerThreshold), to: String(to), reason: `must exceed criticalThreshold (${numbers.criticalThreshold}); set to criticalThreshold + 1` });
    numbers.globalCircuitBreakerThreshold = to;
  }
  let enabled: boolean | undefined = undefined;
  if (typeof raw.enabled === "boolean") enabled = raw.enabled;
  else if (raw.enabled !== undefined) {
    repairs.push({ field: "enabled", from: describeValue(raw.enabled), to: "unset", reason: "not a boolean; treated as unset" });
  }
  const rawDetectors = asBlock(raw.detectors);
  const detectors = {} as Record<(typeof DETECTOR_FIELDS)[number], boolean>;
  for (const field of DETECTOR_FIELDS) {
    const value = rawDetectors[field];
    if (value === undefined || typeof value === "boolean") detectors[field] = value ?? DEFAULT_CONFIG.detectors[field];
    else {
      detectors[field] = DEFAULT_CONFIG.detectors[field];
      repairs.push({ field: `detectors.${field}`, from: describeValue(value), to: String(detectors[field]), reason: "not a boolean; default used" });
    }
  }
  const windowValue = asBlock(raw.postCompactionGuard).windowSize;
  let windowSize = DEFAULT_CONFIG.postCompactionGuard.windowSize;
  if (isPositiveInteger(windowValue)) windowSize = windowValue;
  else if (windowValue !== undefined) {
    repairs.push({ field: "postCompactionGuard.windowSize", from: describeValue(windowValue), to: String(windowSize), reason: "not a positive integer; default used" });
  }
  const config: ResolvedConfig = {
    enabled,
    ...numbers,
    detectors: detectors as DetectorFlags,
    postCompactionGuard: { windowSize },
  };
  return { config, repairs };
}

export interface OpenClawConfigLike {
  readonly tools?: { readonly loopDetection?: unknown };
  readonly agents?: { readonly list?: readonly unknown[] };
}

export function findAgentBlock(root: unknown, agentId: string): { found: boolean; block: unknown } {
  const agents = isPlainObject(root) && isPlainObject(root.agents) ? root.agents.list : undefined;
  if (!Array.isArray(agents)) return { found: false, block: undefined };
  for (const entry of agents) {
    if (isPlainObject(entry) && entry.id === agentId) {
      const tools = isPlainObject(entry.tools) ? entry.tools : {};
      return { found: true, block: tools.loopDetection };
    }
  }
  return { found: false, block: undefined };
}

export function listAgentIds(root: unknown): string[] {
  const agents = isPlainObject(root) && isPlainObject(root.agents) ? root.agents.list : undefined;
  if (!Array.isArray(agents)) return [];
  return agents.flatMap((entry: unknown) => (isPlainObject(entry) && typeof entry.id === "string" ? [entry.id] : []));
}

/** The effective config of agent `agentId` (or of the global block when no agent is named). */
export function resolveEffectiveConfig(root: unknown, agentId?: string): Resolution {
  const globalBlock = isPlainObject(root) && isPlainObject(root.tools) ? root.tools.loopDetection : undefined;
  const agentBlock = agentId === undefined ? undefined : findAgentBlock(root, agentId).block;
  const merged = mergeBlocks(globalBlock, agentBlock);
  const { config, repairs } = resolveBlock(merged);
  const sources: Record<string, "default" | "global" | "agent"> = {};
  const g = asBlock(globalBlock);
  const a = asBlock(agentBlock);
  const sourceOf = (get: (b: Block) => unknown): "default" | "global" | "agent" =>
    get(a) !== undefined ? "agent" : get(g) !== undefined ? "global" : "default";
  for (const field of ["enabled", ...NUMBER_FIELDS]) sources[field] = sourceOf((b) => b[field]);
  for (const field of DETECTOR_FIELDS) sources[`detectors.${field}`] = sourceOf((b) => asBlock(b.detectors)[field]);
  sources["postCompactionGuard.windowSize"] = sourceOf((b) => asBlock(b.postCompactionGuard).windowSize);
  return { config, repairs, sources };
}

/** A config built from a flat loopDetection block, for tests and the simulator. */
export function configFrom(block: unknown): ResolvedConfig {
  return resolveBlock(block).config;
}
