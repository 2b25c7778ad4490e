// Which outcomes of a loopsim trace have no call waiting for them (an orphan: no runtime emits
// one). A trace's outcome names its call by callId when it has one, else only by its tool, so an
// outcome is an orphan when its run has no open call with that callId or, without a callId, no
// open call of that tool. As with every importer's call book, an outcome closes its call: a
// second outcome for one call is an orphan too, and memory holds only the open calls.
import type { ToolEvent } from "../../models/events.js";
import { normalizeRunId } from "../../models/normalize.js";

/**
 * What pairs an outcome with its call in a loopsim trace: the run and the callId, or, without a
 * callId, the run and the tool. An outcome answers the oldest open call with its key.
 */
export function answerKey(event: Extract<ToolEvent, { type: "call" | "outcome" }>): string {
  const run = normalizeRunId(event.runId);
  // The run's length first says where it ends, so no run, tool or callId can pass for another
  // (one key per triple, as JSON.stringify([run, kind, name]) gave, at a fraction of its cost).
  const name: unknown = event.callId === undefined ? event.tool : event.callId;
  if (typeof name !== "string") return JSON.stringify([run, event.callId === undefined ? "tool" : "id", name]);
  return `${run.length}:${run} ${event.callId === undefined ? "tool" : "id"} ${name}`;
}

export class TraceOrphans {
  private readonly open = new Map<string, number>();
  count = 0;

  /** Notes the event; true when it is an orphan outcome. */
  see(event: ToolEvent): boolean {
    if (event.type !== "call" && event.type !== "outcome") return false;
    const key = answerKey(event);
    const waiting = this.open.get(key) ?? 0;
    if (event.type === "call") {
      this.open.set(key, waiting + 1);
      return false;
    }
    if (waiting === 0) {
      this.count++;
      return true;
    }
    if (waiting === 1) this.open.delete(key);
    else this.open.set(key, waiting - 1);
    return false;
  }
}
