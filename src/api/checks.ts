// The library's door: every exported function reads its arguments here, as the CLI reads its
// flags, and a wrong one is a UserError (exitCode 2) that names the function and the argument,
// never a TypeError from deep inside. Checks collect every problem of one argument before failing.
import { DETECTOR_FIELDS, GUARD_FIELDS, NUMBER_FIELDS, TOP_LEVEL_FIELDS } from "../../models/config.js";
import type { ResolvedConfig } from "../../models/config.js";
import { describeValue } from "../../models/configValidation.js";
import type { ToolEvent } from "../../models/events.js";
import { isPlainObject } from "../../models/outcomeHash.js";
import { UserError } from "../io/errors.js";
import { checkEvent } from "../io/eventSchema.js";
import { checkTargetShape } from "../targets/registry.js";
import type { Target } from "../targets/target.js";

/** At most this many problems in one message: the rest are counted. */
const SHOWN = 5;

function fail(where: string, problems: readonly string[]): never {
  const shown = problems.slice(0, SHOWN).join("; ");
  throw new UserError(`${where}: ${shown}${problems.length > SHOWN ? `; and ${problems.length - SHOWN} more` : ""}`);
}

/** A target as `loadTarget` or `asTarget` gives it (an adapter object is completed as asTarget does). */
export function checkedTarget(value: unknown, where: string): Target {
  const problems = checkTargetShape(value as Partial<Target> | undefined);
  if (problems.length > 0) fail(`${where} is not a loopsim target (load one with loadTarget, or check an adapter object with asTarget)`, problems);
  const t = value as Target;
  if (t.summary !== undefined && t.notes !== undefined && t.breaks !== undefined) return t;
  return { ...t, summary: t.summary ?? `adapter ${t.name}`, notes: t.notes ?? [], breaks: t.breaks ?? [] };
}

/** Events in loopsim's trace format, each checked as a trace file's line is. */
export function checkedEvents(value: unknown, fn: string, arg: string): ToolEvent[] {
  if (value === null || value === undefined || typeof value === "string" || typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] !== "function") {
    throw new UserError(`${fn}: ${arg} must be an array (or iterable) of events (got ${describeValue(value)})`);
  }
  const events: ToolEvent[] = [];
  const problems: string[] = [];
  let i = 0;
  for (const item of value as Iterable<unknown>) {
    const checked = checkEvent(item, `${arg}[${i++}]`);
    if (checked.ok) events.push(checked.event);
    else problems.push(...checked.problems);
  }
  if (problems.length > 0) fail(fn, problems);
  return events;
}

/** A resolved config (what resolveConfig returns): an object with the numbers the engine reads. */
export function checkedResolvedConfig(value: unknown, where: string): ResolvedConfig {
  const ok = isPlainObject(value) && NUMBER_FIELDS.every((f) => typeof value[f] === "number") && isPlainObject(value.detectors) && isPlainObject(value.postCompactionGuard);
  if (!ok) throw new UserError(`${where} must be a resolved config, as resolveConfig(block) returns it (got ${describeValue(value)})`);
  return value as unknown as ResolvedConfig;
}

/**
 * A `tools.loopDetection` block's TYPES: a number where a count goes, a boolean for `enabled` and
 * each detector, objects where objects go. Out-of-range numbers (0, 2.5, a warning above the
 * critical) are not checked here: repairing them is the behaviour contract (resolveConfig does).
 */
export function loopDetectionTypeProblems(block: unknown, path: string): string[] {
  if (!isPlainObject(block)) return [`${path} must be an object (got ${describeValue(block)})`];
  const problems: string[] = [];
  const type = (at: string, value: unknown, expected: "number" | "boolean") => {
    if (value !== undefined && typeof value !== expected) problems.push(`${at} must be a ${expected} (got ${describeValue(value)})`);
  };
  for (const key of Object.keys(block)) if (!(TOP_LEVEL_FIELDS as readonly string[]).includes(key)) problems.push(`${path}.${key}: unknown key (allowed: ${TOP_LEVEL_FIELDS.join(", ")})`);
  type(`${path}.enabled`, block.enabled, "boolean");
  for (const field of NUMBER_FIELDS) type(`${path}.${field}`, block[field], "number");
  for (const [name, fields, expected] of [["detectors", DETECTOR_FIELDS, "boolean"], ["postCompactionGuard", GUARD_FIELDS, "number"]] as const) {
    const inner = block[name];
    if (inner === undefined) continue;
    if (!isPlainObject(inner)) {
      problems.push(`${path}.${name} must be an object (got ${describeValue(inner)})`);
      continue;
    }
    for (const key of Object.keys(inner)) if (!(fields as readonly string[]).includes(key)) problems.push(`${path}.${name}.${key}: unknown key (allowed: ${fields.join(", ")})`);
    for (const field of fields) type(`${path}.${name}.${field}`, inner[field], expected);
  }
  return problems;
}

/** Throws the problems of a loopDetection block's types, naming the function. */
export function checkLoopDetectionTypes(block: unknown, fn: string, arg: string): void {
  const problems = loopDetectionTypeProblems(block, arg);
  if (problems.length > 0) fail(fn, problems);
}
