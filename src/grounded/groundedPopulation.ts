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
import { runSessionAgent, type SessionAgentSpec } from "./sessionAgent.js";

export const SESSIONS_PREFIX = "sessions:";

export interface GroundedPopulation {
  readonly name: string;
  readonly paths: readonly string[];
  readonly inject: InjectSpec;
  readonly reaction: SessionReaction;
}

/** The family every un-injected session agent is counted under. */
export const SESSION_FAMILY = "session";
export const injectedFamily = (shape: string) => `inject:${shape}`;

/** The agents one session gives: itself, then one injected copy per shape. */
export function sessionAgents(session: Pick<RecordedSession, "id" | "events">, inject: InjectSpec, seed: number): SessionAgentSpec[] {
  const agents: SessionAgentSpec[] = [{ family: SESSION_FAMILY, label: "progressing", name: `${session.id}:recorded`, seed, script: recordedScript(session.events) }];
  for (const shape of inject.shapes) {
    const injected = injectLoop(session.events, shape, inject.lengths, seed, session.id);
    agents.push({ family: injectedFamily(shape), label: "stuck", name: `${session.id}:${shape}`, seed, script: injected.events });
  }
  return agents;
}

export interface GuardUnderTest {
  readonly index: number;
  readonly target: Target;
  readonly block: Record<string, unknown>;
}

export interface GroundedEvaluation {
  /** Per guard, in the order given. */
  readonly metrics: readonly ConfigMetrics[];
  readonly read: RecordedRead;
  /** Agents per family (the same for every guard). */
  readonly agents: Readonly<Record<string, number>>;
}

export async function evaluateGrounded(population: GroundedPopulation, guards: readonly GuardUnderTest[], seed: number, options: ReadOptions, onSession?: () => void): Promise<GroundedEvaluation> {
  const configs = guards.map((g) => configFrom(g.block));
  const summaries: SimulationSummary[][] = guards.map(() => []);
  const agents: Record<string, number> = {};
  const read = await forEachRecordedSession(population.paths, options, (session) => {
    for (const agent of sessionAgents(session, population.inject, seed)) {
      agents[agent.family] = (agents[agent.family] ?? 0) + 1;
      guards.forEach((guard, k) => {
        (summaries[k] as SimulationSummary[]).push(runSessionAgent(agent, configs[k] as ReturnType<typeof configFrom>, guard.target, population.reaction).summary);
      });
    }
    onSession?.();
  });
  return {
    metrics: guards.map((g, k) => computeMetrics(summaries[k] as SimulationSummary[], `grounded-config-${g.index}`)),
    read,
    agents: Object.fromEntries(Object.keys(agents).sort().map((f) => [f, agents[f] as number])),
  };
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
}

export function groundedSummary(population: GroundedPopulation, evaluation: Pick<GroundedEvaluation, "read" | "agents">, primary: boolean): GroundedSummary {
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
  };
}
