// A grounded evaluation spread over worker threads by guard: each thread reads the sessions and
// runs its share of the configs; metrics come back in config order, so the report is the same
// bytes for any number of threads (each config's agents and draws do not depend on the others).
import { Worker } from "node:worker_threads";
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { UserError } from "../io/errors.js";
import type { ConfigMetrics } from "../evaluation/metrics.js";
import type { ReadOptions } from "../sessions/recorded.js";
import { targetRef } from "../targets/target.js";
import { evaluateGrounded, type GroundedEvaluation, type GroundedPopulation, type GuardUnderTest } from "./groundedPopulation.js";
import type { GroundedWorkerInput } from "./groundedWorker.js";

type WorkerMessage = { readonly type: "done"; readonly result: GroundedEvaluation } | { readonly type: "error"; readonly user: boolean; readonly message: string };

export async function evaluateGroundedInThreads(population: GroundedPopulation, guards: readonly GuardUnderTest[], seed: number, options: ReadOptions, workers: number): Promise<GroundedEvaluation> {
  const workerFile = fileURLToPath(new URL("./groundedWorker.js", import.meta.url));
  const count = Math.min(workers, guards.length, availableParallelism());
  // In-process for one thread, or when running from TypeScript sources (tests).
  if (count <= 1 || !existsSync(workerFile)) return evaluateGrounded(population, guards, seed, options);
  const shares = Array.from({ length: count }, (_, w) => guards.map((g, k) => ({ g, k })).filter((_, k) => k % count === w));
  const threads: Worker[] = [];
  try {
    const results = await Promise.all(
      shares.map(
        (share) =>
          new Promise<{ share: typeof share; result: GroundedEvaluation }>((resolve, reject) => {
            const data: GroundedWorkerInput = { population, guards: share.map(({ g }) => ({ index: g.index, target: targetRef(g.target), block: g.block })), seed, options };
            const worker = new Worker(workerFile, { workerData: data });
            threads.push(worker);
            worker.on("message", (message: WorkerMessage) => {
              if (message.type === "done") resolve({ share, result: message.result });
              else reject(message.user ? new UserError(message.message) : new Error(message.message));
            });
            worker.on("error", reject);
          }),
      ),
    );
    const metrics: ConfigMetrics[] = new Array<ConfigMetrics>(guards.length);
    for (const { share, result } of results) share.forEach(({ k }, j) => (metrics[k] = result.metrics[j] as ConfigMetrics));
    const first = results[0]?.result as GroundedEvaluation;
    return { metrics, read: first.read, agents: first.agents };
  } finally {
    await Promise.all(threads.map((t) => t.terminate()));
  }
}
