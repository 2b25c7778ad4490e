// The `loops` command's options: a thin layer over the library's planLoops and runLoops
// (src/commands/loopsPlan.ts, src/commands/loops.ts); loopsOutput.ts writes and prints.
import type { Command } from "commander";
import type { LoopsArgs } from "../commands/loopsPlan.js";
import { MAX_LOOPS_MIN, MAX_WORKERS } from "../io/limits.js";
import { boundedInt } from "./options.js";

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function registerLoopsCommand(program: Command): void {
  program
    .command("loops")
    .description("find stuck stretches in recorded sessions by a definition of no guard's: identical repeats, failing runs and alternations, and loops whose args change (the same failure, the same refusal, calls with no effect); a catalogue with a summary")
    .argument("[paths...]", "session files, traces, or folders of them (.gz too)")
    .option("--json", "print the JSON catalogue")
    .option("--out <dir>", "write real-loops.{md,json} here (a judgements.json already there is read, as with --judgements)")
    .option("--min <n>", "calls a repeat, a failing run, a same-failure chain or a no-effect run needs (an alternation twice as many); default 3 (alternation 6)", boundedInt("--min", MAX_LOOPS_MIN))
    .option("--labels <file>", "a labels file published with a dataset (flat, nested run -> instance, or run ids), for the by-label counts only; repeat for several datasets", collect)
    .option("--judgements <file>", "a reading ({criteria, judgements: {ID: {verdict, reason}}, sessions?: {REF: {calls, stuck: [{from, to, reason}]}}}): adds each verdict, the precision and the recall")
    .option("--shard <i/n>", "mine shard I of N of the sessions (every N-th of the listing; or auto, auto/N) and write loops-partial-I-of-N.json for --merge")
    .option("--merge <parts...>", "join the partials of --shard I/N (files, or the folder holding them) into the whole run's catalogue")
    .option("--strict", "stop at the first unreadable file (default: report it, go on, exit 1)")
    .option("--force", "overwrite real-loops.{md,json} (or the shard's partial) already in --out")
    .option("--workers <n>", "threads that read and mine the sessions; default: one per core (the catalogue is the same bytes for any number)", boundedInt("--workers", MAX_WORKERS))
    .action(async (paths: string[], opts: Omit<LoopsArgs, "paths">) => {
      const { loopsCommand } = await import("./loopsOutput.js");
      await loopsCommand({ ...opts, paths });
    });
}

