// A worker thread of a grounded evaluation: it reads every session and runs its share of the
// guards (configs) on them, then posts their metrics. Errors come back as messages, so a user's
// mistake (an unreadable file under --strict) still reaches the user as one line.
import { parentPort, workerData } from "node:worker_threads";
import { UserError } from "../io/errors.js";
import type { ReadOptions } from "../sessions/recorded.js";
import { resolveTarget } from "../targets/registry.js";
import { evaluateGrounded, type GroundedPopulation } from "./groundedPopulation.js";

export interface GroundedWorkerInput {
  readonly population: GroundedPopulation;
  readonly guards: readonly { readonly index: number; readonly target: string; readonly block: Record<string, unknown> }[];
  readonly seed: number;
  readonly options: ReadOptions;
}

const input = workerData as GroundedWorkerInput;
const port = parentPort;
if (port !== null) {
  try {
    const guards = [];
    for (const g of input.guards) guards.push({ index: g.index, target: await resolveTarget(g.target), block: g.block });
    const result = await evaluateGrounded(input.population, guards, input.seed, input.options);
    port.postMessage({ type: "done", result });
  } catch (error) {
    port.postMessage({ type: "error", user: error instanceof UserError, message: error instanceof Error ? error.message : String(error) });
  }
}
