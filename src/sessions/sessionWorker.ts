// A worker thread of a session replay: reads each session it is dealt, replays it under every
// guard, posts one row per session (or why it could not be read), and keeps none of them.
import { parentPort, workerData } from "node:worker_threads";
import { configFrom } from "../../models/configResolution.js";
import type { ToolEvent } from "../../models/events.js";
import { UserError } from "../cli/errors.js";
import { openSession } from "../import/session.js";
import { reasonOf } from "../import/sessionRefs.js";
import { resolveTarget } from "../targets/registry.js";
import type { Target } from "../targets/target.js";
import { replayOpenLoop } from "./openLoop.js";
import type { SessionResult, SessionTask } from "./replayAll.js";

interface WorkerInput {
  readonly tasks: readonly SessionTask[];
  /** Targets by name: a target is code, not data, so the thread resolves it again. */
  readonly guards: readonly { readonly target: string; readonly block: Record<string, unknown> }[];
}

const input = workerData as WorkerInput;
const port = parentPort;
if (port !== null) {
  const resolved = new Map<string, Target>();
  const guards: { target: Target; config: ReturnType<typeof configFrom> }[] = [];
  for (const g of input.guards) {
    const target = resolved.get(g.target) ?? (await resolveTarget(g.target));
    resolved.set(g.target, target);
    guards.push({ target, config: configFrom(g.block) });
  }
  for (const task of input.tasks) {
    let result: SessionResult;
    try {
      const opened = await openSession(task.ref);
      const events: ToolEvent[] = [];
      for await (const { event } of opened.events) events.push(event);
      if (!events.some((e) => e.type === "call")) result = { type: "empty", index: task.index };
      else {
        const session = { id: task.id, file: task.ref, format: opened.format, label: task.label, events };
        result = { type: "row", index: task.index, verdicts: guards.map((g) => replayOpenLoop(g.target, g.config, session)) };
      }
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      result = { type: "bad", index: task.index, reason: reasonOf(error, task.ref) };
    }
    port.postMessage(result);
  }
  port.postMessage({ type: "done" });
}
