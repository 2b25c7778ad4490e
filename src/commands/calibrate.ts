// `loopsim calibrate PATH...`: the simulated population and recorded sessions side by side on
// the statistics a loop guard sees (src/calibrate/runStats.ts), with a distance for each. The
// simulated agents run without a guard (target `none`), as the recorded agents of the corpus did,
// so what is compared is how agents behave, not what a guard made of them.
import { join } from "node:path";
import { configFrom } from "../../models/configResolution.js";
import { bootstrap, type Interval } from "../stats/interval.js";
import { ksDistance, runStats, STATISTIC_NAMES, STATISTICS, type RunStats, type Statistic } from "../calibrate/runStats.js";
import { VERSION } from "../io/version.js";
import { writeFileAtomic } from "../io/atomicWrite.js";
import { refuseOverwrite } from "../io/overwrite.js";
import { ensureWritableDir } from "../io/writable.js";
import { forEachRecordedSession, failOnUnreadable } from "../sessions/recorded.js";
import type { BadFile } from "../import/sessionRefs.js";
import { simulate } from "../sim/simulate.js";
import { findBuiltInTarget } from "../targets/registry.js";
import { nearestRank } from "../evaluation/metrics.js";
import { loadPopulation, populationAgents } from "../evaluation/population.js";

export interface CalibrateOptions {
  readonly paths: readonly string[];
  readonly population: string;
  readonly agents: number;
  readonly seed: number;
  readonly out?: string;
  readonly json: boolean;
  /** Stop at the first unreadable file instead of reporting it and going on. */
  readonly strict?: boolean;
  readonly force?: boolean;
}

interface Side {
  readonly runs: number;
  readonly median: number;
  readonly p90: number;
  /** The median's 95% interval (seeded bootstrap over runs). */
  readonly medianInterval: Interval;
}

export interface CalibrationRow {
  readonly statistic: Statistic;
  readonly definition: string;
  readonly recorded: Side;
  readonly simulated: Side;
  readonly simulatedProgressing: Side;
  /** Kolmogorov-Smirnov distance, recorded against all simulated agents / the progressing ones. */
  readonly distance: number;
  readonly distanceProgressing: number;
}

export interface CalibrationReport {
  readonly schema: "loopsim/calibration@1";
  readonly loopsimVersion: string;
  readonly reproduce: string;
  readonly sessions: { readonly paths: readonly string[]; readonly files: number; readonly runs: number; readonly unreadable: readonly BadFile[] };
  readonly simulation: { readonly population: string; readonly agents: number; readonly seed: number };
  readonly rows: readonly CalibrationRow[];
  /** Mean distance over the statistics, against the progressing families: the gap that remains. */
  readonly gapProgressing: number;
  readonly gapAll: number;
}

const round = (x: number) => Math.round(x * 1000) / 1000;
const side = (stats: readonly RunStats[], s: Statistic, name: string): Side => {
  const values = stats.map((r) => r[s]);
  return { runs: stats.length, median: round(nearestRank(values, 0.5)), p90: round(nearestRank(values, 0.9)), medianInterval: bootstrap(values, (xs) => nearestRank(xs, 0.5), `calibrate/${name}/${s}`, round) };
};

export async function calibrateCommand(options: CalibrateOptions): Promise<void> {
  if (options.out !== undefined) {
    ensureWritableDir(options.out);
    refuseOverwrite(options.out, ["calibration.json", "calibration.md"], options.force === true);
  }
  const recorded: RunStats[] = [];
  const read = await forEachRecordedSession(options.paths, { strict: options.strict === true }, (s) => {
    recorded.push(...runStats(s.events));
  });
  const population = loadPopulation(options.population);
  const none = findBuiltInTarget("none");
  if (none === undefined) throw new Error("the none target is missing");
  const config = configFrom({});
  const simulated: RunStats[] = [];
  const progressing: RunStats[] = [];
  for (const agent of populationAgents(population, options.agents, options.seed)) {
    const result = simulate({ family: agent.family, seed: agent.seed, calls: population.calls, model: agent.model }, config, none);
    const stats = runStats(result.events);
    simulated.push(...stats);
    if (agent.label === "progressing") progressing.push(...stats);
  }
  const rows: CalibrationRow[] = STATISTIC_NAMES.map((s) => ({
    statistic: s,
    definition: STATISTICS[s],
    recorded: side(recorded, s, "recorded"),
    simulated: side(simulated, s, "simulated"),
    simulatedProgressing: side(progressing, s, "progressing"),
    distance: ksDistance(recorded.map((r) => r[s]), simulated.map((r) => r[s])),
    distanceProgressing: ksDistance(recorded.map((r) => r[s]), progressing.map((r) => r[s])),
  }));
  const mean = (xs: number[]) => round(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length));
  const report: CalibrationReport = {
    schema: "loopsim/calibration@1",
    loopsimVersion: VERSION,
    reproduce: `loopsim calibrate ${options.paths.join(" ")} --seed ${options.seed} --agents ${options.agents}${options.population === "default" ? "" : ` --population ${options.population}`}`,
    sessions: { paths: options.paths, files: read.count, runs: recorded.length, unreadable: read.bad },
    simulation: { population: population.name, agents: options.agents, seed: options.seed },
    rows,
    gapProgressing: mean(rows.map((r) => r.distanceProgressing)),
    gapAll: mean(rows.map((r) => r.distance)),
  };
  const json = JSON.stringify(report, null, 2) + "\n";
  if (options.out !== undefined) {
    writeFileAtomic(join(options.out, "calibration.json"), json);
    writeFileAtomic(join(options.out, "calibration.md"), calibrationMarkdown(report));
    process.stderr.write(`loopsim: wrote ${join(options.out, "calibration.{json,md}")}\n`);
  }
  process.stdout.write(options.json ? json : calibrationMarkdown(report));
  failOnUnreadable(read);
}

export function calibrationMarkdown(r: CalibrationReport): string {
  const cell = (s: Side) => `${s.median} [${s.medianInterval.low}-${s.medianInterval.high}] (p90 ${s.p90})`;
  return [
    "# loopsim calibration: simulated agents against recorded sessions",
    "",
    `loopsim ${r.loopsimVersion}. Recorded: ${r.sessions.runs} runs in ${r.sessions.files} sessions from ${r.sessions.paths.map((p) => `\`${p}\``).join(", ")}. Simulated: ${r.simulation.agents} agents of population \`${r.simulation.population}\`, seed ${r.simulation.seed}, run without a guard (target \`none\`), as the recorded agents were.`,
    "",
    `Reproduce: \`${r.reproduce}\``,
    "",
    "Distance: Kolmogorov-Smirnov, the largest gap between the two distributions (0: the same, 1: disjoint). Medians and p90 are nearest-rank; brackets are the medians' 95% intervals (a seeded percentile bootstrap over runs), and each side's number of runs is in the table.",
    "",
    `| statistic | recorded median [95%] (p90), n=${r.rows[0]?.recorded.runs ?? 0} runs | simulated, all families, n=${r.rows[0]?.simulated.runs ?? 0} | simulated, progressing families, n=${r.rows[0]?.simulatedProgressing.runs ?? 0} | distance (all) | distance (progressing) |`,
    "|---|---|---|---|---|---|",
    ...r.rows.map((row) => `| ${row.statistic} | ${cell(row.recorded)} | ${cell(row.simulated)} | ${cell(row.simulatedProgressing)} | ${row.distance} | ${row.distanceProgressing} |`),
    "",
    `**The gap that remains**: a mean distance of ${r.gapProgressing} between the progressing families and recorded work (${r.gapAll} against all families, stuck ones included).`,
    "",
    "## Definitions",
    "",
    ...r.rows.map((row) => `- **${row.statistic}**: ${row.definition}.`),
    "",
  ].join("\n");
}
