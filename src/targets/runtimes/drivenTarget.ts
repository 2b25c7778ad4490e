// A driven runtime (`qwen-code@0.24.4`, `opencode@1.18.33`, `kilo@V`) as a target. Its CLI runs a
// whole trace at a time: each run a prompt of one conversation, each response served by the
// scripted model with the trace's calls, names and args exactly as recorded. So the target
// answers whole traces (`wholeTrace`), in a child process that drives the CLI while this one
// waits (the Target interface is synchronous), with a timeout; its `start` refuses: a closed-loop
// agent needs a verdict before its next call, and a CLI cannot be paused between calls.
import { execFileSync, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { UserError } from "../../io/errors.js";
import type { ToolEvent } from "../../../models/events.js";
import type { Target, TargetOutput } from "../target.js";
import type { DrivenObservation } from "./drivenRuntime.js";
import { outputsFromObservations, planTrace } from "./traceScript.js";
import { drivenRunStoreFromEnv, type DrivenRunStore } from "./drivenRunCache.js";

const CHILD = fileURLToPath(new URL("./driveTraceMain.js", import.meta.url));
/** Per response the CLI is given, and once more for starting each prompt. */
const MS_PER_RESPONSE = 60_000;
const MAX_OUTPUT = 256 * 1024 * 1024;

/** Why `name` (a driven runtime's name with its version) cannot serve a closed-loop agent; `model`: the peer model to use instead. */
export function closedLoopRefusal(name: string, model: string): string {
  return `${name} is a runtime's own CLI, driven a whole trace at a time: it cannot answer one call at a time, as a closed-loop agent needs (simulate, tune, compare's agents). Use it with trace, scan, replay, scenario record or conform --against; or use its model (${model}) here`;
}

type Driven = ReturnType<typeof planTrace> & { observed: DrivenObservation };

/** How the child ended, when it did not hand its observations over: the user error to raise, or loopsim exits as interrupted. */
function childFailed(runtime: string, ended: { timedOut: boolean; status: number | null; signal: string | null }): UserError {
  // The child stopped on Ctrl-C or SIGTERM (its handlers exit 130 or 143 once the CLI is killed
  // and its folder gone): the user interrupted loopsim, which stops as interrupted, not as an error.
  if (!ended.timedOut && (ended.status === 130 || ended.status === 143)) process.exit(ended.status);
  return new UserError(`${runtime}: the driven run did not finish (${ended.timedOut ? `killed by ${ended.signal ?? "SIGTERM"} after its timeout` : ended.signal !== null ? `killed by ${ended.signal}` : `exit ${ended.status ?? "?"}`})`);
}

function timeoutOf(plan: ReturnType<typeof planTrace>): number {
  const responses = plan.script.prompts.reduce((n, steps) => n + steps.length + 1, 0);
  return MS_PER_RESPONSE * (responses + 1);
}

/** Runtimes whose reuse has been said on stderr (once each per process). */
const reuseSaid = new Set<string>();

/** The same run's observation from LOOPSIM_DRIVEN_RUNS, said once per runtime on stderr. */
function reused(store: DrivenRunStore | undefined, runtime: string, plan: ReturnType<typeof planTrace>): Driven | undefined {
  const observed = store?.get(runtime, plan.script);
  if (store === undefined || observed === undefined) return undefined;
  if (!reuseSaid.has(runtime)) {
    reuseSaid.add(runtime);
    process.stderr.write(`loopsim: ${runtime}: reusing its driven runs kept in ${store.dir} where the script and loopsim's driving code are the same (LOOPSIM_DRIVEN_RUNS); unset it to drive every run again\n`);
  }
  return { ...plan, observed };
}

/** Drives the CLI with the script in a child process and waits; the CLI's observations, or why not. */
function driveInChild(runtime: string, events: readonly ToolEvent[], store: DrivenRunStore | undefined): Driven {
  const plan = planTrace(events);
  const kept = reused(store, runtime, plan);
  if (kept !== undefined) return kept;
  let text: string;
  try {
    text = execFileSync(process.execPath, [CHILD, runtime], { input: JSON.stringify(plan.script), encoding: "utf8", maxBuffer: MAX_OUTPUT, timeout: timeoutOf(plan), killSignal: "SIGTERM", stdio: ["pipe", "pipe", "inherit"] });
  } catch (error) {
    const e = error as { signal?: string | null; status?: number | null; code?: string };
    throw childFailed(runtime, { timedOut: e.code === "ETIMEDOUT", status: e.status ?? null, signal: e.signal ?? null });
  }
  const observed = observationOf(text);
  store?.put(runtime, plan.script, observed);
  return { ...plan, observed };
}

/** The child's report; a child that died mid-write is this run's failure, not loopsim's. */
function observationOf(text: string): DrivenObservation {
  try {
    return JSON.parse(text) as DrivenObservation;
  } catch {
    return { ok: false, error: `the driven run's report is not JSON (${text.length} bytes)` };
  }
}

/** The same without blocking: several sessions' CLIs can run at once. */
function driveInChildAsync(runtime: string, events: readonly ToolEvent[], store: DrivenRunStore | undefined): Promise<Driven> {
  const plan = planTrace(events);
  const kept = reused(store, runtime, plan);
  if (kept !== undefined) return Promise.resolve(kept);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, runtime], { stdio: ["pipe", "pipe", "inherit"] });
    const chunks: Buffer[] = [];
    let size = 0;
    let timedOut = false;
    child.stdout.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_OUTPUT) chunks.push(chunk);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGTERM");
    }, timeoutOf(plan));
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new UserError(`${runtime}: the driven run could not start (${error.message})`));
    });
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      if (status !== 0 || timedOut) return reject(childFailed(runtime, { timedOut, status, signal }));
      if (size > MAX_OUTPUT) return reject(new UserError(`${runtime}: the driven run's report is over ${MAX_OUTPUT} bytes`));
      const observed = observationOf(Buffer.concat(chunks).toString("utf8"));
      try {
        store?.put(runtime, plan.script, observed);
      } catch (error) {
        return reject(error);
      }
      resolve({ ...plan, observed });
    });
    // A child that ends before reading its script closes the pipe: its exit says why, not this.
    child.stdin.on("error", () => undefined);
    child.stdin.end(JSON.stringify(plan.script));
  });
}

function outputsOf(runtime: string, events: readonly ToolEvent[], driven: Driven): TargetOutput[] {
  const { observed, ...plan } = driven;
  if (!observed.ok) throw new UserError(`${runtime}: ${observed.error}`);
  return outputsFromObservations(runtime, events, plan, observed.prompts);
}

/** `runtime`: the name with its version, as it ran; `model`: the runtime without it (its peer model's name). */
export function drivenTarget(runtime: string, model: string, summary: string, notes: readonly string[]): Target {
  const store = drivenRunStoreFromEnv();
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
    wholeTrace: (_config, events) => (events.length === 0 ? [] : outputsOf(runtime, events, driveInChild(runtime, events, store))),
    wholeTraceAsync: async (_config, events) => (events.length === 0 ? [] : outputsOf(runtime, events, await driveInChildAsync(runtime, events, store))),
  };
}
