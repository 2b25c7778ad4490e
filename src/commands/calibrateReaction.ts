// `--reaction fitted` for tune and compare: the reaction odds fitted to what the recorded agents
// did after a real guard's intervention (src/grounded/reactionFit.ts; `calibrate --fit-reaction`
// shows the fit itself, run by runCalibrate).
import { UserError } from "../io/errors.js";
import { SESSIONS_PREFIX } from "../grounded/groundedPopulation.js";
import { fitReaction, fittedReaction } from "../grounded/reactionFit.js";
import { reactionSpec } from "../grounded/reaction.js";

/**
 * `--reaction fitted`: the odds fitted to the sessions the population runs (sessions:PATH, or
 * tune's --sessions), as a --reaction spec; other values pass through. Too few interventions: a user error.
 */
export async function resolveFittedReaction(reaction: string | undefined, population: string, sessions: readonly string[] | undefined): Promise<string | undefined> {
  if (reaction !== "fitted") return reaction;
  const paths = population.startsWith(SESSIONS_PREFIX) ? [population.slice(SESSIONS_PREFIX.length)] : (sessions ?? []);
  if (paths.length === 0 || paths[0] === "") throw new UserError("--reaction fitted: fits the odds to the real sessions run as agents: use --population sessions:PATH (or tune's --sessions PATH with --inject)");
  return reactionSpec(fittedReaction(await fitReaction(paths)));
}
