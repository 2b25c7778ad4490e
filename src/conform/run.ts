// Conformance of one target: scenarios, probes, laws and a differential run, folded into a
// column of the matrix.
import type { Target } from "../targets/target.js";
import type { CheckResult } from "./check.js";
import { differentialChecks } from "./differential.js";
import { lawChecks } from "./lawChecks.js";
import { summarise, type TargetConformance } from "./matrix.js";
import { probeChecks } from "./probeChecks.js";
import { corpusScenarioFiles, scenarioChecks } from "./scenarioChecks.js";
import { staticChecks } from "./staticChecks.js";
import { SEMANTIC_LAWS } from "../../properties/laws/index.js";
import type { ResolvedConformOptions } from "./conformOptions.js";

/** What a run is given: checked once by resolveConformOptions (conformOptions.ts), for the CLI and the library alike. */
export type ConformOptions = ResolvedConformOptions;

export function conformSteps(options: ConformOptions): number {
  if (options.law !== undefined) return 1;
  return corpusScenarioFiles().length + SEMANTIC_LAWS.length + 4;
}

export function conformTarget(target: Target, options: ConformOptions, onTick: () => void = () => undefined): TargetConformance {
  if (options.law !== undefined) {
    return summarise(target, lawChecks(target, options.outDir, { seed: options.seed, depth: options.depth, only: options.law, path: options.path }, onTick));
  }
  const checks: CheckResult[] = [
    ...staticChecks(),
    ...probeChecks(target, options.outDir),
    ...scenarioChecks(target, options.outDir, onTick),
    ...lawChecks(target, options.outDir, { seed: options.seed, depth: options.depth }, onTick),
    ...differentialChecks(target, options.outDir, { seed: options.differentialSeed ?? options.seed, runs: Math.round(300 * options.depth), rounds: 4 }, onTick),
  ];
  return summarise(target, checks);
}
