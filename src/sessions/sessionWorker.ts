// A worker thread of a session replay: asks for sessions a batch at a time, reads each, replays it
// under every guard, posts one row per session (or why it could not be read), and keeps none.
import { parentPort, workerData } from "node:worker_threads";
import { UserError } from "../io/errors.js";
import { reasonOf } from "../import/sessionRefs.js";
import { batchesFrom, resolveGuards } from "./threadWork.js";
import { replayOpenLoop } from "./openLoop.js";
import { readSessionEvents } from "./recorded.js";
import type { SessionResult, SessionTask } from "./replayAll.js";

interface WorkerInput {
  /** Targets by name: a target is code, not data, so the thread resolves it again. */
  readonly guards: readonly { readonly target: string; readonly block: Record<string, unknown> }[];
}

const input = workerData as WorkerInput;
const port = parentPort;
if (port !== null) {
  const guards = await resolveGuards(input.guards);
  const replay = async (task: SessionTask): Promise<SessionResult> => {
    try {
      const { events, format } = await readSessionEvents(task.ref, task.span);
      if (!events.some((e) => e.type === "call")) return { type: "empty", index: task.index };
      const session = { id: task.id, file: task.ref, format, label: task.label, events };
      return { type: "row", index: task.index, verdicts: guards.map((g) => replayOpenLoop(g.target, g.config, session)) };
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      return { type: "bad", index: task.index, reason: reasonOf(error, task.ref) };
    }
  };
  for await (const batch of batchesFrom<SessionTask>(port)) {
    for (const task of batch) port.postMessage(await replay(task));
  }
  port.postMessage({ type: "done" });
}
