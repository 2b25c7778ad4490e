// A driven runtime (`qwen-code@0.24.4`, `opencode@1.18.33`, `kilo@V`) as a target. Its CLI runs a
// whole trace at a time: each run a prompt of one conversation, each response served by the
// scripted model with the trace's calls, names and args exactly as recorded. So the target
// answers whole traces (`wholeTrace`), in a child process that drives the CLI while this one
// waits (the Target interface is synchronous), with a timeout; its `start` refuses: a closed-loop
// agent needs a verdict before its next call, and a CLI cannot be paused between calls.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { UserError } from "../../io/errors.js";
import type { ToolEvent } from "../../../models/events.js";
import type { Target } from "../target.js";
import type { DrivenObservation } from "./drivenRuntime.js";
import { outputsFromObservations, planTrace } from "./traceScript.js";

const CHILD = fileURLToPath(new URL("./driveTraceMain.js", import.meta.url));
/** Per response the CLI is given, and once more for starting each prompt. */
const MS_PER_RESPONSE = 60_000;

/** Why `name` (a driven runtime's name with its version) cannot serve a closed-loop agent; `model`: the peer model to use instead. */
export function closedLoopRefusal(name: string, model: string): string {
  return `${name} is a runtime's own CLI, driven a whole trace at a time: it cannot answer one call at a time, as a closed-loop agent needs (simulate, tune, compare's agents). Use it with trace, scan, replay, scenario record or conform --against; or use its model (${model}) here`;
}

/** Drives the CLI with the script in a child process and waits; the CLI's observations, or why not. */
function driveInChild(runtime: string, events: readonly ToolEvent[]): ReturnType<typeof planTrace> & { observed: DrivenObservation } {
  const plan = planTrace(events);
  const responses = plan.script.prompts.reduce((n, steps) => n + steps.length + 1, 0);
  let text: string;
  try {
    text = execFileSync(process.execPath, [CHILD, runtime], { input: JSON.stringify(plan.script), encoding: "utf8", maxBuffer: 256 * 1024 * 1024, timeout: MS_PER_RESPONSE * (responses + 1), killSignal: "SIGTERM", stdio: ["pipe", "pipe", "inherit"] });
  } catch (error) {
    const e = error as { signal?: string; status?: number | null; message?: string };
    throw new UserError(`${runtime}: the driven run did not finish (${e.signal !== undefined && e.signal !== null ? `killed by ${e.signal} after its timeout` : `exit ${e.status ?? "?"}`})`);
  }
  return { ...plan, observed: JSON.parse(text) as DrivenObservation };
}

/** `runtime`: the name with its version, as it ran; `model`: the runtime without it (its peer model's name). */
export function drivenTarget(runtime: string, model: string, summary: string, notes: readonly string[]): Target {
  return {
    name: runtime,
    summary,
    capabilities: { rollingDetectors: true, warningLevel: true, warningPolicy: false, guard: false, counts: false, honours: [], detectors: [`${runtime}:stop`, `${runtime}:refused`, `${runtime}:warning`], stateSize: false },
    notes: [
      ...notes,
      "driven a whole trace at a time: each run is a prompt of one conversation, each response (the calls of one step) served by the scripted model with the trace's names and args exactly as recorded",
      "its own tools run the calls in a scratch folder: the trace's results are not what it sees, and are not used",
      "ignores every tools.loopDetection field: its numbers are its own",
    ],
    breaks: [],
    start: () => {
      throw new UserError(closedLoopRefusal(runtime, model));
    },
    wholeTrace: (_config, events) => {
      if (events.length === 0) return [];
      const { observed, ...plan } = driveInChild(runtime, events);
      if (!observed.ok) throw new UserError(`${runtime}: ${observed.error}`);
      return outputsFromObservations(runtime, events, plan, observed.prompts);
    },
  };
}
