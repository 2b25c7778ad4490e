// `loopsim fit-changing-args PATH...`: fits the changing-args loop (the simulator's
// changing-args-stuck family and the injected changing-args shape) to the stretches mined from
// real sessions, per system, and writes the parameters as JSON (src/sim/changingArgsParams.json
// is this command's output on ../shared/datasets).
import { join } from "node:path";
import { writeFileAtomic } from "../io/atomicWrite.js";
import { refuseOverwrite } from "../io/overwrite.js";
import { failOnUnreadable, forEachRecordedSession } from "../sessions/recorded.js";
import { ChangingArgsFitter } from "../sim/changingArgsFit.js";
import { dirname, basename } from "node:path";

export interface FitChangingArgsOptions {
  readonly out?: string;
  readonly force?: boolean;
  readonly strict?: boolean;
}

export async function fitChangingArgsCommand(paths: readonly string[], options: FitChangingArgsOptions): Promise<void> {
  if (options.out !== undefined) refuseOverwrite(dirname(options.out), [basename(options.out)], options.force === true);
  const fitter = new ChangingArgsFitter();
  const read = await forEachRecordedSession(paths, { strict: options.strict === true, given: `fit-changing-args ${paths.join(" ")}` }, (session) => fitter.session(session.id, session.file, session.events));
  const command = ["node bin/loopsim.js fit-changing-args", ...paths, ...(options.out === undefined ? [] : ["--out", options.out, "--force"])].join(" ");
  const text = JSON.stringify(fitter.finish(command), null, 2) + "\n";
  if (options.out === undefined) process.stdout.write(text);
  else {
    writeFileAtomic(options.out, text);
    process.stderr.write(`loopsim: ${read.count} sessions read; wrote ${join(options.out)}\n`);
  }
  failOnUnreadable(read);
}
