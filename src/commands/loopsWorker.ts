// A worker thread of `loops --workers N` (loopsThreads.ts): mines the sessions of each file it is
// dealt, in the order dealt, and posts their rows. A file the listing inflated arrives inflated and
// is kept where the readers look for it (src/io/compressed.ts holdInflated): it is not inflated again.
import { parentPort, workerData } from "node:worker_threads";
import { holdInflated } from "../io/compressed.js";
import { minedSessions, type LoopsFileTask, type LoopsWorkerInput, type LoopsWorkerMessage } from "./loopsThreads.js";

const input = workerData as LoopsWorkerInput;
const port = parentPort;

async function mined(task: LoopsFileTask): Promise<LoopsWorkerMessage> {
  if (task.held !== undefined) holdInflated(task.file, task.held.mtimeMs, task.held.size, Buffer.from(task.held.bytes.buffer, task.held.bytes.byteOffset, task.held.bytes.byteLength));
  const { rows, failure } = await minedSessions(task.sessions, input.options);
  // With --strict, nothing of the file is read after its first failure (the listing thread keeps the first by place).
  return failure === undefined ? { type: "done", rows } : { type: "done", rows, failure: { at: failure.at, message: failure.error.message } };
}

if (port !== null) {
  // One file after another: a task posted while one is mined waits its turn.
  let queue = Promise.resolve();
  port.on("message", (task: LoopsFileTask) => {
    queue = queue.then(async () => {
      try {
        port.postMessage(await mined(task));
      } catch (error) {
        const e = error instanceof Error ? error : new Error(String(error));
        port.postMessage({ type: "crash", message: e.message, ...(e.stack === undefined ? {} : { stack: e.stack }) } satisfies LoopsWorkerMessage);
      }
    });
  });
}
