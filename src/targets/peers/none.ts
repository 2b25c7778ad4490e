// Codex CLI and Claude Code: no loop guard at all. A run is bounded only by compaction, a user's
// interrupt or (Claude Code headless) --max-turns, none of which loopsim's agents meet: the row
// every guard is measured against.
import { ALLOW, peerTarget } from "./peerGuard.js";

export const NONE_TARGET = peerTarget<null>({
  name: "none",
  summary: "no loop guard (what Codex CLI and Claude Code do): every call runs",
  notes: ["acts on nothing; the baseline for waste"],
  detectors: [],
  warns: false,
  reducer: {
    initial: () => null,
    onCall: (state) => ({ state, action: ALLOW }),
    onOutcome: (state) => ({ state, action: ALLOW }),
  },
});
