// The command line's half of `calibrate`: plan (planCalibrate, the library's own parse), run
// (runCalibrate, which writes nothing), then write the fitted population, calibration.{json,md} or
// reaction-fit.{json,md} and print the report; files skipped as unreadable make the exit 1.
import { join } from "node:path";
import { writeFileAtomic } from "../io/atomicWrite.js";
import { planCalibrate, runCalibrate, type CalibrateArgs } from "../commands/calibrate.js";
import { failOnUnreadable } from "../sessions/recorded.js";

const say = (line: string) => process.stderr.write(`loopsim: ${line}\n`);

/** `loopsim calibrate`. */
export async function calibrateCommand(args: CalibrateArgs): Promise<void> {
  const plan = planCalibrate(args);
  const run = await runCalibrate(plan);
  switch (run.kind) {
    case "reaction":
      if (plan.out !== undefined) {
        writeFileAtomic(join(plan.out, "reaction-fit.json"), run.json);
        writeFileAtomic(join(plan.out, "reaction-fit.md"), run.markdown);
      }
      process.stdout.write(plan.json ? run.json : run.markdown);
      return;
    case "report":
      if (run.fitted !== undefined) {
        writeFileAtomic(run.fitted.file, run.fitted.text);
        say(`wrote the fitted population to ${run.fitted.file} (${run.fitted.evaluations} candidates tried)`);
      } else if (plan.out !== undefined) {
        writeFileAtomic(join(plan.out, "calibration.json"), run.json);
        writeFileAtomic(join(plan.out, "calibration.md"), run.markdown);
        say(`wrote ${join(plan.out, "calibration.{json,md}")}`);
      }
      process.stdout.write(plan.json ? run.json : run.markdown);
      failOnUnreadable(run.read);
      return;
    default: {
      const unhandled: never = run;
      throw new Error(`unhandled calibrate run ${JSON.stringify(unhandled)}`);
    }
  }
}
