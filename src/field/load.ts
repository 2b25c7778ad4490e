// Reading a field scenario at the boundary: every problem names the file, the JSON path and the
// rule broken; nothing half-checked reaches a target.
import JSON5 from "json5";
import { validateOpenClawConfig, formatIssue } from "../../models/configValidation.js";
import { isPlainObject } from "../../models/outcomeHash.js";
import { checkEvent, MAX_VALUE_DEPTH, nestsDeeperThan } from "../io/eventSchema.js";
import { readTextFile } from "../io/textFile.js";
import { expandTrace, type ExpandedTrace } from "./expand.js";
import { FIELD_KINDS, FIELD_NEEDS, FIELD_SCHEMA, type FieldScenario } from "./fieldScenario.js";

export interface LoadedField {
  readonly file: string;
  readonly scenario: FieldScenario;
  readonly trace: ExpandedTrace;
}

export type FieldLoad = { ok: true; loaded: LoadedField } | { ok: false; problems: string[] };

/** More calls than any thread describes; a typo in a repeat (100000) is refused, not run. */
export const MAX_FIELD_CALLS = 2000;

const TOP_KEYS = ["schema", "id", "title", "url", "runtime", "reportedVersion", "reportedAs", "fixedIn", "fixedAs", "kind", "reported", "config", "configStated", "reportedProduct", "ruleFrom", "trace", "expected", "needs", "adjusted", "confidence"];
const CALL_KEYS = ["tool", "args", "result", "error", "outcome", "repeat"];
const EXPECTED_KEYS = ["text", "stopsBy", "runsNothingAfter", "endsRunBy", "neverStops", "neverFlags", "tellsModelBy"];
const CALL_NUMBER_KEYS = ["stopsBy", "runsNothingAfter", "endsRunBy", "tellsModelBy"];

export function loadFieldScenario(file: string): FieldLoad {
  let text: string;
  try {
    text = readTextFile(file, "field scenario");
  } catch (error) {
    return { ok: false, problems: [(error as Error).message] };
  }
  let raw: unknown;
  try {
    raw = JSON5.parse(text);
  } catch (error) {
    const e = error as Error & { lineNumber?: number; columnNumber?: number };
    const place = e.lineNumber === undefined ? "" : `:${e.lineNumber}:${e.columnNumber ?? 0}`;
    return { ok: false, problems: [`${file}${place}: not valid JSON (${e.message.replace(/^JSON5: /, "")})`] };
  }
  const problems: string[] = [];
  const at = (path: string, rule: string) => problems.push(`${file}: ${path}: ${rule}`);
  if (!isPlainObject(raw)) return { ok: false, problems: [`${file}: (root): a field scenario must be a JSON object`] };
  for (const key of Object.keys(raw)) if (!TOP_KEYS.includes(key)) at(key, `unknown key (allowed: ${TOP_KEYS.join(", ")})`);
  if (raw.schema !== FIELD_SCHEMA) at("schema", `must be "${FIELD_SCHEMA}" (got ${JSON.stringify(raw.schema)})`);
  for (const key of ["id", "title", "url", "runtime", "reportedAs", "reported", "confidence"]) {
    if (typeof raw[key] !== "string" || (raw[key] as string).trim() === "") at(key, "must be a non-empty string");
  }
  if (typeof raw.id === "string" && !/^[a-z0-9][a-z0-9.-]*$/.test(raw.id)) at("id", "must be lower-case letters, digits, dots and dashes (it names the file)");
  if (typeof raw.url === "string" && !/^https:\/\/\S+$/.test(raw.url)) at("url", "must be the thread's https address");
  for (const key of ["reportedVersion", "fixedIn"]) {
    const v = raw[key];
    if (v !== null && (typeof v !== "string" || !/^\d+\.\d+\.\d+(-[0-9A-Za-z.]+)?$/.test(v))) at(key, `must be a version such as 2026.5.12 or 0.44.1, or null (got ${JSON.stringify(v)})`);
  }
  if (!(FIELD_KINDS as readonly unknown[]).includes(raw.kind)) at("kind", `must be one of ${FIELD_KINDS.join(", ")} (got ${JSON.stringify(raw.kind)})`);
  if (raw.fixedAs !== undefined && (typeof raw.fixedAs !== "string" || raw.fixedAs.trim() === "")) at("fixedAs", "must be a non-empty string when present");
  for (const key of ["adjusted", "configStated", "reportedProduct", "ruleFrom"]) {
    if (raw[key] !== undefined && (typeof raw[key] !== "string" || (raw[key] as string).trim() === "")) at(key, "must be a non-empty string when present");
  }
  for (const found of validateOpenClawConfig(raw.config ?? {})) at(`config.${found.path}`, formatIssue(found).slice(found.path.length + 2));
  if (raw.needs !== undefined && (!Array.isArray(raw.needs) || !raw.needs.every((n) => (FIELD_NEEDS as readonly unknown[]).includes(n)))) at("needs", `must be an array of ${FIELD_NEEDS.join(", ")}`);
  checkExpected(raw.expected, at);
  let trace: ExpandedTrace | undefined;
  const t = raw.trace;
  if (!isPlainObject(t)) at("trace", "must be {description, steps}");
  else {
    for (const key of Object.keys(t)) if (key !== "description" && key !== "steps") at(`trace.${key}`, "unknown key (allowed: description, steps)");
    if (typeof t.description !== "string" || t.description.trim() === "") at("trace.description", "must be a non-empty string");
    if (!Array.isArray(t.steps) || t.steps.length === 0) at("trace.steps", "must be a non-empty array of steps");
    else {
      const before = problems.length;
      const calls = checkSteps(t.steps, "trace.steps", at);
      if (calls > MAX_FIELD_CALLS) at("trace.steps", `expands to ${calls} calls, more than ${MAX_FIELD_CALLS}`);
      else if (calls === 0) at("trace.steps", "has no call");
      if (problems.length === before) {
        trace = expandTrace(t.steps as FieldScenario["trace"]["steps"]);
        trace.events.forEach((event, i) => {
          const checked = checkEvent(event, `trace (event ${i})`);
          if (!checked.ok) for (const p of checked.problems) problems.push(`${file}: ${p}`);
        });
        const e = raw.expected;
        if (isPlainObject(e)) {
          for (const key of CALL_NUMBER_KEYS) {
            if (typeof e[key] === "number" && (e[key] as number) > trace.calls.length) at(`expected.${key}`, `call ${String(e[key])} is past the trace's last call (${trace.calls.length})`);
          }
        }
      }
    }
  }
  if (problems.length > 0 || trace === undefined) return { ok: false, problems };
  return { ok: true, loaded: { file, scenario: raw as unknown as FieldScenario, trace } };
}

function checkExpected(e: unknown, at: (path: string, rule: string) => void): void {
  if (!isPlainObject(e)) {
    at("expected", "must be an object {text, stopsBy?, runsNothingAfter?, endsRunBy?, neverStops?, neverFlags?, tellsModelBy?}");
    return;
  }
  for (const key of Object.keys(e)) if (!EXPECTED_KEYS.includes(key)) at(`expected.${key}`, `unknown key (allowed: ${EXPECTED_KEYS.join(", ")})`);
  if (typeof e.text !== "string" || e.text.trim() === "") at("expected.text", "must say in words what a correct guard does");
  for (const key of CALL_NUMBER_KEYS) {
    if (e[key] !== undefined && (!Number.isInteger(e[key]) || (e[key] as number) < 1)) at(`expected.${key}`, `must be a call number (1 or more; got ${JSON.stringify(e[key])})`);
  }
  for (const key of ["neverStops", "neverFlags"]) if (e[key] !== undefined && e[key] !== true) at(`expected.${key}`, "must be true when present");
  if ((e.neverStops === true || e.neverFlags === true) && (e.stopsBy !== undefined || e.runsNothingAfter !== undefined || e.endsRunBy !== undefined)) at("expected", "neverStops and neverFlags contradict stopsBy, runsNothingAfter and endsRunBy");
  if (![...CALL_NUMBER_KEYS, "neverStops", "neverFlags"].some((k) => e[k] !== undefined)) at("expected", `needs at least one of ${CALL_NUMBER_KEYS.join(", ")}, neverStops, neverFlags (the machine-checked part)`);
}

/** Checks steps recursively; returns how many calls they expand to (0 when broken). */
function checkSteps(steps: readonly unknown[], path: string, at: (path: string, rule: string) => void): number {
  let calls = 0;
  steps.forEach((step, i) => {
    const here = `${path}[${i}]`;
    if (!isPlainObject(step)) {
      at(here, "must be an object: a call, {parallel}, {group}, {compaction: true} or {prompt: true}");
      return;
    }
    if ("compaction" in step || "prompt" in step) {
      const key = "compaction" in step ? "compaction" : "prompt";
      if (step[key] !== true || Object.keys(step).length !== 1) at(here, `{${key}: true} takes no other key`);
      return;
    }
    const repeat = step.repeat ?? 1;
    if (!Number.isInteger(repeat) || (repeat as number) < 1) at(`${here}.repeat`, `must be a whole number of 1 or more (got ${JSON.stringify(step.repeat)})`);
    const times = Number.isInteger(repeat) ? (repeat as number) : 0;
    if ("group" in step) {
      for (const key of Object.keys(step)) if (key !== "group" && key !== "repeat") at(`${here}.${key}`, "unknown key in a group (allowed: group, repeat)");
      if (!Array.isArray(step.group) || step.group.length === 0) at(`${here}.group`, "must be a non-empty array of steps");
      else calls += times * checkSteps(step.group, `${here}.group`, at);
      return;
    }
    if ("parallel" in step) {
      for (const key of Object.keys(step)) if (key !== "parallel" && key !== "repeat") at(`${here}.${key}`, "unknown key in a parallel response (allowed: parallel, repeat)");
      if (!Array.isArray(step.parallel) || step.parallel.length === 0) at(`${here}.parallel`, "must be a non-empty array of calls");
      else {
        step.parallel.forEach((call: unknown, j: number) => checkCall(call, `${here}.parallel[${j}]`, at, false));
        calls += times * step.parallel.length;
      }
      return;
    }
    checkCall(step, here, at, true);
    calls += times;
  });
  return calls;
}

function checkCall(call: unknown, here: string, at: (path: string, rule: string) => void, mayRepeat: boolean): void {
  if (!isPlainObject(call)) {
    at(here, "must be a call object {tool, args, result | error | outcome: false}");
    return;
  }
  for (const key of Object.keys(call)) if (!CALL_KEYS.includes(key) || (!mayRepeat && key === "repeat")) at(`${here}.${key}`, `unknown key (allowed: ${CALL_KEYS.filter((k) => mayRepeat || k !== "repeat").join(", ")})`);
  if (typeof call.tool !== "string" || call.tool.trim() === "") at(`${here}.tool`, "must be a non-empty string");
  const given = ["result", "error"].filter((k) => call[k] !== undefined);
  if (call.outcome !== undefined && call.outcome !== false) at(`${here}.outcome`, "must be false when present (the guard never sees this call's outcome)");
  if (call.outcome === false && given.length > 0) at(here, "outcome: false takes no result or error");
  if (call.outcome !== false && given.length !== 1) at(here, "must have exactly one of result or error (or outcome: false)");
  // Refused here, before the expansion walks the values recursively (5,000 levels overflow it).
  for (const key of ["args", "result", "error"]) if (nestsDeeperThan(call[key], MAX_VALUE_DEPTH)) at(`${here}.${key}`, `nests deeper than ${MAX_VALUE_DEPTH} levels (refused: loopsim hashes values recursively)`);
}
