// Every law of the property suite as a conformance check on a target, through fast-check with
// shrinking. A law that needs what the target lacks is n/a; a law whose cases never reached what
// it must reach on this target (its coverage) is n/a too, never a silent pass.
import fc from "fast-check";
import { SEMANTIC_LAWS } from "../../properties/laws/index.js";
import { resolveEffectiveConfig } from "../../models/configResolution.js";
import { attribute, exercisedBy } from "./attribute.js";
import { differenceOf } from "./compare.js";
import { Coverage } from "../../properties/laws/coverage.js";
import type { Law } from "../../properties/laws/law.js";
import { missingNeed, targetRef, type Target } from "../targets/target.js";
import type { CheckResult } from "./check.js";
import { writeCounterexample } from "./counterexample.js";
import { pinBlocks } from "./pin.js";
import { rulesOf } from "./rules.js";

export interface LawRunOptions {
  readonly seed: number;
  /** Multiplies each law's number of cases. */
  readonly depth: number;
  readonly only?: string;
  readonly path?: string;
}

export function lawChecks(target: Target, outDir: string | undefined, options: LawRunOptions, onTick: () => void = () => undefined): CheckResult[] {
  // engine-equals-oracle is left out: it checks the reference's incremental index against its own
  // oracle, hashes included; the differential run is its counterpart for any target.
  const laws = SEMANTIC_LAWS.filter((l) => options.only === undefined || l.name === options.only);
  return laws.map((law) => {
    onTick();
    return lawCheck(law, target, outDir, options);
  });
}

function lawCheck(law: Law<never>, target: Target, outDir: string | undefined, options: LawRunOptions): CheckResult {
  const name = `law ${law.name}`;
  const rules = rulesOf(law.spec);
  const lacking = missingNeed(target, law.needs);
  if (lacking !== undefined) return { kind: "law", name, rules, status: "n/a", reason: lacking };
  const honours = target.capabilities.honours;
  const coverage = new Coverage(law.name, law.required);
  const details = fc.check(
    fc.property(law.arbitrary.map((v) => pinBlocks(v, honours)), (value) => {
      law.check(value, target, coverage);
    }),
    { seed: options.seed, numRuns: Math.max(1, Math.round(law.runs * options.depth)), ...(options.path !== undefined ? { path: options.path } : {}) },
  );
  if (!details.failed || details.counterexample === null) {
    const missing = law.required.filter((tag) => !coverage.reached(tag));
    if (missing.length > 0 && options.path === undefined) return { kind: "law", name, rules, status: "n/a", reason: `vacuous on ${target.name}: its cases never reached ${missing.join(", ")}` };
    return { kind: "law", name, rules, status: "pass" };
  }
  const value = details.counterexample[0];
  const message = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  // A law names every rule it leans on; the counterexample's departure from the reference says
  // which of them this failure touches.
  const draft = law.scenario(value);
  const config = resolveEffectiveConfig(draft.config, undefined).config;
  const diff = differenceOf(target, config, draft.events);
  const touched = diff === undefined ? [] : attribute(target, config, draft.events, diff);
  // What the case shows by its making (an interleaved loop is K4's, a send loop K1's) counts
  // whether or not the trace reproduces as a difference, so the blame does not hang on which
  // counterexample won the shrink.
  const shown = (law.blames?.(value) ?? []).filter((r) => exercisedBy(r, draft.events));
  const blamed = rules.filter((r) => touched.includes(r) || shown.includes(r));
  const exercised = rules.filter((r) => exercisedBy(r, draft.events));
  const failedRules = blamed.length > 0 ? blamed : touched.length > 0 ? touched : exercised.length > 0 ? exercised : rules;
  // The anomaly switches change what a law accepts, so the printed command carries them.
  const strict = process.env.LOOPSIM_STRICT;
  const replay = `${strict === undefined || strict === "" ? "" : `LOOPSIM_STRICT=${strict} `}loopsim conform --target ${targetRef(target)} --law ${law.name} --seed ${details.seed} --path ${details.counterexamplePath ?? ""}`;
  let counterexample;
  if (outDir !== undefined) {
    const file = writeCounterexample(outDir, target, `law-${law.name}`, { config: draft.config, events: draft.events, covers: draft.covers, description: `${draft.description} Law ${law.name} on ${target.name}: ${message} (seed ${details.seed}, path ${details.counterexamplePath ?? ""}; replay the property: ${replay})` });
    counterexample = { file, events: draft.events.length, replay };
  } else counterexample = { file: "", events: draft.events.length, replay };
  // The law's other rules were not judged: fast-check stops at the first failure, so its cases say
  // nothing about them. Named, so a rule does not silently drop out of the matrix when another
  // counterexample wins the shrink (the headline must not improve because a check went vacuous).
  const unjudged = rules.filter((r) => !failedRules.includes(r));
  return { kind: "law", name, rules: failedRules, status: "fail", reason: message, counterexample: { ...counterexample, reference: diff?.reference, target: diff?.target }, ...(unjudged.length === 0 ? {} : { unjudged }) };
}

