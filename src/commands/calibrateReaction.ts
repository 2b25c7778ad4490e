// `--reaction fitted` for tune and compare: the reaction odds fitted to what the recorded agents
// did after a real guard's intervention (src/grounded/reactionFit.ts; `calibrate --fit-reaction`
// shows the fit itself, run by runCalibrate).
import { UserError } from "../io/errors.js";
import { fitReaction, fittedReaction } from "../grounded/reactionFit.js";
import { reactionSpec } from "../grounded/reaction.js";

/**
 * `--reaction fitted`: the odds fitted to the sessions the population runs (the roots of
 * sessions:PATH, or tune's --sessions), as a --reaction spec; other values pass through. Too few interventions: a user error.
 */
export async function resolveFittedReaction(reaction: string | undefined, paths: readonly string[]): Promise<string | undefined> {
  if (reaction !== "fitted") return reaction;
  if (paths.length === 0) throw new UserError("--reaction fitted: fits the odds to the real sessions run as agents: use --population sessions:PATH (or tune's --sessions PATH with --inject)");
  return reactionSpec(fittedReaction(await fitReaction(paths)));
}
