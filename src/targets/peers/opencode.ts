// opencode's doom-loop check (opencode-ai 1.18), the step-local rule of stepRepeat.ts.
// Pinned against the real CLI driven through a scripted model: reports/peers.
import { stepRepeatTarget } from "./stepRepeat.js";

export const OPENCODE_TARGET = stepRepeatTarget("opencode", "opencode", []);
