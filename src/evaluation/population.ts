// The simulated population a sweep runs every config against: behaviour families crossed with
// model presets, each with a weight. Agents are shared by every config (same seeds), so configs
// are compared on the same agents.
import { readTextFile } from "../io/textFile.js";
import { inputProblem } from "../io/fsErrors.js";
import JSON5 from "json5";
import { MAX_SIMULATED_CALLS, type SimulationSpec } from "../sim/simulate.js";
import { FITTED_FAMILY, fittedParamsProblems, type FittedParams } from "../sim/fittedFamily.js";
import { dirname, isAbsolute, relative, resolve } from "node:path";
import { isPlainObject } from "../../models/outcomeHash.js";
import { UserError } from "../io/errors.js";
import { isModelPreset, MODEL_PRESETS, type ModelPreset } from "../sim/agentModel.js";
import { FAMILIES, FAMILY_NAMES } from "../sim/families.js";
import type { FamilyLabel } from "../sim/behaviour.js";

export interface PopulationMember {
  readonly family: string;
  readonly model: ModelPreset;
  readonly weight: number;
  /** The fitted family's parameters (loopsim calibrate --fit). */
  readonly params?: FittedParams;
}

/** Where a fitted population came from (loopsim calibrate --fit): calibrate reads these sessions when given none. */
export interface FittedOn {
  /** Relative to the population file's folder, or absolute. */
  readonly paths: readonly string[];
  readonly sessions: number;
  readonly runs: number;
  readonly seed: number;
}

export interface Population {
  readonly name: string;
  /** Calls each agent may attempt. */
  readonly calls: number;
  readonly members: readonly PopulationMember[];
  readonly fittedOn?: FittedOn;
  /** What calibrate --fit measured on the held-out half; calibrate reads it back (src/calibrate/report.ts says its shape). */
  readonly heldOut?: unknown;
}

export interface AgentSpec {
  readonly family: string;
  readonly label: FamilyLabel;
  readonly model: ModelPreset;
  readonly seed: number;
  readonly params?: FittedParams;
}

/** The simulation of one agent of a population. */
export function simulationOf(agent: AgentSpec, calls: number): SimulationSpec {
  return { family: agent.family, seed: agent.seed, calls, model: agent.model, ...(agent.params === undefined ? {} : { params: agent.params }) };
}

/**
 * Default weights: stuck and progressing work in equal measure, small models twice as common
 * as flagship ones (the seed page's case for enabling detection), heartbeat and productive
 * work a little more common than any one loop.
 */
const DEFAULT_WEIGHTS: Readonly<Record<string, number>> = {
  productive: 3,
  "poller-completes": 2,
  "ping-pong-progress": 2,
  "flaky-errors": 2,
  heartbeat: 2,
  "overflow-recover": 1,
  "poller-stuck": 2,
  "ping-pong-stuck": 2,
  "unknown-tool": 2,
  "send-loop": 2,
  "exec-volatile": 2,
  "overflow-relapse": 2,
};
/**
 * `calibrated`: the progressing side fitted to the recorded corpus (../shared/corpus) by
 * `loopsim calibrate` (a greedy search over family weights minimising the mean distance of the
 * seven statistics): long exploration, productive work and edit/test cycles. The corpus is coding
 * work with no polls or heartbeats, so those hard cases get no weight here; the default
 * population keeps them. The stuck side is the default's.
 */
const CALIBRATED_WEIGHTS: Readonly<Record<string, number>> = {
  ...Object.fromEntries(Object.entries(DEFAULT_WEIGHTS).filter(([family]) => FAMILIES.find((f) => f.name === family)?.label === "stuck")),
  "cycle-3-stuck": 1,
  "near-duplicate-stuck": 1,
  explorer: 12,
  productive: 2,
  "ping-pong-progress": 1,
  "overflow-recover": 1,
};
const MODEL_WEIGHTS: Readonly<Record<ModelPreset, number>> = { small: 2, flagship: 1 };

function preset(name: string, models: readonly ModelPreset[], weights: Readonly<Record<string, number>> = DEFAULT_WEIGHTS, otherWeight = 1): Population {
  return {
    name,
    calls: 80,
    members: FAMILIES.filter((f) => f.optIn !== true).map((f) => f.name).flatMap((family) => models.map((model) => ({ family, model, weight: (weights[family] ?? otherWeight) * MODEL_WEIGHTS[model] }))).filter((m) => m.weight > 0),
  };
}

export const POPULATION_PRESETS: Readonly<Record<string, Population>> = {
  default: preset("default", MODEL_PRESETS),
  small: preset("small", ["small"]),
  flagship: preset("flagship", ["flagship"]),
  calibrated: preset("calibrated", MODEL_PRESETS, CALIBRATED_WEIGHTS, 0),
};

export function loadPopulation(spec: string): Population {
  return POPULATION_PRESETS[spec] ?? populationFromJson(readPopulationFile(spec), spec);
}

/** A population file's JSON5, read once; its kind (families, or real sessions) is the caller's to tell. */
export function readPopulationFile(spec: string): unknown {
  const problem = inputProblem(spec);
  if (problem?.code === "ENOENT") throw new UserError(`--population ${spec}: neither a preset (${Object.keys(POPULATION_PRESETS).join(", ")}), sessions:PATH, nor a file`);
  if (problem !== undefined) throw new UserError(`--population ${spec}: ${problem.reason}`);
  const text = readTextFile(spec, "population file");
  try {
    return JSON5.parse(text);
  } catch (error) {
    const e = error as Error & { lineNumber?: number; columnNumber?: number };
    throw new UserError(`${spec}${e.lineNumber === undefined ? "" : `:${e.lineNumber}:${e.columnNumber ?? 0}`}: not valid JSON5 (${e.message.replace(/^JSON5: /, "")})`);
  }
}

/** A simulated population from a population file's JSON; every problem names its JSON path. */
export function populationFromJson(raw: unknown, spec: string): Population {
  const problems: string[] = [];
  if (!isPlainObject(raw)) throw new UserError(`${spec}: a population is an object {calls, members: [{family, model, weight}]}`);
  for (const key of Object.keys(raw)) if (!["calls", "members", "name", "fittedOn", "heldOut"].includes(key)) problems.push(`${key}: unknown key (allowed: name, calls, members, fittedOn, heldOut; or sessions, inject, reaction for real sessions)`);
  const fittedOn = fittedOnOf(raw.fittedOn, spec, problems);
  const calls = raw.calls ?? 80;
  if (!Number.isInteger(calls) || (calls as number) <= 0 || (calls as number) > MAX_SIMULATED_CALLS) problems.push(`calls: must be a positive integer of at most ${MAX_SIMULATED_CALLS} (got ${JSON.stringify(raw.calls)})`);
  const members: PopulationMember[] = [];
  if (!Array.isArray(raw.members) || raw.members.length === 0) problems.push("members: must be a non-empty array");
  else {
    raw.members.forEach((m: unknown, i: number) => {
      const at = `members[${i}]`;
      if (!isPlainObject(m)) return problems.push(`${at}: must be an object {family, model, weight}`);
      for (const key of Object.keys(m)) if (!["family", "model", "weight", "params"].includes(key)) problems.push(`${at}.${key}: unknown key (allowed: family, model, weight, params)`);
      const fitted = m.family === FITTED_FAMILY;
      if (typeof m.family !== "string" || (!fitted && !FAMILY_NAMES.includes(m.family))) problems.push(`${at}.family: unknown family ${JSON.stringify(m.family)} (known: ${[...FAMILY_NAMES, FITTED_FAMILY].join(", ")})`);
      if (fitted) problems.push(...fittedParamsProblems(m.params, `${at}.params`));
      else if (m.params !== undefined) problems.push(`${at}.params: only the ${FITTED_FAMILY} family takes params`);
      if (typeof m.model !== "string" || !isModelPreset(m.model)) problems.push(`${at}.model: must be "small" or "flagship" (got ${JSON.stringify(m.model)})`);
      const weight = m.weight ?? 1;
      if (typeof weight !== "number" || !Number.isFinite(weight) || weight <= 0) problems.push(`${at}.weight: must be a positive number (got ${JSON.stringify(m.weight)})`);
      if (problems.length === 0) members.push({ family: m.family as string, model: m.model as ModelPreset, weight: weight as number, ...(fitted ? { params: m.params as FittedParams } : {}) });
      return undefined;
    });
  }
  if (problems.length > 0) throw new UserError(`${spec}: invalid population:\n${problems.map((p) => `  ${spec}: ${p}`).join("\n")}`);
  return { name: typeof raw.name === "string" ? raw.name : spec, calls: calls as number, members, ...(fittedOn === undefined ? {} : { fittedOn }), ...(raw.heldOut === undefined ? {} : { heldOut: raw.heldOut }) };
}

function fittedOnOf(raw: unknown, spec: string, problems: string[]): FittedOn | undefined {
  if (raw === undefined) return undefined;
  const f = raw as Record<string, unknown>;
  if (!isPlainObject(raw) || !Array.isArray(f.paths) || f.paths.some((p) => typeof p !== "string") || typeof f.sessions !== "number" || typeof f.runs !== "number" || typeof f.seed !== "number") {
    problems.push("fittedOn: {paths: [...], sessions, runs, seed}, as loopsim calibrate --fit writes it");
    return undefined;
  }
  // Paths are written relative to the file, so the file works from any folder.
  // Shown relative to where loopsim runs, so reports name them as a user would type them.
  return { paths: (f.paths as string[]).map((p) => (isAbsolute(p) ? p : relative(process.cwd(), resolve(dirname(spec), p)) || ".")), sessions: f.sessions, runs: f.runs, seed: f.seed };
}

/** Splits `total` agents over the members by weight (largest remainder), then seeds them. */
export function populationAgents(population: Population, total: number, seed: number): AgentSpec[] {
  const weightSum = population.members.reduce((sum, m) => sum + m.weight, 0);
  const exact = population.members.map((m) => (total * m.weight) / weightSum);
  const counts = exact.map(Math.floor);
  const order = exact.map((x, i) => ({ i, rest: x - Math.floor(x) })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  const left = total - counts.reduce((a, b) => a + b, 0);
  for (let k = 0; k < left; k++) counts[(order[k] as { i: number }).i]++;
  const agents: AgentSpec[] = [];
  population.members.forEach((m, i) => {
    const label = FAMILIES.find((f) => f.name === m.family)?.label ?? "progressing";
    for (let k = 0; k < (counts[i] ?? 0); k++) agents.push({ family: m.family, label, model: m.model, seed: seed * 10_000 + i * 1_000 + k, ...(m.params === undefined ? {} : { params: m.params }) });
  });
  return agents;
}
