// A grounded evaluation spread over worker threads by agent: a thread asks for one agent at a time
// (a session, or one of its injected copies), runs it under every config and posts a few numbers
// per config. One agent, not one session, is the unit because a few long sessions are most of the
// work: dealt whole, they would leave the other threads idle. A thread keeps the session it read
// last, since a session's agents are dealt one after another. The main thread puts the agents back
// in their listed order before measuring, so the report is the same bytes for any number of
// threads, and the same as the in-process evaluation.
import { Worker } from "node:worker_threads";
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { UserError } from "../io/errors.js";
import { sessionRefs, type SessionRef } from "../import/sessionRefs.js";
import { labelOf, ReadTally, sliceOf, type ReadOptions } from "../sessions/recorded.js";
import { targetRef } from "../targets/target.js";
import { gridPoints, type GridRunCount } from "./reactionGrid.js";
import { agentsPerSession, evaluateGrounded, finishGrid, GroundedTally, type GroundedEvaluation, type GroundedPopulation, type GuardUnderTest } from "./groundedPopulation.js";
import type { GroundedResult, GroundedTask, GroundedWorkerInput, GroundedWorkerMessage } from "./threadMessages.js";

/** Agents a thread is sent at a time: few, so that the threads stay even to the end. */
const BATCH = 2;

export async function evaluateGroundedInThreads(population: GroundedPopulation, guards: readonly GuardUnderTest[], seed: number, options: ReadOptions, workers: number): Promise<GroundedEvaluation> {
  const workerFile = fileURLToPath(new URL("./groundedWorker.js", import.meta.url));
  // In-process for one thread, or when running from TypeScript sources (tests).
  if (workers <= 1 || availableParallelism() <= 1 || !existsSync(workerFile)) return evaluateGrounded(population, guards, seed, options);
  const listed = await sessionRefs(population.paths, options.strict === true);
  const { bad } = listed;
  // A shard by session runs its slice; `at` keeps each session's place in the whole listing.
  const mineOnly = sliceOf(listed.refs, options.slice);
  const refs = mineOnly.map((s) => s.ref);
  if (listed.refs.length === 0 && bad.length === 0) throw new UserError(`${population.paths.map((p) => `--population sessions:${p}`).join(" ")}: no session files (.jsonl, .traj, .traj.json, .json, each also .gz) found`);
  const count = Math.min(workers, availableParallelism(), Math.max(1, refs.length));
  const perSession = agentsPerSession(population.inject, population.loops);
  const rows = new Array<Extract<GroundedResult, { type: "row" }> | undefined>(refs.length * perSession);
  const badAt = new Set<number>();
  // A session gives fewer agents than perSession when it has fewer mined stretches: those are absent, not missing.
  const absent = new Set<number>();
  const taskAt = (n: number): GroundedTask => {
    const index = Math.floor(n / perSession);
    const r = refs[index] as SessionRef;
    return { index, ref: r.ref, id: r.id, agent: n % perSession, ...(r.span === undefined ? {} : { span: r.span }) };
  };
  let next = 0;
  const deal = (): GroundedTask[] => {
    const batch: GroundedTask[] = [];
    while (batch.length < BATCH && next < rows.length) batch.push(taskAt(next++));
    return batch;
  };
  const data: GroundedWorkerInput = { population, guards: guards.map((g) => ({ target: targetRef(g.target), block: g.block })), seed };
  const threads: Worker[] = [];
  try {
    await Promise.all(
      Array.from(
        { length: count },
        () =>
          new Promise<void>((resolve, reject) => {
            const worker = new Worker(workerFile, { workerData: data });
            threads.push(worker);
            worker.on("message", (message: GroundedWorkerMessage) => {
              if (message.type === "more") worker.postMessage(deal());
              else if (message.type === "done") void worker.terminate().then(() => resolve());
              else if (message.type === "bad") {
                const ref = (refs[message.index] as SessionRef).ref;
                if (options.strict === true) reject(new UserError(`${ref}: ${message.reason} (--strict stops at the first unreadable file)`));
                else if (!badAt.has(message.index)) {
                  badAt.add(message.index);
                  bad.push({ file: ref, reason: message.reason });
                }
              } else if (message.type === "row") rows[message.index * perSession + message.agent] = message;
              else if (message.type === "empty" && message.agent > 0) absent.add(message.index * perSession + message.agent);
            });
            worker.on("error", reject);
          }),
      ),
    );
  } finally {
    await Promise.all(threads.map((t) => t.terminate()));
  }
  // The agents in their listed order: the summaries and the read tally as in-process.
  const points = population.reactionGrid === undefined ? undefined : gridPoints(population.reaction, population.reactionGrid);
  const tallies = (points ?? [undefined]).map(() => new GroundedTally(guards));
  const runs: GridRunCount[] = guards.map(() => ({ made: 0, reused: 0 }));
  const read = new ReadTally(options.labels);
  for (let index = 0; index < refs.length; index++) {
    // Array.from, not slice: a slice keeps the holes of agents never answered, and some() skips holes.
    const mine = Array.from({ length: perSession }, (_, a) => rows[index * perSession + a]);
    if (mine.some((row, a) => row === undefined && !absent.has(index * perSession + a)) || mine[0] === undefined) continue; // no call in it, or unreadable
    const id = (refs[index] as SessionRef).id;
    read.session(id, labelOf(id, options.labels));
    for (const tally of tallies) tally.session((mineOnly[index] as { at: number }).at, mine[0].mined ?? 0);
    for (const row of mine.filter((r) => r !== undefined)) {
      runs.forEach((r, k) => {
        r.made += row.runs[k * 2] as number;
        r.reused += row.runs[k * 2 + 1] as number;
      });
      tallies.forEach((tally, p) =>
        tally.agent(row.family, (store, k) => {
          const at = p * guards.length + k;
          store.addPacked(row.flags[at] as number, row.numbers[at * 4] as number, row.numbers[at * 4 + 1] as number, row.numbers[at * 4 + 2] as number, row.numbers[at * 4 + 3] as number);
        }),
      );
    }
  }
  return points === undefined ? (tallies[0] as GroundedTally).finish(read.read(bad), options.slice !== undefined) : finishGrid(tallies, points, read.read(bad), runs, options.slice !== undefined);
}
