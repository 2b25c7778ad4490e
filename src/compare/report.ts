// The comparison report: one row per guard, the same simulated agents (and recorded sessions)
// for every row. Rendered to Markdown and HTML from this object alone.
import { plural } from "../format/words.js";
import { numberCell, shareCell } from "../stats/interval.js";
import { pct } from "../format/svgScale.js";
import type { ConfigMetrics } from "../evaluation/metrics.js";
import type { Population } from "../evaluation/population.js";
import type { SessionTotals } from "../sessions/openLoop.js";
import type { GroundedSummary } from "../grounded/groundedPopulation.js";
import { familyList } from "../reportParts/familyList.js";
import type { RecordedSummary } from "../sessions/recorded.js";
import type { CompareRow } from "./rows.js";
import { realVsInjected, type RealVsInjected } from "../grounded/realVsInjected.js";
import type { RowGrid } from "../grounded/reactionGrid.js";
import { compareReactionSensitivity, type CompareReactionSensitivity } from "./reactionSensitivity.js";
import type { RealOutcomes } from "../grounded/realOutcomes.js";
import { stretchesRunText } from "../grounded/realLoopAgents.js";

export const COMPARE_SCHEMA = "loopsim/compare-report@1";
export const COMPARE_PARTIAL_SCHEMA = "loopsim/compare-partial@1";

const OPEN_LOOP_CHOICE = "Recorded sessions are replayed open-loop: the recorded agent never saw these verdicts, so after a run's first block or stop the rest of that run counts as cut.";
const CLOSED_LOOP_CHOICE = "Recorded sessions given as the population (sessions:PATH) run closed-loop: each is an agent that replays its own calls and reacts to what the guard says under the stated reaction model.";

/** How the actions of other runtimes' guards are read, printed in every report. */
export const MODELLING_CHOICES: readonly string[] = [
  "A nudge, feedback message or warning for the model is a warning the simulated agent sees (and heeds with its model's probability).",
  "A denied or skipped call is a block: the call does not run and the agent sees the denial.",
  "A stop, STUCK, or a question to the user ends the run. There is no user in a simulation or a replayed session, so a question is never answered: it counts as the end of the run (../shared/targets/peers.md also allows reading it as a block).",
  "A trace's run stands for the unit each runtime counts in: one user prompt, turn, task or assistant message. Simulated agents work in one run.",
  OPEN_LOOP_CHOICE,
  "Peers ignore tools.loopDetection; their thresholds are their own. Each peer's ambiguous points are listed with it below.",
];

export const COMPARE_DEFINITIONS: Readonly<Record<string, string>> = {
  stuckStopped: "stuck agents whose loop a block or a stop ended (they were caught), over all stuck agents",
  loopCallsBeforeStop: "median loop calls a stuck agent ran before the first block or stop (all of them when nothing stopped it)",
  loopTokensBeforeStop: "median tokens (call plus result, about 4 characters a token) of those loop calls",
  progressingStoppedWrongly: "progressing agents blocked on a call outside a loop, or whose run a guard ended",
  warningsPer100Calls: "warnings the agents saw per 100 attempted calls, over every agent",
  escapedAfterWarning: "stuck agents that changed approach after a warning, before any block or stop",
  sessionsFlagged: "recorded sessions with at least one warning, block or stop",
  sessionsStopped: "recorded sessions with at least one block or stop (the rest of that run would have been cut)",
  resolvedStopped: "sessions labelled resolved (the task was solved) that the guard would have blocked or stopped: work it would have cut short",
};

export interface CompareRowResult extends CompareRow {
  readonly notes: readonly string[];
  /** Set when the guard cannot see model text and the report has a text-loop family: those rows are n/a, not 0%. */
  readonly blindToText?: true;
  readonly metrics: ConfigMetrics;
  readonly sessions?: SessionTotals;
  /** Its numbers at each reaction-grid point, until the report is finished. */
  readonly reactionGrid?: RowGrid;
}

export interface CompareInputs {
  readonly loopsimVersion: string;
  readonly seed: number;
  readonly agents: number;
  readonly population: Population;
  readonly rowNames: readonly string[];
  readonly sessions?: RecordedSummary;
  /** When the agents are real sessions run closed-loop (--population sessions:PATH). */
  readonly grounded?: GroundedSummary;
  readonly reproduce: string;
  /** With --loops real: every guard replayed open-loop on the sessions, against their stuck stretches and outcome labels (src/grounded/realOutcomes.ts). */
  readonly realOutcomes?: RealOutcomes;
}

export interface CompareReport extends CompareInputs {
  readonly schema: typeof COMPARE_SCHEMA;
  readonly choices: readonly string[];
  readonly definitions: Readonly<Record<string, string>>;
  readonly rows: readonly CompareRowResult[];
  /** With --loops real: each guard on the mined stretches beside the injected loops, and where they disagree. */
  readonly realLoops?: RealVsInjected;
  /** Which orderings of the guards hold across the reaction grid (--reaction-grid). */
  readonly reactionSensitivity?: CompareReactionSensitivity;
}

export function finishCompare(inputs: CompareInputs, gridRows: readonly CompareRowResult[]): CompareReport {
  const order = new Map(inputs.rowNames.map((n, i) => [n, i]));
  const withGrids = [...gridRows].sort((a, b) => (order.get(a.name) ?? 0) - (order.get(b.name) ?? 0));
  const grid = inputs.grounded?.reactionGrid;
  const grids = withGrids.flatMap((r) => (r.reactionGrid === undefined ? [] : [{ name: r.name, points: r.reactionGrid.points, runs: r.reactionGrid.runs }]));
  const agents = Object.values(inputs.grounded?.agents ?? {}).reduce((a, b) => a + b, 0);
  const sensitivity =
    grid === undefined || grids.length !== withGrids.length
      ? undefined
      : compareReactionSensitivity(grids, grid, { ordinaryRuns: agents * grids.length, extraRuns: grids.reduce((sum, g) => sum + g.runs.made, 0) - agents * grids.length, naiveExtraRuns: agents * grids.length * (grid.points.length - 1) });
  const sorted = withGrids.map((r) => {
    if (r.reactionGrid === undefined) return r;
    const { reactionGrid: _dropped, ...rest } = r;
    return rest;
  });
  const real = inputs.grounded?.loops === undefined ? undefined : realVsInjected(sorted, inputs.grounded.inject.shapes);
  // Each way recorded sessions were used is stated; a way that was not used is not.
  const choices = MODELLING_CHOICES.filter((c) => c !== OPEN_LOOP_CHOICE || inputs.sessions !== undefined || inputs.grounded === undefined);
  if (inputs.grounded !== undefined) choices.splice(choices.indexOf(OPEN_LOOP_CHOICE) === -1 ? choices.length - 1 : choices.indexOf(OPEN_LOOP_CHOICE) + 1, 0, CLOSED_LOOP_CHOICE);
  return { schema: COMPARE_SCHEMA, ...inputs, choices, definitions: COMPARE_DEFINITIONS, rows: sorted, ...(real === undefined ? {} : { realLoops: real }), ...(sensitivity === undefined ? {} : { reactionSensitivity: sensitivity }) };
}


/** Why a guard has no number on a family whose loop is in the model's text alone. */
export const TEXT_BLIND_REASON = "cannot see model text";

/** The families whose loop is model text (the simulator's and the injected shape). */
export const isTextFamily = (family: string): boolean => family === "text-loop" || family === "inject:text-loop";

/** The reason a guard's cell on a family is n/a, or undefined when it has a number. */
export function familyNa(r: Pick<CompareRowResult, "blindToText">, family: string): string | undefined {
  return r.blindToText === true && isTextFamily(family) ? TEXT_BLIND_REASON : undefined;
}

/** The headline cells of a row, shared by Markdown and HTML. */
export function headline(r: CompareRowResult): Record<string, string> {
  const m = r.metrics;
  return {
    guard: r.name,
    "stuck stopped [95%]": shareCell(m.stuck.caughtShare, m.intervals?.caughtShare),
    "loop calls before stop (median) [95%]": numberCell(m.stuck.wastedCalls.median, m.intervals?.wastedCallsMedian),
    "loop tokens before stop (median) [95%]": numberCell(m.stuck.wastedTokens.median, m.intervals?.wastedTokensMedian),
    "progressing stopped wrongly [95%]": shareCell(m.progressing.stoppedWronglyShare, m.intervals?.stoppedWronglyShare),
    "warnings per 100 calls": String(m.overall.warningsPer100Calls),
    "escaped after a warning [95%]": shareCell(m.stuck.escapedShare, m.intervals?.escapedShare),
  };
}

export function sessionCells(r: CompareRowResult, labels: readonly string[]): Record<string, string> {
  const s = r.sessions;
  if (s === undefined) return {};
  const cells: Record<string, string> = { guard: r.name, "flagged [95%]": shareCell(s.flaggedShare, s.intervals?.flaggedShare), "stopped [95%]": shareCell(s.stoppedShare, s.intervals?.stoppedShare), "calls cut": pct(s.cutCallsShare), "tokens cut": pct(s.cutTokensShare) };
  for (const label of labels) {
    const l = s.byLabel[label];
    cells[`${label}: stopped`] = l === undefined ? "-" : `${l.stopped}/${l.sessions}`;
  }
  return cells;
}

/** The families a report's rows have numbers for: the simulator's, then the fitted family, real sessions and each injected shape. */
export function familiesIn(report: CompareReport): { readonly name: string; readonly label: string }[] {
  return familyList(report.rows.map((r) => r.metrics.byFamily), false);
}

/** Who the numbers are about, in one sentence. */
export function populationSentence(report: CompareReport): string {
  const g = report.grounded;
  if (g !== undefined) return `${plural(g.sessions, "real session")} run as closed-loop agents per guard (${Object.values(g.agents).reduce((a, b) => a + b, 0)} agents with the injected copies: ${g.inject.shapes.length === 0 ? "none injected" : `${g.inject.shapes.join(", ")}, ${g.inject.lengths.distribution}`}), population \`${report.population.name}\`${g.loops === undefined ? "" : `, and the stuck stretches mined from them (--loops real, ${stretchesRunText(g.agents.real ?? 0, g.loops)}) as stuck agents too`}; reaction: ${g.reactionText}`;
  return `${report.agents} simulated agents per guard (${report.population.calls} calls each), population \`${report.population.name}\``;
}
