// Kilo Code's CLI (@kilocode/cli 7.x) ships opencode's doom-loop rule (stepRepeat.ts), with two
// differences its driven CLI showed: the triggering call still runs before the run ends, and its
// tool-call repair trims a padded name before lowercasing it (KILO_NORMALIZATION).
// Pinned against the real CLI driven through a scripted model: reports/peers.
import { KILO_NORMALIZATION } from "./normalization/opencode.js";
import { stepRepeatTarget } from "./stepRepeat.js";

export const KILO_TARGET = stepRepeatTarget("kilo", "Kilo Code", ["the shipped binary carries opencode's rule; the older extension's 30-call window is gone"], { triggerRuns: true }, KILO_NORMALIZATION);
