// What every worker thread that runs sessions under guards starts with: the guards resolved again
// in the thread (a target is code, not data), and a stream of task batches it asks the main thread
// for one at a time; an empty batch means the work is done.
import type { MessagePort } from "node:worker_threads";
import { configFrom } from "../../models/configResolution.js";
import type { ResolvedConfig } from "../../models/config.js";
import { resolveTarget } from "../targets/registry.js";
import type { Target } from "../targets/target.js";

export interface ThreadGuard {
  readonly target: Target;
  readonly config: ResolvedConfig;
}

/** Each guard's target by name (loaded once per name) and its config. */
export async function resolveGuards(guards: readonly { readonly target: string; readonly block: Record<string, unknown> }[]): Promise<ThreadGuard[]> {
  const resolved = new Map<string, Target>();
  const out: ThreadGuard[] = [];
  for (const g of guards) {
    const target = resolved.get(g.target) ?? (await resolveTarget(g.target));
    resolved.set(g.target, target);
    out.push({ target, config: configFrom(g.block) });
  }
  return out;
}

/** Asks for a batch, yields it, asks again: work is dealt on request, so no thread holds a list of its share. */
export async function* batchesFrom<T>(port: MessagePort): AsyncGenerator<readonly T[]> {
  for (;;) {
    const batch = await new Promise<readonly T[]>((resolve) => {
      port.once("message", (tasks: readonly T[]) => resolve(tasks));
      port.postMessage({ type: "more" });
    });
    if (batch.length === 0) return;
    yield batch;
  }
}
