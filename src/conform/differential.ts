// A differential run against the reference over generated traces: configs drawn over the fields
// the target honours, traces from the property suite's arbitrary (without compactions when the
// target has no guard). Each difference is shrunk by fast-check to a minimal trace and attributed
// to the SPEC rules it touches; then the search goes on for differences that touch other rules.
import fc from "fast-check";
import { configFrom } from "../../models/configResolution.js";
import type { ToolEvent } from "../../models/events.js";
import { configBlockArbitrary } from "../arbitraries/configArbitrary.js";
import { traceArbitrary } from "../arbitraries/traceArbitrary.js";
import { targetRef, type Target } from "../targets/target.js";
import { attribute } from "./attribute.js";
import type { CheckResult } from "./check.js";
import { writeCounterexample } from "./counterexample.js";
import { pinBlocks } from "./pin.js";
import { differenceOf } from "./compare.js";

export interface DifferentialOptions {
  readonly seed: number;
  readonly runs: number;
  readonly rounds: number;
}

const DIFFERENTIAL_RULES = ["E2", "E3", "E4", "H1", "H2", "H3", "R1", "R2", "R3", "S1", "S2", "S3", "S4", "D1", "D2", "W1", "W2"];

interface Case {
  readonly block: Record<string, unknown>;
  readonly events: ToolEvent[];
}

/**
 * The differential run: generated traces and configs through the target and the reference side
 * by side; any difference in what a config the target honours decides is a failure, shrunk.
 *
 * @param target - the target to compare with the reference.
 * @param outDir - counterexample scenarios are written under this folder; none when undefined.
 * @param options - the seed, the number of runs and of rounds.
 * @param onTick - called once per round (for a progress bar).
 */
export function differentialChecks(target: Target, outDir: string | undefined, options: DifferentialOptions, onTick: () => void = () => undefined): CheckResult[] {
  const guard = target.capabilities.guard;
  const arbitrary = fc
    .record({ block: configBlockArbitrary({ enabled: [true, true, true, undefined, false] }), events: traceArbitrary({ runs: 3 }) })
    .map((c): Case => pinBlocks({ block: c.block, events: guard ? c.events : c.events.filter((e) => e.type !== "compaction") }, target.capabilities.honours));
  const found = new Set<string>();
  const results: CheckResult[] = [];
  let settled = false;
  for (let round = 0; round < options.rounds; round++) {
    onTick();
    const details = fc.check(
      fc.property(arbitrary, (c) => {
        const config = configFrom(c.block);
        const diff = differenceOf(target, config, c.events);
        if (diff === undefined) return true;
        return attribute(target, config, c.events, diff, found).every((r) => found.has(r));
      }),
      { seed: options.seed + round, numRuns: options.runs },
    );
    if (!details.failed || details.counterexample === null) {
      settled = true;
      break;
    }
    const c = details.counterexample[0];
    const config = configFrom(c.block);
    const diff = differenceOf(target, config, c.events);
    if (diff === undefined) break;
    const rules = attribute(target, config, c.events, diff);
    const fresh = rules.filter((r) => !found.has(r));
    for (const r of rules) found.add(r);
    const name = `differential #${round + 1}`;
    const replay = `loopsim conform --target ${targetRef(target)} --differential-seed ${options.seed + round}`;
    let counterexample;
    if (outDir !== undefined) {
      const file = writeCounterexample(outDir, target, `differential-${round + 1}`, {
        config: { tools: { loopDetection: c.block } },
        events: c.events,
        covers: rules,
        description: `Differential run against the reference (seed ${options.seed + round}, shrunk by fast-check to ${c.events.length} events). Reference: ${diff.reference ?? "(nothing)"}; ${target.name}: ${diff.target ?? "(nothing)"}.`,
      });
      counterexample = { file, events: c.events.length, replay: `loopsim replay ${file}`, reference: diff.reference, target: diff.target };
    } else counterexample = { file: "", events: c.events.length, replay, reference: diff.reference, target: diff.target };
    results.push({ kind: "differential", name, rules: fresh.length > 0 ? fresh : rules, status: "fail", reason: `reference: ${diff.reference ?? "(nothing)"}; ${target.name}: ${diff.target ?? "(nothing)"}`, counterexample });
  }
  // The rules a generated trace exercises; once no new difference turns up, those not blamed pass.
  if (settled) {
    const passing = DIFFERENTIAL_RULES.filter((r) => !found.has(r));
    if (passing.length > 0) results.push({ kind: "differential", name: "differential", rules: passing, status: "pass", reason: `${options.runs} generated traces without a difference on these rules` });
  }
  return results;
}
