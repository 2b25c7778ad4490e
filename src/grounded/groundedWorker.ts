// A worker thread of a grounded evaluation: asks for agents a few at a time (a session, or one of
// its injected copies), runs each under every config, and posts the few numbers per config that
// the metrics read. It keeps only the session it read last, whose agents come one after another.
import { parentPort, workerData } from "node:worker_threads";
import { UserError } from "../io/errors.js";
import { reasonOf } from "../import/sessionRefs.js";
import { batchesFrom, resolveGuards } from "../sessions/threadWork.js";
import { readSessionEvents } from "../sessions/recorded.js";
import { packFlags, sessionAgentsAndStretches } from "./groundedPopulation.js";
import type { GroundedResult, GroundedTask, GroundedWorkerInput } from "./threadMessages.js";
import { runSessionAgent, type SessionAgentSpec } from "./sessionAgent.js";
import { gridPoints, summariesAcrossGrid, type GridRunCount } from "./reactionGrid.js";

const input = workerData as GroundedWorkerInput;
const port = parentPort;
if (port !== null) {
  const guards = await resolveGuards(input.guards);
  const points = input.population.reactionGrid === undefined ? undefined : gridPoints(input.population.reaction, input.population.reactionGrid);
  const pointCount = points?.length ?? 1;
  type Agents = SessionAgentSpec[] | "empty" | { bad: string };
  let last: { index: number; agents: Agents; mined: number } | undefined;
  const agentsOf = async (task: GroundedTask): Promise<{ agents: Agents; mined: number }> => {
    if (last?.index === task.index) return last;
    let agents: Agents;
    let mined = 0;
    try {
      const { events } = await readSessionEvents(task.ref, task.span);
      if (events.some((e) => e.type === "call")) ({ agents, mined } = sessionAgentsAndStretches({ id: task.id, events }, input.population.inject, input.seed, input.population.loops));
      else agents = "empty";
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      agents = { bad: reasonOf(error, task.ref) };
    }
    last = { index: task.index, agents, mined };
    return last;
  };
  const run = async (task: GroundedTask): Promise<GroundedResult> => {
    const { agents, mined } = await agentsOf(task);
    if (agents === "empty") return { type: "empty", index: task.index, agent: task.agent };
    if (!Array.isArray(agents)) return { type: "bad", index: task.index, agent: task.agent, reason: agents.bad };
    const agent = agents[task.agent];
    if (agent === undefined) return { type: "empty", index: task.index, agent: task.agent };
    // With a reaction grid, one summary per point and guard, point-major (point 0: the stated model).
    const runs = new Int32Array(guards.length * 2);
    const flags = new Uint8Array(guards.length * pointCount);
    const numbers = new Int32Array(guards.length * pointCount * 4);
    guards.forEach((g, k) => {
      const count: GridRunCount = { made: 0, reused: 0 };
      const summaries = points === undefined ? [runSessionAgent(agent, g.config, g.target, input.population.reaction).summary] : summariesAcrossGrid(agent, g.config, g.target, points, count);
      runs.set([count.made, count.reused], k * 2);
      summaries.forEach((s, p) => {
        const at = p * guards.length + k;
        flags[at] = packFlags(s);
        numbers.set([s.attempts, s.emittedWarnings, s.wastedCalls, s.wastedTokens], at * 4);
      });
    });
    return { type: "row", index: task.index, agent: task.agent, family: agent.family, flags, numbers, runs, ...(task.agent === 0 ? { mined } : {}) };
  };
  for await (const batch of batchesFrom<GroundedTask>(port)) {
    for (const task of batch) port.postMessage(await run(task));
  }
  port.postMessage({ type: "done" });
}
