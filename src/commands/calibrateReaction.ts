// `loopsim calibrate PATH... --fit-reaction`: the reaction odds fitted to what recorded agents did
// after a real guard's intervention (src/grounded/reactionFit.ts), printed and, with --out, written
// as reaction-fit.{json,md}. Also resolves `--reaction fitted` for tune and compare.
import { join } from "node:path";
import { UserError } from "../io/errors.js";
import { writeFileAtomic } from "../io/atomicWrite.js";
import { refuseOverwrite } from "../io/overwrite.js";
import { ensureWritableDir } from "../io/writable.js";
import { fitReaction, fittedReaction, reactionFitMarkdown } from "../grounded/reactionFit.js";
import { reactionSpec } from "../grounded/reaction.js";

export async function fitReactionCommand(paths: readonly string[], options: { readonly out?: string; readonly json: boolean; readonly strict?: boolean; readonly force?: boolean }): Promise<void> {
  if (paths.length === 0) throw new UserError("--fit-reaction: name the recorded sessions to fit the reaction odds to (files or folders)");
  if (options.out !== undefined) {
    ensureWritableDir(options.out);
    refuseOverwrite(options.out, ["reaction-fit.json", "reaction-fit.md"], options.force === true);
  }
  const fit = await fitReaction(paths, { strict: options.strict === true });
  const json = JSON.stringify({ schema: "loopsim/reaction-fit@1", ...fit }, null, 2) + "\n";
  const md = reactionFitMarkdown(fit);
  if (options.out !== undefined) {
    writeFileAtomic(join(options.out, "reaction-fit.json"), json);
    writeFileAtomic(join(options.out, "reaction-fit.md"), md);
  }
  process.stdout.write(options.json ? json : md);
}

/**
 * `--reaction fitted`: the odds fitted to the sessions the population runs (the roots of
 * sessions:PATH, or tune's --sessions), as a --reaction spec; other values pass through. Too few interventions: a user error.
 */
export async function resolveFittedReaction(reaction: string | undefined, paths: readonly string[]): Promise<string | undefined> {
  if (reaction !== "fitted") return reaction;
  if (paths.length === 0) throw new UserError("--reaction fitted: fits the odds to the real sessions run as agents: use --population sessions:PATH (or tune's --sessions PATH with --inject)");
  return reactionSpec(fittedReaction(await fitReaction(paths)));
}
