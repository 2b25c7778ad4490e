// A worker thread of the sweep: evaluates the configs it is sent and posts rows back, plus a
// tick per agent for the progress bar.
import { parentPort, workerData } from "node:worker_threads";
import { resolveTarget } from "../targets/registry.js";
import type { Target } from "../targets/target.js";
import { evaluateConfig, type ConfigJob } from "./evaluate.js";
import type { AgentSpec } from "./population.js";

interface WorkerInput {
  readonly jobs: readonly ConfigJob[];
  readonly agents: readonly AgentSpec[];
  readonly calls: number;
  /** Resolved again in the thread: a target is code, not data. */
  readonly target: string;
}

const input = workerData as WorkerInput;
const port = parentPort;
if (port !== null) {
  const targets = new Map<string, Target>();
  const targetNamed = async (name: string): Promise<Target> => {
    const known = targets.get(name) ?? (await resolveTarget(name));
    targets.set(name, known);
    return known;
  };
  let ticks = 0;
  for (const job of input.jobs) {
    const target = await targetNamed(job.target ?? input.target);
    const row = evaluateConfig(job, input.agents, input.calls, target, () => {
      if (++ticks % 50 === 0) port.postMessage({ type: "tick", count: 50 });
    });
    port.postMessage({ type: "row", row });
  }
  port.postMessage({ type: "tick", count: ticks % 50 });
  port.postMessage({ type: "done" });
}
