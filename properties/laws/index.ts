// Every law, for the reference tests and the bug zoo.
import type { Law } from "./law.js";
import { boundedState } from "./boundedState.js";
import { engineEqualsOracle } from "./engineOracle.js";
import { enabledFalseSilent, enabledUnsetGuardOnly } from "./enabledModes.js";
import { noBlockWithoutEvidence } from "./evidence.js";
import { guardExact } from "./guard.js";
import { disablingDetectorNeverAddsBlocks, raisingCriticalNeverAddsBlocks, raisingWarningNeverAddsWarnings } from "./monotonicity.js";
import { normalisationInvariant } from "./normalisation.js";
import { freshRunStartsFromZero, otherRunsNeverAdd, scopedWithoutEviction } from "./runScoping.js";
import { warningsComeFirst } from "./warningsFirst.js";
import { reusedCallIdsStayInTheirRun } from "./callIdReuse.js";
import { unknownStreakBreaksAtAnyOtherRecord } from "./unknownStreakBreaks.js";
import { vetoesNeverFillTheGuardWindow } from "./guardVetoes.js";
import { blocksAreSticky, noProgressLoopsAreBlocked, warningsEmittedAtMultiples } from "./targeted.js";
import { blockedCallsLeaveNoTrace, criticalsAlwaysEmitted, globalBreakerIgnoresSwitches, unknownToolBlocksAtThreshold } from "./thresholds.js";

/** The semantic laws: what the spec promises, without comparing to the oracle. */
export const SEMANTIC_LAWS: readonly Law<never>[] = [
  enabledFalseSilent,
  enabledUnsetGuardOnly,
  guardExact,
  freshRunStartsFromZero,
  otherRunsNeverAdd,
  scopedWithoutEviction,
  noBlockWithoutEvidence,
  warningsComeFirst,
  raisingCriticalNeverAddsBlocks,
  raisingWarningNeverAddsWarnings,
  disablingDetectorNeverAddsBlocks,
  normalisationInvariant,
  boundedState,
  noProgressLoopsAreBlocked,
  blocksAreSticky,
  warningsEmittedAtMultiples,
  globalBreakerIgnoresSwitches,
  unknownToolBlocksAtThreshold,
  criticalsAlwaysEmitted,
  blockedCallsLeaveNoTrace,
  reusedCallIdsStayInTheirRun,
  unknownStreakBreaksAtAnyOtherRecord,
  vetoesNeverFillTheGuardWindow,
] as unknown as readonly Law<never>[];

export const ALL_LAWS: readonly Law<never>[] = [engineEqualsOracle as unknown as Law<never>, ...SEMANTIC_LAWS];
