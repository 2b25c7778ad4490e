// Codex CLI and Claude Code: no loop guard at all. A run is bounded only by compaction, a user's
// interrupt or (Claude Code headless) --max-turns, none of which loopsim's agents meet: the row
// every guard is measured against.
import { ALLOW, peerTarget, type PeerReducer } from "./peerGuard.js";
import { NO_GUARD_NORMALIZATION } from "./normalization/unverified.js";

/** The reducer of a runtime with no guard (also CrewAI under native function calling). */
export const NO_GUARD: PeerReducer<null> = {
  initial: () => null,
  onCall: (state) => ({ state, action: ALLOW }),
  onOutcome: (state) => ({ state, action: ALLOW }),
};

export const NONE_TARGET = peerTarget<null>({
  name: "none",
  summary: "no loop guard (what Codex CLI and Claude Code do): every call runs",
  notes: ["acts on nothing; the baseline for waste"],
  detectors: [],
  normalization: NO_GUARD_NORMALIZATION,
  warns: false,
  reducer: NO_GUARD,
});
