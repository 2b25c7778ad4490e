// A grid of reaction models around the stated one, to see which conclusions survive it. Two axes an
// operator can argue about: how often the agent heeds a warning (skips past the loop or ends,
// instead of going on) and how often a blocked call makes it skip past the loop. The rest of each
// signal's odds keeps the stated model's proportions: a heeded warning splits between skip and end
// as the stated model splits them (35:5 by default), and a block not skipped splits between going
// on and ending as stated (30:10). A stop keeps its stated odds. The stated model is always point 0.
//
// Running every agent again at every point would cost the grid's size times the ordinary run. It
// does not need to: a run depends on the reaction model only through the reactions it draws, and
// every agent draws from its own seeded stream (the same uniforms at every point: common random
// numbers). So a run made at one point is the run at any other point under which each of its draws
// picks the same reaction. Most agents never hear the guard, or hear it a few times; their one run
// serves the whole grid, and only runs whose reactions change are made again.
import type { ResolvedConfig } from "../../models/config.js";
import type { ConfigMetrics } from "../evaluation/metrics.js";
import { UserError } from "../io/errors.js";
import type { SimulationSummary } from "../sim/simulate.js";
import type { Target } from "../targets/target.js";
import type { SessionReaction } from "./reaction.js";
import { chooseReaction, runSessionAgent, type SessionAgentRun, type SessionAgentSpec } from "./sessionAgent.js";

/** The two axes' values. */
export interface ReactionGrid {
  /** What the user wrote (default, none, or the axes). */
  readonly spec: string;
  /** Shares of warnings heeded (skip or end), from never (0) to always (1). */
  readonly heed: readonly number[];
  /** Shares of blocks that make the agent skip past the loop. */
  readonly skip: readonly number[];
}

export const DEFAULT_REACTION_GRID_SPEC = "0,0.25,0.5,0.75,1x0,0.25,0.5,0.75,1";

export interface ReactionGridPoint {
  /** Warnings heeded: skip plus end. */
  readonly heed: number;
  /** Blocks skipped past. */
  readonly skip: number;
  readonly reaction: SessionReaction;
  /** The stated model itself (point 0). */
  readonly stated: boolean;
}

function axis(flag: string, text: string): number[] {
  const t = text.trim();
  if (/^\d+$/.test(t)) {
    const n = Number(t);
    if (n < 2 || n > 11) throw new UserError(`${flag}: an axis of N evenly spaced values needs 2 <= N <= 11 (got ${t})`);
    return Array.from({ length: n }, (_, i) => Math.round((i / (n - 1)) * 10_000) / 10_000);
  }
  const values = t.split(",").map((v) => (v.trim() === "" ? Number.NaN : Number(v)));
  if (values.length === 0 || values.some((v) => !Number.isFinite(v) || v < 0 || v > 1)) throw new UserError(`${flag}: "${t}" is not a list of shares between 0 and 1, nor a count of evenly spaced values`);
  if (values.length > 11) throw new UserError(`${flag}: at most 11 values an axis (got ${values.length})`);
  return [...new Set(values)].sort((a, b) => a - b);
}

/** `default`, `none`, or HEEDxSKIP with each axis a count of evenly spaced shares (`5`) or a list (`0,0.5,1`). */
export function parseReactionGrid(spec: string): ReactionGrid | undefined {
  const flag = `--reaction-grid ${spec}`;
  if (spec === "none") return undefined;
  const text = spec === "default" ? DEFAULT_REACTION_GRID_SPEC : spec;
  const parts = text.split("x");
  if (parts.length !== 2) throw new UserError(`${flag}: use default, none, or HEEDxSKIP, e.g. 5x5 or 0,0.5,1x0,1 (warnings heeded x blocks skipped)`);
  return { spec, heed: axis(flag, parts[0] as string), skip: axis(flag, parts[1] as string) };
}

const r6 = (x: number) => Math.round(x * 1_000_000) / 1_000_000;

/** The odds at one point: the stated model with its warning heed share and its block skip share moved, proportions kept. */
export function reactionAt(stated: SessionReaction, heed: number, skip: number): SessionReaction {
  const w = stated.warning;
  const b = stated.block;
  const skipOfHeed = w.skip + w.end === 0 ? 1 : w.skip / (w.skip + w.end);
  const goOnOfRest = b.goOn + b.end === 0 ? 1 : b.goOn / (b.goOn + b.end);
  const wSkip = r6(heed * skipOfHeed);
  const bGoOn = r6((1 - skip) * goOnOfRest);
  return {
    warning: { goOn: r6(1 - heed), skip: wSkip, end: r6(heed - wSkip) },
    block: { goOn: bGoOn, skip, end: r6(1 - skip - bGoOn) },
    stop: stated.stop,
  };
}

/** The stated model first, then heed-major, skip-minor. */
export function gridPoints(stated: SessionReaction, grid: ReactionGrid): ReactionGridPoint[] {
  const points: ReactionGridPoint[] = [{ heed: r6(stated.warning.skip + stated.warning.end), skip: stated.block.skip, reaction: stated, stated: true }];
  for (const heed of grid.heed) for (const skip of grid.skip) points.push({ heed, skip, reaction: reactionAt(stated, heed, skip), stated: false });
  return points;
}

/** Whether `run`'s reactions are the ones `reaction` would have drawn: then it is the run under `reaction` too. */
export function replaysUnder(run: SessionAgentRun, reaction: SessionReaction): boolean {
  return run.reactions.every((r) => chooseReaction(reaction[r.signal], r.draw) === r.reaction);
}

/** Runs made and runs reused, to state the grid's cost. */
export interface GridRunCount {
  made: number;
  reused: number;
}

/**
 * One agent under one guard at every point: runs are made only where no run made so far replays
 * under the point's odds. The first is made at point 0, the stated model, as the ordinary run is.
 */
export function summariesAcrossGrid(agent: SessionAgentSpec, config: ResolvedConfig, target: Target, points: readonly ReactionGridPoint[], count?: GridRunCount): SimulationSummary[] {
  const made: SessionAgentRun[] = [];
  return points.map((p) => {
    const known = made.find((run) => replaysUnder(run, p.reaction));
    if (known !== undefined) {
      if (count !== undefined) count.reused++;
      return known.summary;
    }
    const run = runSessionAgent(agent, config, target, p.reaction);
    made.push(run);
    if (count !== undefined) count.made++;
    return run.summary;
  });
}

export function describeGrid(grid: ReactionGrid): string {
  return `warnings heeded in {${grid.heed.join(", ")}} x blocks skipped in {${grid.skip.join(", ")}} (${grid.heed.length * grid.skip.length} points)`;
}

/** What a report keeps of its grid: the axes, how the rest of each signal's odds splits, and each point's odds. */
export interface ReactionGridSummary {
  readonly spec: string;
  readonly heed: readonly number[];
  readonly skip: readonly number[];
  readonly split: string;
  /** Point 0 is the stated model; then heed-major, skip-minor. */
  readonly points: readonly { readonly heed: number; readonly skip: number; readonly stated: boolean; readonly reaction: SessionReaction }[];
}

export function gridSummary(stated: SessionReaction, grid: ReactionGrid): ReactionGridSummary {
  const w = stated.warning;
  const b = stated.block;
  const split =
    `a heeded warning skips or ends in the stated model's proportion (${w.skip + w.end === 0 ? "all skip" : `${r6(w.skip / (w.skip + w.end))} skip`}), ` +
    `a block not skipped goes on or ends in the stated proportion (${b.goOn + b.end === 0 ? "all go on" : `${r6(b.goOn / (b.goOn + b.end))} go on`}); a stop keeps its stated odds`;
  return { spec: grid.spec, heed: grid.heed, skip: grid.skip, split, points: gridPoints(stated, grid).map((p) => ({ heed: p.heed, skip: p.skip, stated: p.stated, reaction: p.reaction })) };
}

/**
 * The few numbers of a guard's metrics that picks and orderings read, at one grid point:
 * [caught, false-positive rate, false aborts, mean wasted tokens, progressing warned,
 *  progressing stopped wrongly, median wasted tokens, median wasted calls].
 */
export type PointNumbers = readonly number[];

export function pointNumbers(m: ConfigMetrics): PointNumbers {
  return [m.stuck.caughtShare, m.overall.falsePositiveRate, m.recovering.falseAbortShare, m.stuck.wastedTokens.mean, m.progressing.warnedShare, m.progressing.stoppedWronglyShare, m.stuck.wastedTokens.median, m.stuck.wastedCalls.median];
}

/** A guard's numbers across the grid, carried on its row (also in shard partials) until the report is finished. */
export interface RowGrid {
  readonly points: readonly PointNumbers[];
  readonly runs: GridRunCount;
}

export function rowGrids(evaluation: { readonly grid?: { readonly metrics: readonly (readonly ConfigMetrics[])[]; readonly runs: readonly GridRunCount[] } }): RowGrid[] | undefined {
  const g = evaluation.grid;
  if (g === undefined) return undefined;
  return g.runs.map((runs, k) => ({ points: g.metrics.map((perGuard) => pointNumbers(perGuard[k] as ConfigMetrics)), runs }));
}

/** What running the reaction grid cost, in agent runs, against running every point afresh. */
export interface GridCost {
  /** Agent runs of the ordinary evaluation: agents x configs. */
  readonly ordinaryRuns: number;
  /** Runs the grid made beyond those; the rest of the grid's points reused a run already made. */
  readonly extraRuns: number;
  /** What running every point afresh would cost beyond the ordinary runs. */
  readonly naiveExtraRuns: number;
}
