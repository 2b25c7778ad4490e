// Reading a scenario file at the boundary: every problem is reported with the file and the JSON
// path it is at, and the rule it breaks; nothing half-checked reaches the engine.
import { readTextFile } from "../io/textFile.js";
import JSON5 from "json5";
import { DEFAULT_SIMULATED_CALLS, MAX_SIMULATED_CALLS } from "../sim/simulate.js";
import { validateOpenClawConfig, formatIssue } from "../../models/configValidation.js";
import { findAgentBlock } from "../../models/configResolution.js";
import { isPlainObject } from "../../models/outcomeHash.js";
import type { ToolEvent } from "../../models/events.js";
import { checkEvent } from "../io/eventSchema.js";
import { FAMILY_NAMES } from "../sim/families.js";
import { isModelPreset } from "../sim/agentModel.js";
import { reviveCycles } from "./cycles.js";
import { SCENARIO_SCHEMA, type Scenario } from "./scenario.js";

export interface LoadedScenario {
  readonly file: string;
  readonly scenario: Scenario;
  /** Decoded events (cycles revived) when the source is an event list. */
  readonly events: ToolEvent[] | undefined;
  readonly hasExpected: boolean;
}

export type ScenarioLoad = { ok: true; loaded: LoadedScenario } | { ok: false; problems: string[] };

const TOP_KEYS = ["schema", "id", "title", "description", "covers", "config", "configBypassesValidation", "agent", "source", "target", "law", "expected"];

/**
 * Reads a scenario file (`loopsim/scenario@1`), every problem named by file and JSON path.
 *
 * @param file - the scenario's path.
 * @param options - `requireExpected`: refuse a scenario without expected verdicts.
 */
export function loadScenario(file: string, options: { requireExpected: boolean }): ScenarioLoad {
  let text: string;
  try {
    text = readTextFile(file, "scenario");
  } catch (error) {
    return { ok: false, problems: [(error as Error).message] };
  }
  let raw: unknown;
  try {
    // JSON5 reads plain JSON too, allows comments in hand-written files, and says where it broke.
    raw = JSON5.parse(text);
  } catch (error) {
    const e = error as Error & { lineNumber?: number; columnNumber?: number };
    const place = e.lineNumber === undefined ? "" : `:${e.lineNumber}:${e.columnNumber ?? 0}`;
    return { ok: false, problems: [`${file}${place}: not valid JSON (${e.message.replace(/^JSON5: /, "")})`] };
  }
  const problems: string[] = [];
  const at = (path: string, rule: string) => problems.push(`${file}: ${path}: ${rule}`);
  if (!isPlainObject(raw)) return { ok: false, problems: [`${file}: (root): a scenario must be a JSON object`] };
  for (const key of Object.keys(raw)) if (!TOP_KEYS.includes(key)) at(key, `unknown key (allowed: ${TOP_KEYS.join(", ")})`);
  if (raw.schema !== SCENARIO_SCHEMA) at("schema", `must be "${SCENARIO_SCHEMA}" (got ${JSON.stringify(raw.schema)})`);
  for (const key of ["id", "title", "description"]) {
    if (typeof raw[key] !== "string" || (raw[key] as string).trim() === "") at(key, "must be a non-empty string");
  }
  if (!Array.isArray(raw.covers) || !raw.covers.every((c) => typeof c === "string")) at("covers", "must be an array of strings (SPEC IDs, upstream issues)");
  if (raw.configBypassesValidation !== undefined && typeof raw.configBypassesValidation !== "boolean") at("configBypassesValidation", "must be true or false");
  if (raw.configBypassesValidation === true) {
    if (!isPlainObject(raw.config ?? {})) at("config", "must be an object");
  } else for (const found of validateOpenClawConfig(raw.config ?? {})) at(`config.${found.path}`, formatIssue(found).slice(found.path.length + 2));
  if (raw.agent !== null && raw.agent !== undefined) {
    if (typeof raw.agent !== "string") at("agent", "must be a string or null");
    else if (!findAgentBlock(raw.config, raw.agent).found) at("agent", `"${raw.agent}" is not in config.agents.list`);
  }
  if (raw.target !== undefined && (typeof raw.target !== "string" || raw.target.trim() === "")) at("target", "must be a target name such as openclaw@2026.9.6 (or absent for the reference)");
  if ("law" in raw) {
    const law = raw.law;
    if (!isPlainObject(law) || typeof law.name !== "string" || !Number.isInteger(law.seed) || typeof law.path !== "string" || (law.strict !== undefined && typeof law.strict !== "string")) {
      at("law", "must be {name, seed, path, strict?}: the property a captured counterexample broke");
    }
  }
  let events: ToolEvent[] | undefined;
  const source = raw.source;
  if (!isPlainObject(source)) at("source", 'must be an object with "simulation" or "events"');
  else {
    const keys = Object.keys(source);
    if (keys.length !== 1 || (keys[0] !== "simulation" && keys[0] !== "events")) at("source", 'must have exactly one of "simulation" or "events"');
    if (isPlainObject(source.simulation)) {
      const sim = source.simulation;
      for (const key of Object.keys(sim)) if (!["family", "seed", "calls", "model"].includes(key)) at(`source.simulation.${key}`, "unknown key (allowed: family, seed, calls, model)");
      if (typeof sim.family !== "string" || !FAMILY_NAMES.includes(sim.family)) at("source.simulation.family", `unknown family ${JSON.stringify(sim.family)} (known: ${FAMILY_NAMES.join(", ")})`);
      if (!Number.isInteger(sim.seed) || (sim.seed as number) < 0) at("source.simulation.seed", `must be a whole number (got ${JSON.stringify(sim.seed)})`);
      // calls and model default as in `simulate`, so a hand-written scenario needs only family and seed.
      if (sim.calls === undefined) sim.calls = DEFAULT_SIMULATED_CALLS;
      if (sim.model === undefined) sim.model = "small";
      if (!Number.isInteger(sim.calls) || (sim.calls as number) <= 0 || (sim.calls as number) > MAX_SIMULATED_CALLS) at("source.simulation.calls", `must be a positive integer of at most ${MAX_SIMULATED_CALLS} (got ${JSON.stringify(sim.calls)})`);
      if (typeof sim.model !== "string" || !isModelPreset(sim.model)) at("source.simulation.model", `must be "small" or "flagship" (got ${JSON.stringify(sim.model)})`);
    } else if ("simulation" in source) at("source.simulation", "must be an object {family, seed, calls, model}");
    if ("events" in source) {
      if (!Array.isArray(source.events)) at("source.events", "must be an array of events");
      else {
        events = [];
        source.events.forEach((value: unknown, i: number) => {
          const checked = checkEvent(value, `source.events[${i}]`);
          if (checked.ok) events?.push(reviveCycles(checked.event) as ToolEvent);
          else for (const p of checked.problems) problems.push(`${file}: ${p}`);
        });
      }
    }
  }
  const expected = raw.expected;
  let hasExpected = false;
  if (expected === undefined) {
    if (options.requireExpected) at("expected", "missing (run `loopsim replay --update FILE` to record it)");
  } else if (!isPlainObject(expected) || typeof expected.digest !== "string" || !/^[0-9a-f]{64}$/.test(expected.digest) || !isPlainObject(expected.facts)) {
    at("expected", "must be {digest: 64 hex characters, facts: {...}, timeline: [...]}");
  } else hasExpected = true;
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, loaded: { file, scenario: raw as unknown as Scenario, events, hasExpected } };
}
