// The command line's half of `targets outdated`: ask (outdatedTargets, which prints nothing), then
// print the rows and exit 1 when a runtime has a version no committed report covers.
import { CheckFailed } from "../io/errors.js";
import { outdatedTargets, outdatedText } from "../commands/targetsOutdated.js";

/** `loopsim targets outdated`. */
export async function targetsOutdatedCommand(options: { json: boolean; reportsDir?: string }): Promise<void> {
  const report = await outdatedTargets(options.reportsDir === undefined ? {} : { reportsDir: options.reportsDir }, (line) => process.stderr.write(`loopsim: ${line}\n`));
  const { rows, stale } = report;
  process.stdout.write(options.json ? JSON.stringify({ reports: report.reports, rows }, null, 2) + "\n" : outdatedText(report));
  if (stale.length > 0) throw new CheckFailed(`${stale.length} of ${rows.length} have versions the committed reports do not cover: ${stale.map((r) => r.subject).join("; ")}`);
}
