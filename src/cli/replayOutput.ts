// The command line's half of replay: plan (planReplay, the library's own parse), run (runReplay,
// which writes nothing), then rewrite the updated scenario files, print the results, write the
// CI outputs, and exit 2 on an invalid file, 1 on a scenario that did not replay as expected.
import { writeFileAtomic } from "../io/atomicWrite.js";
import { CheckFailed, UserError } from "../io/errors.js";
import { writeCiOutputs } from "../ci/emit.js";
import { planReplay, replayJson, replaySuite, replayText, runReplay, type ReplayArgs } from "../commands/replay.js";

const say = (line: string) => process.stderr.write(`loopsim: ${line}\n`);

/** `loopsim replay`. */
export async function replayCommand(args: ReplayArgs): Promise<void> {
  const plan = await planReplay(args);
  for (const line of plan.notices) say(line);
  const run = await runReplay(plan, say);
  for (const { file, text } of run.updates) writeFileAtomic(file, text);
  const target = plan.options.target;
  if (plan.options.json) process.stdout.write(replayJson(run, target));
  else {
    const { lines, problems } = replayText(run, target);
    // The details before the summary that counts them: the invalid files (stderr) are written
    // first, so a terminal showing both streams never puts "1 invalid" above what is invalid.
    if (problems.length > 0) process.stderr.write(problems.join("\n") + "\n");
    process.stdout.write(lines.join("\n") + "\n");
  }
  const { outcomes, counts } = run;
  writeCiOutputs(plan.options.ci, "loopsim replay", [replaySuite(run, target)], (c) => ({ file: outcomes.find((o) => c.name === o.file || c.name.endsWith(`(${o.file})`))?.file }));
  if (counts.invalid > 0) throw new UserError(`${counts.invalid} scenario file${counts.invalid === 1 ? " is" : "s are"} invalid (see above)`);
  if (counts.fail > 0) {
    const what = target === undefined ? "did not replay as expected" : `${counts.fail === 1 ? "differs" : "differ"} under ${target.name}`;
    throw new CheckFailed(`${counts.fail} scenario${counts.fail === 1 ? "" : "s"} ${what}`);
  }
}
