// Kilo Code's CLI (@kilocode/cli 7.x) ships opencode's doom-loop rule unchanged (stepRepeat.ts).
// Pinned against the real CLI driven through a scripted model: reports/peers.
import { stepRepeatTarget } from "./stepRepeat.js";

export const KILO_TARGET = stepRepeatTarget("kilo", "Kilo Code", ["the shipped binary carries opencode's rule; the older extension's 30-call window is gone"]);
