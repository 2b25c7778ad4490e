// Spreading config jobs over worker threads. Jobs are dealt round-robin, rows are put back in
// config order, so the result is the same for any number of workers.
import { Worker } from "node:worker_threads";
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { evaluateConfig, type ConfigJob, type ConfigRow } from "./evaluate.js";
import type { AgentSpec } from "./population.js";
import { targetRef, type Target } from "../targets/target.js";

/**
 * `target` runs every job that names none; jobs that name one (loopsim compare) find it in
 * `named`, and worker threads resolve it again by name.
 */
export async function evaluateAll(jobs: readonly ConfigJob[], agents: readonly AgentSpec[], calls: number, target: Target, workers: number, onTick: (n: number) => void, named: ReadonlyMap<string, Target> = new Map()): Promise<ConfigRow[]> {
  const targetOf = (job: ConfigJob): Target => (job.target === undefined ? target : (named.get(job.target) ?? target));
  const workerFile = fileURLToPath(new URL("./worker.js", import.meta.url));
  // In-process when one worker is asked for, or when running from TypeScript sources (tests).
  // More threads than jobs or cores only adds start-up cost (--workers 500 once started 73).
  const count = Math.min(workers, jobs.length, availableParallelism());
  if (count <= 1 || !existsSync(workerFile)) {
    return jobs.map((job) => evaluateConfig(job, agents, calls, targetOf(job), () => onTick(1)));
  }
  const rows: ConfigRow[] = [];
  await Promise.all(
    Array.from({ length: count }, (_, w) => {
      const mine = jobs.filter((_, i) => i % count === w);
      return new Promise<void>((resolve, reject) => {
        const worker = new Worker(workerFile, { workerData: { jobs: mine, agents, calls, target: targetRef(target) } });
        worker.on("message", (message: { type: string; count?: number; row?: ConfigRow }) => {
          if (message.type === "tick") onTick(message.count ?? 0);
          else if (message.type === "row" && message.row !== undefined) rows.push(message.row);
          else if (message.type === "done") void worker.terminate().then(() => resolve());
        });
        worker.on("error", reject);
      });
    }),
  );
  return rows.sort((a, b) => a.index - b.index);
}
