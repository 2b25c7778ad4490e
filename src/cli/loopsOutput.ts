// The command line's half of `loops`: plan (planLoops, the library's own parse), run (runLoops,
// which writes nothing), then write real-loops.{md,json} or a shard's partial into --out and print
// the catalogue; the files skipped as unreadable make the exit 1.
import { join } from "node:path";
import { writeFileAtomic } from "../io/atomicWrite.js";
import { CheckFailed } from "../io/errors.js";
import { badFileLines } from "../import/sessionRefs.js";
import { partialFileName, planLoops, type LoopsArgs } from "../commands/loopsPlan.js";
import { runLoops } from "../commands/loops.js";

const say = (line: string) => process.stderr.write(`loopsim: ${line}\n`);

/** `loopsim loops`: plan, run, then write the catalogue into --out and print it (or the shard's partial). */
export async function loopsCommand(args: LoopsArgs): Promise<void> {
  const plan = planLoops(args);
  const run = await runLoops(plan, { notice: say });
  switch (run.kind) {
    case "partial": {
      if (plan.out === undefined) {
        process.stdout.write(run.text);
        return;
      }
      const file = join(plan.out, partialFileName(run.shard));
      writeFileAtomic(file, run.text);
      say(`wrote shard ${run.shard.index}/${run.shard.of} (${run.sessions} of ${run.listed} sessions) to ${file}; join the parts with loopsim loops --merge ${plan.out}`);
      return;
    }
    case "catalogue": {
      if (plan.out !== undefined) {
        writeFileAtomic(join(plan.out, "real-loops.md"), run.markdown);
        writeFileAtomic(join(plan.out, "real-loops.json"), run.json);
      }
      process.stdout.write(plan.json ? run.json : run.markdown);
      const unknown = run.judgedNotFound;
      if (unknown > 0) say(`${run.judgementsFile ?? ""}: ${unknown} judged stretch id${unknown === 1 ? "" : "s"} not found by this run (listed in the catalogue under "Judged but not found")`);
      const bad = run.unreadable;
      if (bad.length > 0) {
        for (const line of badFileLines(bad)) say(line);
        throw new CheckFailed(`${bad.length} unreadable file${bad.length === 1 ? "" : "s"} skipped; the other ${run.catalogue.summary.sessions} sessions are in the catalogue (--strict stops at the first)`);
      }
      return;
    }
    default: {
      const unhandled: never = run;
      throw new Error(`unhandled loops run ${JSON.stringify(unhandled)}`);
    }
  }
}
