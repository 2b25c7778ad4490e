// Scenario files are JSON, and JSON has no cycles. A cyclic value is written with a marker
// {"$cycle": n} that points n ancestors up, and revived into the same shape on load, so a shrunk
// counterexample with cyclic params still replays exactly.
import { isPlainObject } from "../../models/outcomeHash.js";

export function encodeCycles(value: unknown, ancestors: object[] = []): unknown {
  if (typeof value !== "object" || value === null) return value;
  const at = ancestors.lastIndexOf(value);
  if (at !== -1) return { $cycle: ancestors.length - at };
  ancestors.push(value);
  let out: unknown;
  if (Array.isArray(value)) out = value.map((item) => encodeCycles(item, ancestors));
  else {
    const record: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) record[key] = encodeCycles(item, ancestors);
    out = record;
  }
  ancestors.pop();
  return out;
}

export function reviveCycles(value: unknown, ancestors: unknown[] = []): unknown {
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    ancestors.push(out);
    for (const item of value) out.push(reviveCycles(item, ancestors));
    ancestors.pop();
    return out;
  }
  if (!isPlainObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === "$cycle" && typeof value.$cycle === "number") {
    const target = ancestors[ancestors.length - value.$cycle];
    return target ?? value;
  }
  const out: Record<string, unknown> = {};
  ancestors.push(out);
  for (const key of keys) out[key] = reviveCycles(value[key], ancestors);
  ancestors.pop();
  return out;
}
