// The calibration report: recorded runs and a population side by side on the statistics a loop
// guard sees, the distance of each, the verdict against the 0.15 goal (each statistic above it
// named with why), the pooled failure share, and, after a fit, the held-out half's distances.
import type { Interval } from "../stats/interval.js";
import type { BadFile } from "../import/sessionRefs.js";
import { STATISTICS, type Statistic } from "./runStats.js";

/** The distance every statistic of a calibrated population should stay under. */
export const DISTANCE_GOAL = 0.15;

export interface Side {
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

export interface FailedShare {
  readonly failed: number;
  readonly outcomes: number;
  readonly share: number;
}

export interface HeldOut {
  readonly fittedOn: { readonly sessions: number; readonly runs: number };
  readonly checkedOn: { readonly sessions: number; readonly runs: number };
  readonly rows: readonly { readonly statistic: Statistic; readonly inSample: number; readonly heldOut: number; readonly chance: number }[];
  readonly how: string;
}

/** Whether a population file's `heldOut` is one calibrate --fit wrote (else it is measured again). */
export function isHeldOut(value: unknown): value is HeldOut {
  const h = value as HeldOut;
  return (
    typeof value === "object" && value !== null && typeof h.how === "string" && typeof h.fittedOn?.runs === "number" && typeof h.checkedOn?.runs === "number" &&
    Array.isArray(h.rows) && h.rows.every((r) => typeof r === "object" && r !== null && typeof r.statistic === "string" && typeof r.inSample === "number" && typeof r.heldOut === "number" && typeof r.chance === "number")
  );
}

/** `calibrate`'s report (calibration.json): the population beside the sessions on each statistic, with the distances and why they stay. */
export interface CalibrationReport {
  readonly schema: "loopsim/calibration@1";
  readonly loopsimVersion: string;
  readonly reproduce: string;
  readonly sessions: { readonly paths: readonly string[]; readonly files: number; readonly runs: number; readonly unreadable: readonly BadFile[] };
  readonly simulation: { readonly population: string; readonly agents: number; readonly seed: number; readonly kind: "simulated" | "sessions" };
  readonly rows: readonly CalibrationRow[];
  /** Mean distance over the statistics, against the progressing families: the gap that remains. */
  readonly gapProgressing: number;
  readonly gapAll: number;
  /** Statistics whose progressing distance is above the goal, each with why. */
  readonly aboveGoal: readonly { readonly statistic: Statistic; readonly distance: number; readonly why: string }[];
  /** Failed outcomes pooled over every run: the importers' one definition of failure. */
  readonly failedOutcomes: { readonly recorded: FailedShare; readonly simulated: FailedShare };
  readonly heldOut?: HeldOut;
  /**
   * A fitted population checked against sessions other than those it was fitted to (another
   * agent's, say): the sessions it was fitted to. The distances then measure how the two bodies of
   * work differ, and the held-out check speaks of the fitted sessions, not of these.
   */
  readonly fittedToOther?: { readonly paths: readonly string[] };
  /** Where the fitted population was written (calibrate --fit). */
  readonly wrote?: string;
}

/** Why a statistic can stay far from recorded work: what in the population shapes it. */
export const WHY_ABOVE: Readonly<Record<Statistic, string>> = {
  callsPerRun: "run lengths of the hand-written families are set by hand; only the fitted family draws them from the corpus",
  distinctTools: "the hand-written families use one to three tools each; the fitted family draws the number from the corpus",
  repeatedArgsShare: "the hand-written families repeat calls by design (polls, edit/test cycles, re-reads), far more than recorded work; the fitted family draws the share from the corpus",
  longestSameArgsStreak: "streaks are not drawn directly: they come from the repeated share and how often a repeat is of the call just made, which the fit sets in steps of 0.1",
  identicalResultRepeats: "not drawn directly: it comes from the repeats and how often a repeat brings back the same result, which the fit sets in steps of 0.1",
  pingPongShare: "not drawn directly: it comes from how often a repeat is of the call two before, which the fit sets in steps of 0.1",
  errorRate: "the hand-written families fail by design (flaky APIs, failing builds) or never; the fitted family draws the share from the corpus",
  resultTokens: "the hand-written families return short texts; real tools return files and logs; the fitted family draws the size from the corpus",
};

/**
 * Why a statistic is far when the population was fitted to other sessions than those given: the
 * fit copied another body of work, so sampling is not the first suspect.
 */
export function whyAboveOther(fittedTo: readonly string[]): string {
  return `the population was fitted to other sessions (${fittedTo.join(", ")}): their agent works differently from the one recorded here, and the fit follows the work it was fitted to; fit to these sessions (calibrate --fit) to close the gap`;
}

/** The same, for a population with the fitted family: what the fit does not pin down. */
export const WHY_ABOVE_FITTED: Readonly<Record<Statistic, string>> = {
  callsPerRun: "drawn from the corpus's quantiles, so off only by sampling: few recorded runs make the distance move in large steps",
  distinctTools: "drawn with the run length (long runs use more tools); where the corpus pairs them otherwise, the draw cannot follow",
  repeatedArgsShare: "drawn from the corpus's quantiles, but a run's share moves in steps of 1/calls and is paired with run lengths independently",
  longestSameArgsStreak: WHY_ABOVE.longestSameArgsStreak,
  identicalResultRepeats: WHY_ABOVE.identicalResultRepeats,
  pingPongShare: WHY_ABOVE.pingPongShare,
  errorRate: "drawn from the corpus's quantiles, but a run's rate moves in steps of 1/calls and is paired with run lengths independently: short runs make it coarse",
  resultTokens: "drawn from the corpus's quantiles; a run's median of a few results scatters around the drawn size",
};

const round = (x: number) => Math.round(x * 1000) / 1000;

export function calibrationMarkdown(r: CalibrationReport): string {
  const cell = (s: Side) => `${s.median} [${s.medianInterval.low}-${s.medianInterval.high}] (p90 ${s.p90})`;
  const pct = (f: FailedShare) => `${f.failed} of ${f.outcomes} (${round(f.share * 100)}%)`;
  const simulatedWhat = r.simulation.kind === "sessions" ? `real sessions run as agents (population \`${r.simulation.population}\`, with its injected copies)` : `${r.simulation.agents} agents of population \`${r.simulation.population}\``;
  return [
    "# loopsim calibration: simulated agents against recorded sessions",
    "",
    `loopsim ${r.loopsimVersion}. Recorded: ${r.sessions.runs} runs in ${r.sessions.files} sessions from ${r.sessions.paths.map((p) => `\`${p}\``).join(", ")}. Simulated: ${simulatedWhat}, seed ${r.simulation.seed}, run without a guard (target \`none\`), as the recorded agents were.`,
    "",
    `Reproduce: \`${r.reproduce}\``,
    ...(r.wrote === undefined ? [] : ["", `Wrote the fitted population to \`${r.wrote}\`; \`loopsim calibrate --population ${r.wrote}\` prints this table again, and \`loopsim tune --population ${r.wrote}\` tunes on it.`]),
    "",
    "Distance: Kolmogorov-Smirnov, the largest gap between the two distributions (0: the same, 1: disjoint). Medians and p90 are nearest-rank; brackets are the medians' 95% intervals (a seeded percentile bootstrap over runs), and each side's number of runs is in the table.",
    "",
    `| statistic | recorded median [95%] (p90), n=${r.rows[0]?.recorded.runs ?? 0} runs | simulated, all families, n=${r.rows[0]?.simulated.runs ?? 0} | simulated, progressing families, n=${r.rows[0]?.simulatedProgressing.runs ?? 0} | distance (all) | distance (progressing) |`,
    "|---|---|---|---|---|---|",
    ...r.rows.map((row) => `| ${row.statistic} | ${cell(row.recorded)} | ${cell(row.simulated)} | ${cell(row.simulatedProgressing)} | ${row.distance} | ${row.distanceProgressing} |`),
    "",
    r.aboveGoal.length === 0
      ? `**Every statistic is within ${DISTANCE_GOAL}** of the recorded runs (progressing agents; largest distance ${round(Math.max(...r.rows.map((row) => row.distanceProgressing)))}).`
      : `**${r.aboveGoal.length} of ${r.rows.length} statistics are above ${DISTANCE_GOAL}** (progressing agents):`,
    ...r.aboveGoal.map((a) => `- ${a.statistic} (${a.distance}): ${a.why}.`),
    "",
    `The gap that remains: a mean distance of ${r.gapProgressing} between the progressing agents and recorded work (${r.gapAll} against all agents, stuck ones included: the stuck families loop by design, so the "all" column measures how much of the population is loops, not how well it matches).`,
    "",
    `Failed outcomes (an error, a non-zero exit code or a timeout: the importers' one definition), pooled over every call: recorded ${pct(r.failedOutcomes.recorded)}, simulated progressing agents ${pct(r.failedOutcomes.simulated)}.${(r.rows.find((row) => row.statistic === "errorRate")?.recorded.median ?? 0) === 0 ? " The errorRate row is per run, so its median is 0 where most runs have no failure." : ""}`,
    ...(r.heldOut === undefined
      ? []
      : [
          "",
          r.fittedToOther === undefined ? "## Held-out check" : "## Held-out check of the fit (on the sessions it was fitted to)",
          "",
          ...(r.fittedToOther === undefined
            ? []
            : [`This check belongs to the fit, on the sessions it was fitted to (${r.fittedToOther.paths.map((p) => `\`${p}\``).join(", ")}), not to the sessions above: it says how well the fit holds on its own kind of work. The distances above are how far that work is from these sessions.`, ""]),
          `${r.heldOut.how} Fitted on ${r.heldOut.fittedOn.runs} runs (${r.heldOut.fittedOn.sessions} sessions); checked on the other ${r.heldOut.checkedOn.runs} runs (${r.heldOut.checkedOn.sessions} sessions). "By chance" is the distance two samples of these sizes from one distribution exceed only 5% of the time: a held-out distance under it is no evidence of a misfit.`,
          "",
          "| statistic | distance on the half fitted on | distance on the held-out half | by chance (95%) |",
          "|---|---|---|---|",
          ...r.heldOut.rows.map((h) => `| ${h.statistic} | ${h.inSample} | ${h.heldOut} | ${h.chance} |`),
        ]),
    "",
    "## Definitions",
    "",
    ...r.rows.map((row) => `- **${row.statistic}**: ${STATISTICS[row.statistic]}.`),
    "",
  ].join("\n");
}
