// Candidate guard rules, by the names `--target` and `compare --targets` take:
// `candidate:failure-signature:N`, `candidate:no-effect:N` and `candidate:recheck:N` (N from 2 to 50). They are evidence
// for people who design guards, not models of a runtime: no runtime is known to ship them, and
// every report that lists one says so. `compare --targets candidates` runs the listed settings.
import type { Target } from "../target.js";
import { FAILURE_SIGNATURE, failureSignatureTarget } from "./failureSignature.js";
import { NO_EFFECT, noEffectTarget } from "./noEffect.js";
import { RECHECK, recheckTarget } from "./recheck.js";

/** The settings `candidates` expands to in compare: each rule at 3 (the miner's own bar) and 5 (the limit most peers act at). */
export const CANDIDATE_NAMES: readonly string[] = [`candidate:${FAILURE_SIGNATURE}:3`, `candidate:${FAILURE_SIGNATURE}:5`, `candidate:${NO_EFFECT}:3`, `candidate:${NO_EFFECT}:5`, `candidate:${RECHECK}:3`, `candidate:${RECHECK}:5`];

/** Fewer than 2 is no repeat; past 50 the window outgrows any stretch the miner finds. */
export const CANDIDATE_TIMES = { min: 2, max: 50 } as const;

export const isCandidateName = (name: string): boolean => name.startsWith("candidate:");

/** The candidate a name asks for, or undefined when the name is not one. */
export function candidateTarget(name: string): Target | undefined {
  const match = /^candidate:(failure-signature|no-effect|recheck):(\d{1,3})$/.exec(name);
  if (match === null) return undefined;
  const times = Number(match[2]);
  if (times < CANDIDATE_TIMES.min || times > CANDIDATE_TIMES.max) return undefined;
  return match[1] === FAILURE_SIGNATURE ? failureSignatureTarget(times) : match[1] === RECHECK ? recheckTarget(times) : noEffectTarget(times);
}

/** The default settings, as targets (for `loopsim targets`). */
export const CANDIDATE_TARGETS: readonly Target[] = CANDIDATE_NAMES.map((n) => candidateTarget(n) as Target);
