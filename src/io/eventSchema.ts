// The boundary for trace events: one JSON object per line, checked strictly so a typo
// ("runid", "tol") fails loudly instead of silently changing what is counted.
import type { ToolEvent } from "../../models/events.js";
import { isPlainObject } from "../../models/outcomeHash.js";

const CALL_KEYS = ["type", "runId", "callId", "tool", "params", "step", "meta"];
const OUTCOME_KEYS = ["type", "runId", "callId", "tool", "params", "result", "error", "meta"];
const COMPACTION_KEYS = ["type", "runId", "meta"];
const TEXT_KEYS = ["type", "runId", "text", "chunk", "step", "meta"];

/**
 * How deep a value may nest. Hashing walks values recursively (so do shipped releases' detectors,
 * which overflow the stack near 3,000 levels); no real tool call nests anywhere near this.
 */
export const MAX_VALUE_DEPTH = 1000;

/** Whether a value nests deeper than `max` levels, found without recursion. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== "object") return false;
  if (shallowTree(value, Math.min(max, SHALLOW_DEPTH))) return false;
  // Depth-first, objects in the same order as a stack of every child would visit them (a primitive
  // is never pushed: it would only be popped and passed over), without an object per entry.
  const values: object[] = [value];
  const depths: number[] = [0];
  const seen = new Set<object>();
  while (values.length > 0) {
    const v = values.pop() as object;
    const depth = depths.pop() as number;
    if (seen.has(v)) continue;
    if (depth >= max) return true;
    seen.add(v);
    for (const child of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>)) {
      if (child === null || typeof child !== "object") continue;
      values.push(child as object);
      depths.push(depth + 1);
    }
  }
  return false;
}

/** How deep, and over how many objects, shallowTree looks before it leaves a value to the full walk. */
const SHALLOW_DEPTH = 32;
const SHALLOW_OBJECTS = 10_000;

/**
 * The value, read as a tree (a shared part once per place it sits), has fewer than `limit` levels
 * of objects, found within SHALLOW_OBJECTS objects: then no walk of it, with or without a set of
 * those seen, reaches an object `limit` deep, and nestsDeeperThan(value, max) is false for any max
 * of `limit` or more. Every call and outcome is checked (passedOn) and nearly all nest a few
 * levels: a recursive look without the set and the two stacks costs a fraction of the full walk,
 * which still decides the rest (deep, wide, shared many times, cyclic); held to it in
 * test/loopsFastPaths.test.ts.
 */
function shallowTree(value: object, limit: number): boolean {
  let budget = SHALLOW_OBJECTS;
  const within = (v: object, depth: number): boolean => {
    if (depth >= limit || --budget < 0) return false;
    for (const child of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>)) {
      if (child !== null && typeof child === "object" && !within(child as object, depth + 1)) return false;
    }
    return true;
  };
  return within(value, 0);
}

/** The problems of an event's values that nest too deep, by JSON path. */
export function depthProblems(value: Record<string, unknown>, at: string): string[] {
  return ["params", "result", "error"].filter((key) => key in value && nestsDeeperThan(value[key], MAX_VALUE_DEPTH)).map((key) => `${at}.${key}: nests deeper than ${MAX_VALUE_DEPTH} levels (refused: loopsim hashes values recursively)`);
}

export type EventCheck = { ok: true; event: ToolEvent } | { ok: false; problems: string[] };

/** Checks one decoded event; `at` prefixes each problem (a JSON path such as `events[3]`). */
export function checkEvent(value: unknown, at: string): EventCheck {
  if (!isPlainObject(value)) return { ok: false, problems: [`${at}: an event must be a JSON object`] };
  const problems: string[] = [];
  const type = value.type;
  const isText = type === "message" || type === "thought";
  const allowed = type === "call" ? CALL_KEYS : type === "outcome" ? OUTCOME_KEYS : type === "compaction" ? COMPACTION_KEYS : isText ? TEXT_KEYS : undefined;
  if (allowed === undefined) {
    const shown = type === undefined ? "missing" : JSON.stringify(type);
    return { ok: false, problems: [`${at}.type: unknown event type ${shown} (expected "call", "outcome", "compaction", "message" or "thought")`] };
  }
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) problems.push(`${at}.${key}: unknown key for a ${String(type)} event (allowed: ${allowed.join(", ")})`);
  }
  for (const key of ["runId", "callId", "step"]) {
    if (key in value && value[key] !== undefined && typeof value[key] !== "string") {
      problems.push(`${at}.${key}: must be a string (got ${JSON.stringify(value[key])})`);
    }
  }
  if (isText) {
    if (typeof value.text !== "string") problems.push(`${at}.text: must be a string (the model's text; got ${JSON.stringify(value.text) ?? "nothing"})`);
    if ("chunk" in value && value.chunk !== undefined && typeof value.chunk !== "boolean") problems.push(`${at}.chunk: must be true or false (got ${JSON.stringify(value.chunk)})`);
  } else if (type !== "compaction") {
    if (!("tool" in value)) problems.push(`${at}.tool: missing (every call and outcome names its tool)`);
    // An empty (or blank) name is a name a model can send: each runtime handles it as its code
    // does (Gemini CLI's turn makes it generic_tool), so the format carries it as it came.
    else if (typeof value.tool !== "string") problems.push(`${at}.tool: must be a string, empty allowed (got ${JSON.stringify(value.tool)})`);
  }
  // An outcome is a result or an error (SPEC E1), never both: which one counts would be a guess.
  // Params of any JSON type are fine (H1 hashes strings, numbers and null alike).
  if (type === "outcome" && value.result !== undefined && value.error !== undefined) {
    problems.push(`${at}: an outcome has a result or an error, not both`);
  }
  problems.push(...depthProblems(value, at));
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, event: value as unknown as ToolEvent };
}

/** Parses one JSONL line. `where` is `file:line`. */
export function parseEventLine(line: string, where: string): EventCheck {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { ok: false, problems: [`${where}: not valid JSON (${(error as Error).message})`] };
  }
  const checked = checkEvent(value, "event");
  if (checked.ok) return checked;
  return { ok: false, problems: checked.problems.map((p) => `${where}: ${p}`) };
}
