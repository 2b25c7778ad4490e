// Where a `loops` run mines the sessions it lists: in its own thread, one after another, or dealt
// file by file to worker threads (--workers). The listing stays in the main thread, in order, so
// every session keeps its place in the whole listing (what a shard and the catalogue's order go
// by), and the rows are put back in that order: the catalogue is the same bytes for any number of
// threads. The main thread inflates each compressed file once, to list it (src/io/compressed.ts
// holdWhole), and hands the inflated bytes to the worker that reads it: nothing is inflated twice.
// A worker holds a file or two at a time, so memory stays flat: the listing waits for a worker to
// finish one before it deals another.
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { UserError } from "../io/errors.js";
import { takeHeld, type HeldFor } from "../io/compressed.js";
import { reasonOf } from "../import/sessionRefs.js";
import type { SessionRow } from "../realLoops/catalogue.js";
import type { DatasetLabels } from "../realLoops/labels.js";
import type { MineParameters } from "../realLoops/mine.js";
import { minedSessionRow, type ListedSession } from "./loopsSession.js";

/** What the listing hands a miner, file by file, in listing order. */
export interface SessionMiner {
  /** Mines the sessions of one listed file (those of the shard): now, or by a worker later. Resolves when the next file may be listed. */
  file(file: string, sessions: readonly ListedSession[]): Promise<void>;
  /** Every row, in listing order, and with --strict the first session (by place) that could not be read. */
  finish(): Promise<{ rows: SessionRow[]; unreadable?: UserError }>;
  /** Ends the work when the listing failed: no thread is left running. */
  abort(): Promise<void>;
  /** Worker threads started so far (0: every session was mined in this thread). */
  threads(): number;
  /** Where the files the listing holds whole are read (src/io/compressed.ts holdWhole). */
  readonly reader: HeldFor;
}

export interface MinerOptions {
  readonly parameters: MineParameters;
  readonly labels: readonly DatasetLabels[];
  readonly strict: boolean;
}

/**
 * The sessions' rows, in order. A session that cannot be read is a row saying why (the run goes
 * on); with --strict it is the failure that ends the run once the listing is done, and nothing
 * after it is read. The one loop every miner runs: in this thread and in a worker (loopsWorker.ts).
 */
export async function minedSessions(sessions: readonly ListedSession[], options: MinerOptions): Promise<{ rows: SessionRow[]; failure?: { at: number; error: UserError } }> {
  const rows: SessionRow[] = [];
  for (const session of sessions) {
    try {
      rows.push(await minedSessionRow(session, options.parameters, options.labels));
    } catch (error) {
      // A file that fails while it is read is reported and skipped, as scan does.
      if (!(error instanceof UserError)) throw error;
      if (options.strict) return { rows, failure: { at: session.at, error } };
      rows.push({ at: session.at, id: session.ref, unreadable: reasonOf(error, session.ref) });
    }
  }
  return { rows };
}

/** Mines each session as it is listed, in this thread. */
export function inThisThread(options: MinerOptions): SessionMiner {
  const rows: SessionRow[] = [];
  let unreadable: UserError | undefined;
  return {
    async file(_file, sessions) {
      // With --strict, nothing is read after the first failure; the listing goes on (a listing problem is the error even then).
      if (unreadable !== undefined) return;
      const mined = await minedSessions(sessions, options);
      rows.push(...mined.rows);
      unreadable = mined.failure?.error;
    },
    finish: () => Promise.resolve(unreadable === undefined ? { rows } : { rows, unreadable }),
    abort: () => Promise.resolve(),
    threads: () => 0,
    reader: "this thread",
  };
}

/** The messages between the listing thread and a loops worker (loopsWorker.ts). */
export interface LoopsWorkerInput {
  readonly options: MinerOptions;
}
export interface LoopsFileTask {
  readonly file: string;
  readonly sessions: readonly ListedSession[];
  /** The file's content, inflated by the listing, with the stats it was read at. */
  readonly held?: { readonly mtimeMs: number; readonly size: number; readonly bytes: Uint8Array };
}
export type LoopsWorkerMessage =
  | { readonly type: "done"; readonly rows: readonly SessionRow[]; readonly failure?: { readonly at: number; readonly message: string } }
  | { readonly type: "crash"; readonly message: string; readonly stack?: string };

/** Files a worker may hold at once: one it mines, one waiting, so that it never idles on the listing. */
const PER_WORKER = 2;

/**
 * The miner for `workers` threads: in this thread when that is one (or the machine has one core,
 * or the code runs from its TypeScript sources, where no compiled worker exists: the tests).
 */
export function sessionMiner(workers: number, options: MinerOptions): SessionMiner {
  const workerFile = fileURLToPath(new URL("./loopsWorker.js", import.meta.url));
  const count = Math.min(workers, availableParallelism());
  if (count <= 1 || !existsSync(workerFile)) return inThisThread(options);
  return inThreads(workerFile, count, options);
}

function inThreads(workerFile: string, count: number, options: MinerOptions): SessionMiner {
  const input: LoopsWorkerInput = { options };
  // Threads start as files come: the first file is mined here, so a run of one file starts no
  // thread, and a second thread starts only when the first has a file in hand.
  const threads: Worker[] = [];
  const inFlight: number[] = [];
  const rows: SessionRow[] = [];
  let filesSeen = 0;
  let stopping = false;
  let failure: { at: number; message: string } | undefined;
  let crash: Error | undefined;
  let wake: (() => void) | undefined;
  const woken = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const failed = (at: number, message: string) => {
    if (failure === undefined || at < failure.at) failure = { at, message };
  };
  const inputType = process.execArgv.some((arg) => arg.startsWith("--input-type"));
  const withoutInputType = process.execArgv.filter((arg, i, all) => !arg.startsWith("--input-type") && all[i - 1] !== "--input-type");
  const start = (): number => {
    const k = threads.length;
    // A worker given no execArgv inherits the parent's options as Node parsed them, V8's too (they
    // are the process's): `node --max-old-space-size=4096 loopsim loops` works, where handing over
    // process.execArgv made Node refuse the V8 flag (ERR_WORKER_INVALID_EXEC_ARGV, an internal
    // error). Only `node --input-type=module -e` (the API example in docs/guide/check-your-detector.md)
    // gets a filtered list: inherited, that flag, which only concerns string input, makes Node refuse
    // the worker's file entry (ERR_INPUT_TYPE_NOT_ALLOWED).
    const thread = new Worker(workerFile, { workerData: input, ...(inputType ? { execArgv: withoutInputType } : {}) });
    threads.push(thread);
    inFlight.push(0);
    thread.on("message", (message: LoopsWorkerMessage) => {
      if (message.type === "crash") crash ??= Object.assign(new Error(message.message), message.stack === undefined ? {} : { stack: message.stack });
      else {
        inFlight[k] = (inFlight[k] as number) - 1;
        rows.push(...message.rows);
        // With --strict, the error of the first session by place: every file before it was dealt before it, so the smallest place is the first.
        if (message.failure !== undefined) failed(message.failure.at, message.failure.message);
      }
      woken();
    });
    thread.on("error", (error) => {
      crash ??= error;
      woken();
    });
    thread.on("exit", (code) => {
      if (!stopping) crash ??= new Error(`a loops worker thread ended early (exit code ${code})`);
      woken();
    });
    return k;
  };
  const idle = (): Promise<void> => new Promise((resolve) => (wake = resolve));
  const stop = async () => {
    stopping = true;
    await Promise.all(threads.map((t) => t.terminate()));
  };
  /** Mines sessions in this thread (the first file; sessions read from stdin, which a worker cannot read). */
  const here = async (sessions: readonly ListedSession[]) => {
    const mined = await minedSessions(sessions, options);
    rows.push(...mined.rows);
    if (mined.failure !== undefined) failed(mined.failure.at, mined.failure.error.message);
  };
  const leastBusy = () => inFlight.indexOf(Math.min(...inFlight));
  return {
    async file(file, sessions) {
      if (crash !== undefined) throw crash;
      if (sessions.length === 0) return;
      // With --strict, nothing is read after a failure (the files dealt before it still finish).
      if (failure !== undefined && options.strict) return;
      if (filesSeen++ === 0 || file === "-") return here(sessions);
      let k = threads.length === 0 || (threads.length < count && inFlight.every((n) => n > 0)) ? start() : leastBusy();
      while ((inFlight[k] as number) >= PER_WORKER) {
        await idle();
        if (crash !== undefined) throw crash;
        k = leastBusy();
      }
      const held = takeHeld(file);
      const task: LoopsFileTask = { file, sessions, ...(held === undefined ? {} : { held: { mtimeMs: held.mtimeMs, size: held.size, bytes: held.inflated } }) };
      inFlight[k] = (inFlight[k] as number) + 1;
      // Inflated bytes with a memory of their own are moved, not copied (a small buffer shares Node's pool: it is copied).
      const bytes = held?.inflated;
      const movable = bytes !== undefined && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
      (threads[k] as Worker).postMessage(task, movable ? [bytes.buffer] : []);
    },
    async finish() {
      try {
        while (crash === undefined && inFlight.some((n) => n > 0)) await idle();
        if (crash !== undefined) throw crash;
      } finally {
        await stop();
      }
      rows.sort((a, b) => a.at - b.at);
      return failure === undefined ? { rows } : { rows, unreadable: new UserError(failure.message) };
    },
    abort: stop,
    threads: () => threads.length,
    reader: "another thread",
  };
}
