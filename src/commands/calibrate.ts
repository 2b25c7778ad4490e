// `loopsim calibrate PATH...`: a population and recorded sessions side by side on the statistics
// a loop guard sees (src/calibrate/runStats.ts), with a distance for each. The population's agents
// run without a guard (target `none`), as the recorded agents of the corpus did, so what is
// compared is how agents behave, not what a guard made of them. `--fit --out FILE` fits a
// population to the sessions (src/calibrate/fit.ts), writes it, and checks the fit on a held-out
// half. `--population sessions:PATH` compares real sessions run as agents, injected loops and all.
// `--fit-reaction` fits the reaction odds instead. `planCalibrate` (calibratePlan.ts) parses the
// options once; `runCalibrate` runs the plan into the report and writes nothing; the command line
// (src/cli/calibrateOutput.ts) writes and prints it.
import { dirname, relative, resolve } from "node:path";
import { configFrom } from "../../models/configResolution.js";
import type { ToolEvent } from "../../models/events.js";
import { bootstrap } from "../stats/interval.js";
import { ksDistance, runStats, STATISTIC_NAMES, STATISTICS, type RunStats, type Statistic } from "../calibrate/runStats.js";
import { calibrationMarkdown, DISTANCE_GOAL, WHY_ABOVE, WHY_ABOVE_FITTED, isHeldOut, whyAboveOther, type CalibrationReport, type CalibrationRow, type FailedShare, type HeldOut, type Side } from "../calibrate/report.js";
import { countTools, distances, fitPopulation, ksCritical, simulatedStats } from "../calibrate/fit.js";
import { VERSION } from "../io/version.js";
import { outcomeFailed } from "../import/failure.js";
import { forEachRecordedSession, refuseNoReadable, type RecordedRead } from "../sessions/recorded.js";
import { nearestRank } from "../evaluation/metrics.js";
import type { Population } from "../evaluation/population.js";
import { makeRng } from "../sim/rng.js";
import { FITTED_FAMILY } from "../sim/fittedFamily.js";
import { findBuiltInTarget } from "../targets/registry.js";
import { sessionAgents, type GroundedPopulation } from "../grounded/groundedPopulation.js";
import { runSessionAgent } from "../grounded/sessionAgent.js";
import { fitReaction, reactionFitMarkdown, type ReactionFit } from "../grounded/reactionFit.js";
import type { CalibratePlan } from "./calibratePlan.js";

export type { CalibrationReport } from "../calibrate/report.js";
export { calibrationMarkdown } from "../calibrate/report.js";
export { planCalibrate, type CalibrateArgs, type CalibratePlan } from "./calibratePlan.js";

/** What a calibrate run made; the caller writes and prints it (src/cli/calibrateOutput.ts). */
export type CalibrateRun =
  | {
      readonly kind: "report";
      readonly report: CalibrationReport;
      /** The report as calibration.json and calibration.md hold it. */
      readonly json: string;
      readonly markdown: string;
      /** The sessions read, and the files skipped as unreadable. */
      readonly read: RecordedRead;
      /** With a fit: the population file's text for `out`, and how many candidates the fit tried. */
      readonly fitted?: { readonly file: string; readonly text: string; readonly evaluations: number };
    }
  | {
      readonly kind: "reaction";
      readonly fit: ReactionFit;
      /** The fit as reaction-fit.json and reaction-fit.md hold it. */
      readonly json: string;
      readonly markdown: string;
    };

const round = (x: number) => Math.round(x * 1000) / 1000;
const side = (stats: readonly RunStats[], s: Statistic, name: string): Side => {
  const values = stats.map((r) => r[s]);
  return { runs: stats.length, median: round(nearestRank(values, 0.5)), p90: round(nearestRank(values, 0.9)), medianInterval: bootstrap(values, (xs) => nearestRank(xs, 0.5), `calibrate/${name}/${s}`, round) };
};

class FailedTally {
  failed = 0;
  outcomes = 0;
  add(events: readonly ToolEvent[]): void {
    for (const e of events) {
      if (e.type !== "outcome") continue;
      this.outcomes++;
      if (outcomeFailed(e)) this.failed++;
    }
  }
  share(): FailedShare {
    return { failed: this.failed, outcomes: this.outcomes, share: this.outcomes === 0 ? 0 : Math.round((this.failed / this.outcomes) * 10_000) / 10_000 };
  }
}

/** One recorded session's share of the calibration: its runs' statistics and its calls per tool. */
interface SessionStats {
  readonly id: string;
  readonly runs: RunStats[];
  readonly tools: Map<string, number>;
}

/**
 * Runs a plan (planCalibrate): reads the sessions, runs the population (or fits one, or fits the
 * reaction odds) and returns the report; writes and prints nothing.
 */
export async function runCalibrate(plan: CalibratePlan): Promise<CalibrateRun> {
  switch (plan.kind) {
    case "reaction": {
      const fit = await fitReaction(plan.paths, { strict: plan.strict });
      return { kind: "reaction", fit, json: JSON.stringify({ schema: "loopsim/reaction-fit@1", ...fit }, null, 2) + "\n", markdown: reactionFitMarkdown(fit) };
    }
    case "check":
    case "fit":
      return calibrationOf(plan);
    default: {
      const unhandled: never = plan;
      throw new Error(`unhandled calibrate plan ${JSON.stringify(unhandled)}`);
    }
  }
}

async function calibrationOf(plan: Extract<CalibratePlan, { kind: "check" | "fit" }>): Promise<CalibrateRun> {
  const { args: options, paths, chosen, fittedOn } = plan;
  const sessions: SessionStats[] = [];
  const recordedFailed = new FailedTally();
  const read = await forEachRecordedSession(paths, { strict: plan.strict, given: paths.join(" ") }, (s) => {
    const tools = new Map<string, number>();
    countTools(s.events, tools);
    sessions.push({ id: s.id, runs: runStats(s.events), tools });
    recordedFailed.add(s.events);
  });
  refuseNoReadable(read, paths.join(" "));
  const recorded = sessions.flatMap((s) => s.runs);

  let population: Population | undefined;
  let heldOut: HeldOut | undefined;
  let wrote: string | undefined;
  let fitted: { file: string; text: string; evaluations: number } | undefined;
  if (plan.kind === "fit" && options.out !== undefined) {
    const name = `fitted to ${paths.join(" ")}`;
    const fit = fitPopulation({ runs: recorded, tools: mergeTools(sessions), seed: options.seed, agents: options.agents, name, ...(options.stuckShare === undefined ? {} : { stuckShare: options.stuckShare }) });
    population = fit.population;
    heldOut = heldOutCheck(sessions, options.seed, options.agents);
    const file = resolve(options.out);
    const fileJson = {
      ...population,
      // Relative to the file, so it works from any folder (population files resolve them so).
      fittedOn: { paths: paths.map((p) => relative(dirname(file), resolve(p)) || "."), sessions: read.count, runs: recorded.length, seed: options.seed },
      // Kept with the fit, so checking the file later need not fit the held-out half again.
      heldOut,
    };
    fitted = { file: options.out, text: JSON.stringify(fileJson, null, 2) + "\n", evaluations: fit.evaluations };
    wrote = options.out;
  } else if (chosen?.kind === "simulated") {
    population = chosen.population;
    // A fitted population shows the held-out check its fit made; a file without one is checked again (the same split, by its seed).
    const stored = chosen.population.heldOut;
    if (isHeldOut(stored)) heldOut = stored;
    else if (fittedOn !== undefined) heldOut = heldOutCheck(sessions, fittedOn.seed, options.agents);
  }

  // A fitted population measured on sessions it was not fitted to: the gap is another agent's work, not sampling.
  const sameSessions = (a: readonly string[], b: readonly string[]) => JSON.stringify(a.map((p) => resolve(p)).sort()) === JSON.stringify(b.map((p) => resolve(p)).sort());
  const fittedToOther = plan.kind !== "fit" && fittedOn !== undefined && !sameSessions(fittedOn.paths, paths) ? fittedOn.paths : undefined;

  const simulatedFailed = new FailedTally();
  let simulated: RunStats[];
  let progressing: RunStats[];
  if (population !== undefined) {
    ({ all: simulated, progressing } = simulatedStatsWithFailures(population, options.agents, options.seed, simulatedFailed));
  } else if (chosen?.kind === "sessions") {
    ({ all: simulated, progressing } = await groundedStats(chosen.grounded, options.seed, plan.strict, simulatedFailed));
  } else throw new Error("no population to calibrate");

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
  const populationName = population?.name ?? (chosen?.kind === "sessions" ? chosen.grounded.name : options.population);
  const report: CalibrationReport = {
    schema: "loopsim/calibration@1",
    loopsimVersion: VERSION,
    reproduce: `loopsim calibrate ${options.paths.join(" ")}${options.paths.length > 0 ? " " : ""}--seed ${options.seed} --agents ${options.agents}${plan.kind === "fit" ? ` --fit --out ${options.out}${options.stuckShare === undefined ? "" : ` --stuck-share ${options.stuckShare}`}` : options.population === "default" ? "" : ` --population ${options.population}`}${options.inject === undefined ? "" : ` --inject ${options.inject}`}${options.reaction === undefined ? "" : ` --reaction ${options.reaction}`}`,
    sessions: { paths, files: read.count, runs: recorded.length, unreadable: read.bad },
    simulation: { population: populationName, agents: options.agents, seed: options.seed, kind: population === undefined ? "sessions" : "simulated" },
    rows,
    gapProgressing: mean(rows.map((r) => r.distanceProgressing)),
    gapAll: mean(rows.map((r) => r.distance)),
    aboveGoal: rows.filter((r) => r.distanceProgressing > DISTANCE_GOAL).map((r) => ({ statistic: r.statistic, distance: r.distanceProgressing, why: population === undefined ? "the injected loops are not real work: they repeat by design" : fittedToOther !== undefined ? whyAboveOther(fittedToOther) : population.members.some((m) => m.family === FITTED_FAMILY) ? WHY_ABOVE_FITTED[r.statistic] : WHY_ABOVE[r.statistic] })),
    failedOutcomes: { recorded: recordedFailed.share(), simulated: simulatedFailed.share() },
    ...(heldOut === undefined ? {} : { heldOut }),
    ...(fittedToOther === undefined ? {} : { fittedToOther: { paths: fittedToOther } }),
    ...(wrote === undefined ? {} : { wrote }),
  };
  return { kind: "report", report, json: JSON.stringify(report, null, 2) + "\n", markdown: calibrationMarkdown(report), read, ...(fitted === undefined ? {} : { fitted }) };
}

function mergeTools(sessions: readonly SessionStats[]): Map<string, number> {
  const all = new Map<string, number>();
  for (const s of sessions) for (const [tool, n] of s.tools) all.set(tool, (all.get(tool) ?? 0) + n);
  return all;
}

function simulatedStatsWithFailures(population: Population, agents: number, seed: number, failed: FailedTally): { all: RunStats[]; progressing: RunStats[] } {
  const stats = simulatedStats(population, agents, seed, (events, label) => {
    if (label === "progressing") failed.add(events);
  });
  return { all: stats.all, progressing: stats.progressing };
}

/** Real sessions run as agents without a guard: the recorded runs themselves, and the injected copies as the stuck side. */
async function groundedStats(grounded: GroundedPopulation, seed: number, strict: boolean, failed: FailedTally): Promise<{ all: RunStats[]; progressing: RunStats[] }> {
  const none = findBuiltInTarget("none");
  if (none === undefined) throw new Error("the none target is missing");
  const config = configFrom({});
  const all: RunStats[] = [];
  const progressing: RunStats[] = [];
  await forEachRecordedSession(grounded.paths, { strict }, (session) => {
    for (const agent of sessionAgents(session, grounded.inject, seed)) {
      const run = runSessionAgent(agent, config, none, grounded.reaction);
      if (agent.label === "progressing") failed.add(run.events);
      const stats = runStats(run.events);
      all.push(...stats);
      if (agent.label === "progressing") progressing.push(...stats);
    }
  });
  return { all, progressing };
}

/**
 * The fit checked on sessions it never saw: the sessions are split in two by a seeded draw per
 * session (runs of one session stay together), a population is fitted on one half, and its
 * distances are measured on both.
 */
function heldOutCheck(sessions: readonly SessionStats[], seed: number, agents: number): HeldOut {
  // Split folder by folder, so each half holds as many sessions of each source as the other.
  const folders = new Map<string, SessionStats[]>();
  for (const s of sessions) {
    const folder = s.id.includes("/") ? s.id.slice(0, s.id.lastIndexOf("/")) : "";
    folders.set(folder, [...(folders.get(folder) ?? []), s]);
  }
  const fitHalf: SessionStats[] = [];
  const checkHalf: SessionStats[] = [];
  for (const folder of [...folders.keys()].sort()) {
    const order = (folders.get(folder) ?? []).map((s) => ({ s, key: makeRng(`${seed}:held-out:${s.id}`).next() })).sort((a, b) => a.key - b.key || (a.s.id < b.s.id ? -1 : 1));
    const half = Math.ceil(order.length / 2);
    fitHalf.push(...order.slice(0, half).map((o) => o.s));
    checkHalf.push(...order.slice(half).map((o) => o.s));
  }
  const fitRuns = fitHalf.flatMap((s) => s.runs);
  const checkRuns = checkHalf.flatMap((s) => s.runs);
  const fit = fitPopulation({ runs: fitRuns, tools: mergeTools(fitHalf), seed, agents, name: "held-out fit" });
  const simulated = simulatedStats(fit.population, agents, seed, undefined, true).progressing;
  const inSample = distances(fitRuns, simulated);
  const outSample = distances(checkRuns, simulated);
  return {
    fittedOn: { sessions: fitHalf.length, runs: fitRuns.length },
    checkedOn: { sessions: checkHalf.length, runs: checkRuns.length },
    rows: STATISTIC_NAMES.map((s) => ({ statistic: s, inSample: inSample[s], heldOut: outSample[s], chance: ksCritical(checkRuns.length, simulated.length) })),
    how: `The sessions were split in two halves by a seeded draw per session (seed ${seed}), folder by folder; a population was fitted on the first half as --fit does, and its ${agents} agents' progressing runs compared with each half. Runs of one session are not independent, so where a few sessions hold many runs the halves differ more than "by chance" says.`,
  };
}
