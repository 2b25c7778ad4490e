// Replaying recorded sessions under several guards, streamed and, with --workers, in worker
// threads. The sessions are listed once (their refs and ids); each worker is dealt every W-th
// session, reads it, replays it under every guard, posts one small row per session and drops it.
// Rows are put back in listing order, so the bytes are the same for any number of workers, and
// memory holds one session per thread plus the rows.
import { Worker } from "node:worker_threads";
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { configFrom } from "../../models/configResolution.js";
import { UserError } from "../cli/errors.js";
import { sessionRefs } from "../import/sessionRefs.js";
import type { Target } from "../targets/target.js";
import { replayOpenLoop, SessionTally, type SessionTotals, type SessionVerdicts } from "./openLoop.js";
import { forEachRecordedSession, labelOf, ReadTally, type ReadOptions, type RecordedRead, type SessionLabel } from "./recorded.js";

/** One guard to replay under: a target (by name, for the threads) and its tools.loopDetection block. */
export interface GuardJob {
  readonly target: Target;
  readonly block: Record<string, unknown>;
}

/** What a worker is sent per session, and what it posts back. */
export interface SessionTask {
  readonly index: number;
  readonly ref: string;
  readonly id: string;
  readonly label: SessionLabel;
}

export type SessionResult =
  | { readonly type: "row"; readonly index: number; readonly verdicts: readonly SessionVerdicts[] }
  | { readonly type: "empty"; readonly index: number }
  | { readonly type: "bad"; readonly index: number; readonly reason: string };

export interface Replayed {
  /** Per guard, the totals over every session. */
  readonly perGuard: readonly SessionTotals[];
  readonly read: RecordedRead;
}

export async function replayRecorded(paths: readonly string[], options: ReadOptions, guards: readonly GuardJob[], workers: number): Promise<Replayed> {
  const workerFile = fileURLToPath(new URL("./sessionWorker.js", import.meta.url));
  if (workers <= 1 || !existsSync(workerFile)) return replayInProcess(paths, options, guards);
  const { refs, bad } = await sessionRefs(paths, options.strict === true);
  if (refs.length === 0 && bad.length === 0) throw new UserError(`--sessions ${paths.join(" ")}: no session files (.jsonl, .traj, .traj.json, .json) found`);
  const labels = options.labels;
  const tasks: SessionTask[] = refs.map((r, index) => ({ index, ref: r.ref, id: r.id, label: labelOf(r.id, labels) }));
  const count = Math.min(workers, availableParallelism(), Math.max(1, tasks.length));
  // Rows are added to the tallies as they arrive (integer sums: the order cannot change a byte),
  // so the main thread keeps no per-session row at all.
  const tallies = guards.map(() => new SessionTally());
  const read = new ReadTally(labels);
  const take = (result: SessionResult): void => {
    const task = tasks[result.index] as SessionTask;
    if (result.type === "bad") bad.push({ file: task.ref, reason: result.reason });
    if (result.type !== "row") return;
    result.verdicts.forEach((v, g) => tallies[g]?.add(v));
    read.session(task.id, task.label);
  };
  const threads: Worker[] = [];
  try {
    await Promise.all(
      Array.from({ length: count }, (_, w) => {
        const mine = tasks.filter((t) => t.index % count === w);
        return new Promise<void>((resolve, reject) => {
          const worker = new Worker(workerFile, { workerData: { tasks: mine, guards: guards.map((g) => ({ target: g.target.name, block: g.block })) } });
          threads.push(worker);
          worker.on("message", (message: SessionResult | { type: "done" }) => {
            if (message.type === "done") {
              void worker.terminate().then(() => resolve());
              return;
            }
            if (message.type === "bad" && options.strict === true) {
              const task = tasks[message.index] as SessionTask;
              reject(new UserError(`${task.ref}: ${message.reason} (--strict stops at the first unreadable file)`));
              return;
            }
            take(message);
          });
          worker.on("error", reject);
        });
      }),
    );
  } finally {
    await Promise.all(threads.map((t) => t.terminate()));
  }
  return { perGuard: tallies.map((t) => t.totals()), read: read.read(bad) };
}

async function replayInProcess(paths: readonly string[], options: ReadOptions, guards: readonly GuardJob[]): Promise<Replayed> {
  const configs = guards.map((g) => ({ target: g.target, config: configFrom(g.block) }));
  const tallies = guards.map(() => new SessionTally());
  const read = await forEachRecordedSession(paths, options, (session) => {
    configs.forEach((g, i) => tallies[i]?.add(replayOpenLoop(g.target, g.config, session)));
  });
  return { perGuard: tallies.map((t) => t.totals()), read };
}
