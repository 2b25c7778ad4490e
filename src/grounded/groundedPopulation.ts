// A population grounded in real sessions (`--population sessions:PATH`): every recorded session
// under the path is a closed-loop agent (sessionAgent.ts) doing its own, progressing work, and,
// with --inject, one more copy of it per injected loop shape (injection.ts) whose injected stretch
// is stuck. Each guard config runs every agent; the tuning metrics are the simulator's, so the
// catch rate, waste and good work stopped are measured on real backgrounds. Sessions stream: each
// is read, run under every config, and dropped; only the summaries stay.
import { configFrom } from "../../models/configResolution.js";
import { computeMetrics, type ConfigMetrics } from "../evaluation/metrics.js";
import type { SimulationSummary } from "../sim/simulate.js";
import { forEachRecordedSession, type ReadOptions, type RecordedRead, type RecordedSession } from "../sessions/recorded.js";
import type { Target } from "../targets/target.js";
import { injectLoop, recordedScript, SHAPE_SUMMARIES, type InjectSpec } from "./injection.js";
import { describeReaction, type SessionReaction } from "./reaction.js";
import { MAX_REAL_PER_SESSION, REAL_LOOPS_SUMMARY, realLoopsOf, type LoopsChoice } from "./realLoopAgents.js";
import { gridPoints, gridSummary, summariesAcrossGrid, type GridRunCount, type ReactionGrid, type ReactionGridPoint, type ReactionGridSummary } from "./reactionGrid.js";
import { runSessionAgent, type SessionAgentSpec } from "./sessionAgent.js";

export const SESSIONS_PREFIX = "sessions:";

export interface GroundedPopulation {
  readonly name: string;
  readonly paths: readonly string[];
  readonly inject: InjectSpec;
  readonly reaction: SessionReaction;
  /** `real`: the stuck stretches mined from the sessions are stuck agents too (realLoopAgents.ts). */
  readonly loops?: LoopsChoice;
  /** Reaction models to run every agent under as well (reactionGrid.ts); absent: the stated one only. */
  readonly reactionGrid?: ReactionGrid;
}

/** The family every un-injected session agent is counted under. */
export const SESSION_FAMILY = "session";
export const injectedFamily = (shape: string) => `inject:${shape}`;

/** Agents a session can give: itself, one per injected shape, and with --loops real one per mined stretch (at most). */
export const agentsPerSession = (inject: InjectSpec, loops: LoopsChoice | undefined): number => 1 + inject.shapes.length + (loops === "real" ? MAX_REAL_PER_SESSION : 0);

/**
 * The agents one session gives: itself, then one injected copy per shape, then (--loops real) one
 * per mined stretch; and with --loops real how many stretches the miner found in it (the
 * catalogue's share, of which at most MAX_REAL_PER_SESSION run; 0 without), from one mining.
 */
export function sessionAgentsAndStretches(session: Pick<RecordedSession, "id" | "events">, inject: InjectSpec, seed: number, loops?: LoopsChoice): { readonly agents: SessionAgentSpec[]; readonly mined: number } {
  const real = loops === "real" ? realLoopsOf(session, seed) : undefined;
  const agents: SessionAgentSpec[] = [{ family: SESSION_FAMILY, label: "progressing", name: `${session.id}:recorded`, seed, script: real?.script ?? recordedScript(session.events) }];
  for (const shape of inject.shapes) {
    const injected = injectLoop(session.events, shape, inject.lengths, seed, session.id);
    agents.push({ family: injectedFamily(shape), label: "stuck", name: `${session.id}:${shape}`, seed, script: injected.events });
  }
  if (real !== undefined) agents.push(...real.agents);
  return { agents, mined: real?.mined ?? 0 };
}

/** The agents one session gives (sessionAgentsAndStretches without the count). */
export const sessionAgents = (session: Pick<RecordedSession, "id" | "events">, inject: InjectSpec, seed: number, loops?: LoopsChoice): SessionAgentSpec[] => sessionAgentsAndStretches(session, inject, seed, loops).agents;

export interface GuardUnderTest {
  readonly index: number;
  readonly target: Target;
  readonly block: Record<string, unknown>;
}

export interface GroundedEvaluation {
  /** Per guard, in the order given. */
  readonly metrics: readonly ConfigMetrics[];
  /** Every agent's packed results, for a shard by session to write (the merge measures them). */
  readonly packed?: GroundedPacked;
  readonly read: RecordedRead;
  /** Agents per family (the same for every guard). */
  readonly agents: Readonly<Record<string, number>>;
  /** With --loops real: the stretches the miner found in the sessions read (the catalogue), those left out past MAX_REAL_PER_SESSION a session included. */
  readonly minedStretches?: number;
  /** With a reaction grid: the metrics at each point (point 0 is the stated model, `metrics` above). */
  readonly grid?: GroundedGridEvaluation;
}

export interface GroundedGridEvaluation {
  readonly points: readonly ReactionGridPoint[];
  /** Per point, per guard; intervals without the bootstrap except at point 0. */
  readonly metrics: readonly (readonly ConfigMetrics[])[];
  /** Per guard: agent runs made and reused over the grid (the ordinary evaluation makes one per agent). */
  readonly runs: readonly GridRunCount[];
}

export async function evaluateGrounded(population: GroundedPopulation, guards: readonly GuardUnderTest[], seed: number, options: ReadOptions, onSession?: () => void): Promise<GroundedEvaluation> {
  const configs = guards.map((g) => configFrom(g.block));
  const points = population.reactionGrid === undefined ? undefined : gridPoints(population.reaction, population.reactionGrid);
  if (points !== undefined) {
    const tallies = points.map(() => new GroundedTally(guards));
    const runs: GridRunCount[] = guards.map(() => ({ made: 0, reused: 0 }));
    const read = await forEachRecordedSession(population.paths, options, (session, at) => {
      const { agents, mined } = sessionAgentsAndStretches(session, population.inject, seed, population.loops);
      for (const tally of tallies) tally.session(at, mined);
      for (const agent of agents) {
        const perGuard = configs.map((config, k) => summariesAcrossGrid(agent, config, (guards[k] as GuardUnderTest).target, points, runs[k]));
        tallies.forEach((tally, p) => tally.agent(agent.family, (store, k) => store.add((perGuard[k] as SimulationSummary[])[p] as SimulationSummary)));
      }
      onSession?.();
    });
    return finishGrid(tallies, points, read, runs, options.slice !== undefined);
  }
  const tally = new GroundedTally(guards);
  const read = await forEachRecordedSession(population.paths, options, (session, at) => {
    const { agents, mined } = sessionAgentsAndStretches(session, population.inject, seed, population.loops);
    tally.session(at, mined);
    for (const agent of agents) {
      tally.agent(agent.family, (store, k) => store.add(runSessionAgent(agent, configs[k] as ReturnType<typeof configFrom>, (guards[k] as GuardUnderTest).target, population.reaction).summary));
    }
    onSession?.();
  });
  return tally.finish(read, options.slice !== undefined);
}

/**
 * Point 0's tally is the ordinary evaluation; the others are measured without the bootstrap, which
 * only their rankings read. With `packed` (a shard by session), every point's packed results go
 * along, so that the merge measures the whole grid as one run would.
 */
export function finishGrid(tallies: readonly GroundedTally[], points: readonly ReactionGridPoint[], read: RecordedRead, runs: readonly GridRunCount[], packed = false): GroundedEvaluation {
  const stated = (tallies[0] as GroundedTally).finish(read, packed);
  const metrics = tallies.map((t, p) => (p === 0 ? stated.metrics : t.finish(read, false, false).metrics));
  const withGrid = stated.packed === undefined ? {} : { packed: { ...stated.packed, grid: { points: tallies.slice(1).map((t) => t.packed().perGuard), runs } } };
  return { ...stated, ...withGrid, grid: { points, metrics, runs } };
}

/**
 * Every agent's results under every guard, added in the agents' listed order (in-process, or put
 * back in order from worker threads), then measured one guard at a time.
 */
export class GroundedTally {
  private readonly stores: SummaryStore[];
  private readonly families: string[] = [];
  private readonly familyOf: number[] = [];
  private readonly agents: Record<string, number> = {};
  /** Each session's position in the whole listing, and its first agent. */
  private readonly sessionAt: number[] = [];
  private readonly sessionStart: number[] = [];
  /** Each session's mined stretches (--loops real), those past the cap included. */
  private readonly sessionMined: number[] = [];

  constructor(private readonly guards: readonly Pick<GuardUnderTest, "index">[]) {
    this.stores = guards.map(() => new SummaryStore());
  }

  /** The next session's agents follow; `at` is its position in the whole listing, `mined` its mined stretches (--loops real). */
  session(at: number, mined = 0): void {
    this.sessionAt.push(at);
    this.sessionMined.push(mined);
    this.sessionStart.push(this.familyOf.length);
  }

  /** The next agent: its family, and its result under each guard, put into that guard's store. */
  agent(family: string, resultUnder: (store: SummaryStore, guard: number) => void): void {
    this.agents[family] = (this.agents[family] ?? 0) + 1;
    let f = this.families.indexOf(family);
    if (f < 0) f = this.families.push(family) - 1;
    this.familyOf.push(f);
    this.stores.forEach(resultUnder);
  }

  /** Every agent's packed results, by session, as a shard by session writes them. */
  packed(): GroundedPacked {
    return {
      families: [...this.families],
      sessionAt: [...this.sessionAt],
      sessionStart: [...this.sessionStart],
      sessionMined: [...this.sessionMined],
      familyOf: [...this.familyOf],
      perGuard: this.stores.map((s) => s.encoded()),
    };
  }

  /**
   * The agents of several shards' packed results, added session by session in the order of the
   * whole listing: the same agents in the same order as one unsharded run, so the same metrics.
   */
  addPacked(parts: readonly GroundedPacked[]): void {
    const sessions = parts.flatMap((p, k) => p.sessionAt.map((at, s) => ({ at, k, mined: p.sessionMined?.[s] ?? 0, from: p.sessionStart[s] as number, to: p.sessionStart[s + 1] ?? p.familyOf.length })));
    sessions.sort((a, b) => a.at - b.at);
    const decoded = parts.map((p) => p.perGuard.map(decodeStore));
    for (const { at, k, mined, from, to } of sessions) {
      const part = parts[k] as GroundedPacked;
      this.session(at, mined);
      for (let i = from; i < to; i++) {
        this.agent(part.families[part.familyOf[i] as number] as string, (store, g) => {
          const { flags, numbers } = (decoded[k] as { flags: Uint8Array; numbers: Int32Array }[])[g] as { flags: Uint8Array; numbers: Int32Array };
          store.addPacked(flags[i] as number, numbers[i * 4] as number, numbers[i * 4 + 1] as number, numbers[i * 4 + 2] as number, numbers[i * 4 + 3] as number);
        });
      }
    }
  }

  /**
   * The metrics per guard; with `packed`, also every agent's packed results (for a shard by
   * session); without `resample`, no bootstrap intervals (a reaction grid's other points).
   */
  finish(read: RecordedRead, packed = false, resample = true): GroundedEvaluation {
    return {
      ...(packed ? { packed: this.packed() } : {}),
      // One guard's summaries at a time are made whole again, measured and dropped.
      metrics: this.guards.map((g, k) => computeMetrics((this.stores[k] as SummaryStore).summaries(this.families, this.familyOf), `grounded-config-${g.index}`, resample)),
      read,
      agents: Object.fromEntries(Object.keys(this.agents).sort().map((f) => [f, this.agents[f] as number])),
      minedStretches: this.sessionMined.reduce((a, b) => a + b, 0),
    };
  }
}

/** A grounded run's agents and their results, packed: what a shard by session writes. */
export interface GroundedPacked {
  readonly families: readonly string[];
  /** Per session: its position in the whole listing, and the index of its first agent. */
  readonly sessionAt: readonly number[];
  readonly sessionStart: readonly number[];
  /** Per session: the stretches the miner found in it (--loops real; absent in shards written before it was kept). */
  readonly sessionMined?: readonly number[];
  /** Per agent: its family, as an index into families. */
  readonly familyOf: readonly number[];
  /** Per guard: the agents' flags (one byte each) and four numbers (int32 each), base64. */
  readonly perGuard: readonly { readonly flags: string; readonly numbers: string }[];
  /** With a reaction grid: the same per guard at each of its other points (1, 2, ...), and the runs made and reused per guard. */
  readonly grid?: { readonly points: readonly (readonly { readonly flags: string; readonly numbers: string }[])[]; readonly runs: readonly GridRunCount[] };
}

function decodeStore(s: { readonly flags: string; readonly numbers: string }): { flags: Uint8Array; numbers: Int32Array } {
  const flags = new Uint8Array(Buffer.from(s.flags, "base64"));
  const bytes = Buffer.from(s.numbers, "base64");
  const numbers = new Int32Array(bytes.length / 4);
  for (let i = 0; i < numbers.length; i++) numbers[i] = bytes.readInt32LE(i * 4);
  return { flags, numbers };
}

/** The yes/no facts of a summary the metrics read, as bits. */
export function packFlags(s: SimulationSummary): number {
  return (s.caught ? 1 : 0) | (s.escapedAfterWarning ? 2 : 0) | (s.falseBlocks > 0 ? 4 : 0) | (s.falseAborts > 0 ? 8 : 0) | (s.aborts > 0 ? 16 : 0) | (s.label === "stuck" ? 32 : 0);
}

/**
 * A config's agent summaries, kept as the few numbers the metrics read (17 bytes an agent, not a
 * few hundred as objects), so a large folder run under many configs fits in memory.
 */
class SummaryStore {
  private n = 0;
  private flags = new Uint8Array(1024);
  private numbers = new Int32Array(1024 * 4);

  add(s: SimulationSummary): void {
    this.addPacked(packFlags(s), s.attempts, s.emittedWarnings, s.wastedCalls, s.wastedTokens);
  }

  /** The same, from what a worker thread sent (packFlags and the four numbers). */
  addPacked(flags: number, attempts: number, emittedWarnings: number, wastedCalls: number, wastedTokens: number): void {
    if (this.n === this.flags.length) {
      const flags = new Uint8Array(this.flags.length * 2);
      flags.set(this.flags);
      this.flags = flags;
      const numbers = new Int32Array(this.numbers.length * 2);
      numbers.set(this.numbers);
      this.numbers = numbers;
    }
    this.flags[this.n] = flags;
    this.numbers.set([attempts, emittedWarnings, wastedCalls, wastedTokens], this.n * 4);
    this.n++;
  }

  /** Its agents' flags and numbers as base64 (numbers little-endian int32). */
  encoded(): { flags: string; numbers: string } {
    const numbers = Buffer.alloc(this.n * 16);
    for (let i = 0; i < this.n * 4; i++) numbers.writeInt32LE(this.numbers[i] as number, i * 4);
    return { flags: Buffer.from(this.flags.subarray(0, this.n)).toString("base64"), numbers: numbers.toString("base64") };
  }

  /** Summaries with every field the metrics read (counts that are only compared with 0 come back as 0 or 1). */
  summaries(families: readonly string[], familyOf: readonly number[]): SimulationSummary[] {
    return Array.from({ length: this.n }, (_, i): SimulationSummary => {
      const flags = this.flags[i] as number;
      const at = i * 4;
      const bit = (b: number) => (flags & b) !== 0;
      return {
        family: families[familyOf[i] as number] as string,
        label: bit(32) ? "stuck" : "progressing",
        model: "recorded",
        seed: 0,
        attempts: this.numbers[at] as number,
        executed: 0,
        loopCalls: 0,
        wastedCalls: this.numbers[at + 2] as number,
        wastedTokens: this.numbers[at + 3] as number,
        totalTokens: 0,
        emittedWarnings: this.numbers[at + 1] as number,
        warnings: 0,
        blocks: 0,
        falseBlocks: bit(4) ? 1 : 0,
        aborts: bit(16) ? 1 : 0,
        falseAborts: bit(8) ? 1 : 0,
        compactions: 0,
        firstWarning: -1,
        firstBlock: -1,
        firstAbort: -1,
        caught: bit(1),
        escapedAfterWarning: bit(2),
      };
    });
  }
}

/** What a report says about the grounded population it ran. */
export interface GroundedSummary {
  readonly population: string;
  /** The report's main numbers are these (--population sessions:PATH), not a simulated population's. */
  readonly primary: boolean;
  readonly paths: readonly string[];
  readonly sessions: number;
  readonly unreadable: number;
  readonly inject: { readonly spec: string; readonly shapes: readonly string[]; readonly lengths: { readonly min: number; readonly max: number; readonly distribution: string }; readonly what: Readonly<Record<string, string>> };
  readonly reaction: SessionReaction;
  readonly reactionText: string;
  /** Agents per family: `session` (each recorded session) and `inject:SHAPE` (its injected copies). */
  readonly agents: Readonly<Record<string, number>>;
  /** With --loops real: what the `real` family is, and how many stretches of a session run at most. */
  readonly loops?: { readonly spec: LoopsChoice; readonly what: string; readonly maxPerSession: number; readonly catalogue?: number };
  /** The reaction models every agent also ran under (--reaction-grid), when any. */
  readonly reactionGrid?: ReactionGridSummary;
}

export function groundedSummary(population: GroundedPopulation, evaluation: Pick<GroundedEvaluation, "read" | "agents" | "minedStretches">, primary: boolean): GroundedSummary {
  return {
    population: population.name,
    primary,
    paths: population.paths,
    sessions: evaluation.read.count,
    unreadable: evaluation.read.bad.length,
    inject: {
      spec: population.inject.spec,
      shapes: population.inject.shapes,
      lengths: { ...population.inject.lengths, distribution: `uniform on ${population.inject.lengths.min} to ${population.inject.lengths.max} calls` },
      what: Object.fromEntries(population.inject.shapes.map((s) => [s, SHAPE_SUMMARIES[s]])),
    },
    reaction: population.reaction,
    reactionText: describeReaction(population.reaction),
    agents: evaluation.agents,
    ...(population.loops === "real" ? { loops: { spec: "real" as const, what: REAL_LOOPS_SUMMARY, maxPerSession: MAX_REAL_PER_SESSION, ...(evaluation.minedStretches === undefined ? {} : { catalogue: evaluation.minedStretches }) } } : {}),
    ...(population.reactionGrid === undefined ? {} : { reactionGrid: gridSummary(population.reaction, population.reactionGrid) }),
  };
}
