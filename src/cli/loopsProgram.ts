// The `loops` command's options: a thin layer over src/commands/loops.ts.
import type { Command } from "commander";
import { boundedInt } from "./options.js";

/** Longest repeat a user may ask for: far above any stretch worth reading. */
const MAX_MIN = 10_000;

export function registerLoopsCommand(program: Command): void {
  program
    .command("loops")
    .description("find stuck stretches in recorded sessions by a definition of no guard's: repeats with nothing new, runs of one failing command, alternations; a catalogue with a summary")
    .argument("<paths...>", "session files, traces, or folders of them")
    .option("--json", "print the JSON catalogue")
    .option("--out <dir>", "write real-loops.{md,json} here (a judgements.json already there is read, as with --judgements)")
    .option("--min <n>", "calls a repeat or a failing run needs (an alternation twice as many); default 3 (alternation 6)", boundedInt("--min", MAX_MIN))
    .option("--judgements <file>", "a reading of the stretches ({criteria, judgements: {ID: {verdict, reason}}}): adds each verdict and the precision")
    .option("--strict", "stop at the first unreadable file (default: report it, go on, exit 1)")
    .option("--force", "overwrite real-loops.{md,json} already in --out")
    .action(async (paths: string[], opts: { json?: boolean; out?: string; min?: number; judgements?: string; strict?: boolean; force?: boolean }) => {
      const { loopsCommand } = await import("../commands/loops.js");
      await loopsCommand(paths, { json: opts.json === true, strict: opts.strict === true, force: opts.force === true, ...(opts.out === undefined ? {} : { out: opts.out }), ...(opts.min === undefined ? {} : { min: opts.min }), ...(opts.judgements === undefined ? {} : { judgements: opts.judgements }) });
    });
}
