// Candidate guard rules, by the names `--target` and `compare --targets` take:
// `candidate:failure-signature:N`, `candidate:no-effect:N`, `candidate:recheck:N` and `candidate:no-new-fact:N` (N from 2 to 50; no-new-fact is not among the defaults `candidates` expands to). They are evidence
// for people who design guards, not models of a runtime: no runtime is known to ship them, and
// every report that lists one says so. `compare --targets candidates` runs the listed settings.
import type { Target } from "../target.js";
import type { CandidateRule } from "../targetRef.js";
import { FAILURE_SIGNATURE, failureSignatureTarget } from "./failureSignature.js";
import { NO_EFFECT, noEffectTarget } from "./noEffect.js";
import { NO_NEW_FACT, noNewFactTarget } from "./noNewFact.js";
import { RECHECK, recheckTarget } from "./recheck.js";

/** The settings `candidates` expands to in compare: each rule at 3 (the miner's own bar) and 5 (the limit most peers act at). */
const CANDIDATE_SETTINGS: readonly { readonly rule: CandidateRule; readonly times: number }[] = [
  { rule: FAILURE_SIGNATURE, times: 3 },
  { rule: FAILURE_SIGNATURE, times: 5 },
  { rule: NO_EFFECT, times: 3 },
  { rule: NO_EFFECT, times: 5 },
  { rule: RECHECK, times: 3 },
  { rule: RECHECK, times: 5 },
];

/** The candidate a parsed `candidate:RULE:N` asks for (targetRef.ts checked N's bounds). */
export function candidateTarget(rule: CandidateRule, times: number): Target {
  switch (rule) {
    case FAILURE_SIGNATURE:
      return failureSignatureTarget(times);
    case NO_EFFECT:
      return noEffectTarget(times);
    case RECHECK:
      return recheckTarget(times);
    case NO_NEW_FACT:
      return noNewFactTarget(times);
    default: {
      const unhandled: never = rule;
      throw new Error(`unhandled candidate rule ${String(unhandled)}`);
    }
  }
}

/** The default settings, as targets (for `loopsim targets`). */
export const CANDIDATE_TARGETS: readonly Target[] = CANDIDATE_SETTINGS.map((c) => candidateTarget(c.rule, c.times));

/** The default settings by name (each target's name is its `candidate:RULE:N`). */
export const CANDIDATE_NAMES: readonly string[] = CANDIDATE_TARGETS.map((t) => t.name);
