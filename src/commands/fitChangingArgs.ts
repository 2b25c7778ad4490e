// `loopsim fit-changing-args PATH...`: fits the changing-args loop (the simulator's
// changing-args-stuck family and the injected changing-args shape) to the stretches mined from
// real sessions, per system, and writes the parameters as JSON (src/sim/changingArgsParams.json
// is this command's output on ../shared/datasets). `fitChangingArgs` fits and writes nothing; the
// command line (src/cli/simulationCommands.ts) writes and prints.
import { UserError } from "../io/errors.js";
import { refuseOverwrite } from "../io/overwrite.js";
import { forEachRecordedSession, type RecordedRead } from "../sessions/recorded.js";
import { ChangingArgsFitter } from "../sim/changingArgsFit.js";
import { dirname, basename } from "node:path";

/** What `loopsim fit-changing-args` takes, as the command line (or a library caller) hands it over. */
export interface FitChangingArgsArgs {
  /** Recorded sessions: files or folders; each first folder is a system. */
  readonly paths: readonly string[];
  /** The file the caller writes the parameters to (checked here, not written). */
  readonly out?: string;
  /** Overwrite `out`. */
  readonly force?: boolean;
  /** Stop at the first unreadable file (default: skip and report it). */
  readonly strict?: boolean;
}

/** What a fit made: the parameters' JSON text, and what reading the sessions found. */
export interface FitChangingArgsRun {
  readonly text: string;
  readonly read: RecordedRead;
}

/**
 * Fits the changing-args loop to the stretches mined from the sessions, per system, and returns
 * the parameters as JSON; writes and prints nothing. An `out` that exists (without `force`) is
 * refused before any session is read.
 */
export async function fitChangingArgs(args: FitChangingArgsArgs): Promise<FitChangingArgsRun> {
  if (args === null || typeof args !== "object" || !Array.isArray(args.paths) || !args.paths.every((p) => typeof p === "string" && p !== "")) throw new UserError("fit-changing-args: paths must be a list of session files or folders");
  const { paths } = args;
  if (args.out !== undefined) refuseOverwrite(dirname(args.out), [basename(args.out)], args.force === true);
  const fitter = new ChangingArgsFitter();
  const read = await forEachRecordedSession(paths, { strict: args.strict === true, given: `fit-changing-args ${paths.join(" ")}` }, (session) => fitter.session(session.id, session.file, session.events));
  const command = ["node bin/loopsim.js fit-changing-args", ...paths, ...(args.out === undefined ? [] : ["--out", args.out, "--force"])].join(" ");
  return { text: JSON.stringify(fitter.finish(command), null, 2) + "\n", read };
}
