// Running a law on a target that ignores some config fields: the generated config blocks keep
// only the fields the target honours, so the law's expectations (computed from the block) are the
// ones the target can be held to. Fields it ignores sit at their defaults on both sides.
import type { ConfigField } from "../targets/target.js";

function pinBlock(block: Record<string, unknown>, honours: readonly ConfigField[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(block)) {
    if (key === "detectors" || key === "postCompactionGuard") {
      if (value === null || typeof value !== "object") continue;
      const inner: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) if (honours.includes(`${key}.${k}` as ConfigField)) inner[k] = v;
      out[key] = inner;
    } else if (honours.includes(key as ConfigField)) out[key] = value;
  }
  return out;
}

/** The value with every `block` property (a tools.loopDetection block) pinned. */
export function pinBlocks<T>(value: T, honours: readonly ConfigField[]): T {
  if (Array.isArray(value) || value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    if (key === "block" && inner !== null && typeof inner === "object" && !Array.isArray(inner)) out[key] = pinBlock(inner as Record<string, unknown>, honours);
    else if (key === "events" || key === "tail" || key === "before" || key === "fresh" || key === "unit") out[key] = inner;
    else out[key] = pinBlocks(inner, honours);
  }
  return out as T;
}
