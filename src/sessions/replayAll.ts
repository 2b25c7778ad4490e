// Replaying recorded sessions under several guards, streamed and, with --workers, in worker
// threads. The sessions are listed once (their refs and ids); a worker asks for a few sessions at
// a time, reads each, replays it under every guard, posts one small row per session and drops it.
// The main thread adds rows into order-free integer tallies, so the bytes are the same for any
// number of workers, and memory holds the list of refs and one session per thread.
import { Worker } from "node:worker_threads";
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { configFrom } from "../../models/configResolution.js";
import { UserError } from "../io/errors.js";
import { sessionRefs, type SessionRef } from "../import/sessionRefs.js";
import type { ElementSpan } from "../import/jsonDocument.js";
import { targetRef, type Target } from "../targets/target.js";
import { replayOpenLoop, SessionTally, type SessionCounts, type SessionTotals, type SessionVerdicts } from "./openLoop.js";
import { forEachRecordedSession, labelOf, sliceOf, ReadTally, type ReadOptions, type RecordedRead, type SessionLabel } from "./recorded.js";

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
  readonly span?: ElementSpan;
}

/** Sessions a thread is sent at a time: small enough to balance, large enough to keep it busy. */
const BATCH = 16;

/** What a thread posts: a session's result, a request for more sessions, or that it has stopped. */
export type WorkerMessage = SessionResult | { readonly type: "more" } | { readonly type: "done" };

export type SessionResult =
  | { readonly type: "row"; readonly index: number; readonly verdicts: readonly SessionVerdicts[] }
  | { readonly type: "empty"; readonly index: number }
  | { readonly type: "bad"; readonly index: number; readonly reason: string };

export interface Replayed {
  /** Per guard, the totals over every session. */
  readonly perGuard: readonly SessionTotals[];
  /** The same as integer sums, for a shard by session to write. */
  readonly perGuardCounts: readonly SessionCounts[];
  readonly read: RecordedRead;
}

export async function replayRecorded(paths: readonly string[], options: ReadOptions, guards: readonly GuardJob[], workers: number): Promise<Replayed> {
  const workerFile = fileURLToPath(new URL("./sessionWorker.js", import.meta.url));
  if (workers <= 1 || !existsSync(workerFile)) return replayInProcess(paths, options, guards);
  const listed = await sessionRefs(paths, options.strict === true);
  const { bad } = listed;
  if (listed.refs.length === 0 && bad.length === 0) throw new UserError(`--sessions ${paths.join(" ")}: no session files (.jsonl, .traj, .traj.json, .json, each also .gz) found`);
  const refs = sliceOf(listed.refs, options.slice).map((s) => s.ref);
  const labels = options.labels;
  const count = Math.min(workers, availableParallelism(), Math.max(1, refs.length));
  // Rows are added to the tallies as they arrive (integer sums: the order cannot change a byte),
  // so the main thread keeps no per-session row at all.
  const tallies = guards.map(() => new SessionTally());
  const read = new ReadTally(labels);
  const taskAt = (index: number): SessionTask => {
    const r = refs[index] as SessionRef;
    return { index, ref: r.ref, id: r.id, label: labelOf(r.id, labels), ...(r.span === undefined ? {} : { span: r.span }) };
  };
  const take = (result: SessionResult): void => {
    const task = taskAt(result.index);
    if (result.type === "bad") bad.push({ file: task.ref, reason: result.reason });
    if (result.type !== "row") return;
    result.verdicts.forEach((v, g) => tallies[g]?.add(v));
    read.session(task.id, task.label);
  };
  // Sessions are dealt in small batches to whichever thread asks next: no thread holds a list of
  // its share up front, and a thread that drew long sessions does not leave the other idle.
  let next = 0;
  const deal = (): SessionTask[] => {
    const batch: SessionTask[] = [];
    while (batch.length < BATCH && next < refs.length) batch.push(taskAt(next++));
    return batch;
  };
  const threads: Worker[] = [];
  try {
    await Promise.all(
      Array.from({ length: count }, () => {
        return new Promise<void>((resolve, reject) => {
          const worker = new Worker(workerFile, { workerData: { guards: guards.map((g) => ({ target: targetRef(g.target), block: g.block })) } });
          threads.push(worker);
          worker.on("message", (message: WorkerMessage) => {
            if (message.type === "more") {
              worker.postMessage(deal());
              return;
            }
            if (message.type === "done") {
              void worker.terminate().then(() => resolve());
              return;
            }
            if (message.type === "bad" && options.strict === true) {
              reject(new UserError(`${taskAt(message.index).ref}: ${message.reason} (--strict stops at the first unreadable file)`));
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
  return { perGuard: tallies.map((t) => t.totals()), perGuardCounts: tallies.map((t) => t.counts()), read: read.read(bad) };
}

async function replayInProcess(paths: readonly string[], options: ReadOptions, guards: readonly GuardJob[]): Promise<Replayed> {
  const configs = guards.map((g) => ({ target: g.target, config: configFrom(g.block) }));
  const tallies = guards.map(() => new SessionTally());
  const read = await forEachRecordedSession(paths, options, (session) => {
    configs.forEach((g, i) => tallies[i]?.add(replayOpenLoop(g.target, g.config, session)));
  });
  return { perGuard: tallies.map((t) => t.totals()), perGuardCounts: tallies.map((t) => t.counts()), read };
}
