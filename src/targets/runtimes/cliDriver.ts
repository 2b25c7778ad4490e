// Drives one runtime's CLI through a script: a scratch folder with its own HOME (nothing of the
// user's is read or written), the scripted model on a unix socket that the OS sandbox relays to
// the CLI's loopback (osSandbox.ts: the CLI sees nothing else, and reaches no network), one CLI
// process per prompt in its own process group, a watchdog per step, and clean-up of every
// process, the endpoint and the folder whatever happens: a finished run, a timeout, a crash, or
// Ctrl-C in loopsim.
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ResultPromise } from "execa";
import { sandboxDir } from "../sandbox.js";
import { SANDBOX_MODEL_PORT, sandboxedCommand, sandboxUnavailable } from "./osSandbox.js";
import { DEFAULT_SANDBOX_RESIDENT_BYTES, watchResident } from "./residentWatchdog.js";
import type { DrivenObservation, DrivenScript, DriveOptions, PromptObservation, ToolNaming } from "./drivenRuntime.js";
import { startScriptedModel, type ScriptedModel, type SeenRequest } from "./scriptedModel.js";

export interface CliInvocation {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** The runtime's installed files, shown read-only inside the sandbox. */
  readonly readOnly: readonly string[];
}

export interface CliRun {
  readonly exitCode: number | undefined;
  readonly signal: string | undefined;
  readonly stdout: string;
  readonly stderr: string;
  /** Scripted-step index -> call ids, for this prompt. */
  readonly stepCalls: readonly (readonly string[])[];
  /** Steps of this prompt served before the process ended. */
  readonly served: number;
  readonly requests: readonly SeenRequest[];
}

export interface CliAdapter extends ToolNaming {
  /** Writes the runtime's config into the sandbox and says how to start one prompt. */
  invocation(context: { readonly baseUrl: string; readonly work: string; readonly home: string; readonly prompt: number }): CliInvocation;
  /** What the runtime did in one prompt, from its own output; a string when the run is not readable. */
  observe(run: CliRun): PromptObservation | string;
}

const DEFAULT_STEP_TIMEOUT_MS = 60_000;
/** The wait for a CLI's first model request: start-up (a 170 MB binary, or a large bundle) takes
 * 2-20 s alone and far longer on a loaded machine; every later step has the step watchdog. */
const DEFAULT_START_TIMEOUT_MS = 180_000;
export const PROMPT_TEXT = "Work on the files in this folder.";

/** Live runtime processes (by group), killed if loopsim is interrupted. */
const live = new Set<number>();
let handlersInstalled = false;

function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
  live.delete(pid);
}

/** Scratch folders of runs under way, removed on exit and on a signal as well as after each run. */
const scratchFolders = new Set<string>();

function installSignalHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  // Ctrl-C or SIGTERM mid-run: the runtimes are stopped first, then their scratch folders
  // (home and work inside) go, as they go after a run that ends (the docs promise it).
  const stopAll = () => {
    for (const pid of [...live]) killGroup(pid);
    for (const dir of [...scratchFolders]) rmSync(dir, { recursive: true, force: true });
  };
  process.once("exit", stopAll);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      stopAll();
      process.exit(signal === "SIGINT" ? 130 : 143);
    });
  }
}

/** Process ids still running in a process group (to prove nothing is left behind). */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function driveCli(adapter: CliAdapter, script: DrivenScript, options: DriveOptions = {}): Promise<DrivenObservation> {
  const noSandbox = sandboxUnavailable();
  if (noSandbox !== undefined) return { ok: false, error: `a driven CLI runs the calls it is given, so it runs only in an OS sandbox, and none can be made here: ${noSandbox}` };
  installSignalHandlers();
  const sandboxRoot = sandboxDir("runtimes-sandbox");
  const scratch = mkdtempSync(join(sandboxRoot, "run-"));
  scratchFolders.add(scratch);
  const work = join(scratch, "work");
  const home = join(scratch, "home");
  mkdirSync(work, { recursive: true });
  mkdirSync(home, { recursive: true });
  let model: ScriptedModel | undefined;
  try {
    for (const [file, content] of Object.entries(script.files)) writeInto(work, file, content);
    model = await startScriptedModel({ socketPath: join(scratch, "model.sock"), baseUrl: `http://127.0.0.1:${SANDBOX_MODEL_PORT}/v1` });
    const prompts: PromptObservation[] = [];
    for (let p = 0; p < script.prompts.length; p++) {
      const steps = script.prompts[p] ?? [];
      const before = model.served();
      const firstRequest = model.requests.length;
      model.load(
        steps.map((step) => ({
          calls: step.calls.map((c) => ({ id: c.id, ...adapter.toolCall(c.action, work) })),
          beforeServe: () => {
            for (const [file, content] of Object.entries(step.writes ?? {})) writeInto(work, file, content);
          },
        })),
      );
      const run = await runOnce(adapter, model, { baseUrl: model.baseUrl, work, home, prompt: p }, scratch, options);
      if (typeof run === "string") return { ok: false, error: `prompt ${p + 1}: ${run}` };
      const cliRun: CliRun = { ...run, stepCalls: steps.map((s) => s.calls.map((c) => c.id)), served: model.served() - before, requests: model.requests.slice(firstRequest) };
      const observed = adapter.observe(cliRun);
      if (typeof observed === "string") return { ok: false, error: `prompt ${p + 1}: ${observed}` };
      prompts.push(observed);
      if (observed.stoppedAtStep === null && cliRun.served < steps.length) return { ok: false, error: `prompt ${p + 1}: the runtime ended after ${cliRun.served} of ${steps.length} responses without a loop stop (exit ${run.exitCode ?? run.signal}): ${lastLine(run.stderr)}` };
    }
    return { ok: true, prompts };
  } finally {
    await model?.close();
    rmSync(scratch, { recursive: true, force: true });
    scratchFolders.delete(scratch);
  }
}

function writeInto(work: string, file: string, content: string | null): void {
  const path = join(work, file);
  if (content === null) {
    try {
      unlinkSync(path);
    } catch {
      // already absent
    }
    return;
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

function stderrTail(stderr: unknown): string {
  const last = lastLine(String(stderr ?? ""));
  return last === "" ? "" : `; its last words: ${last}`;
}

/** The last line of a program's output, without terminal colour codes. */
export function lastLine(text: string): string {
  return stripAnsi(text).trim().split("\n").at(-1)?.slice(0, 300) ?? "";
}

export function stripAnsi(text: string): string {
  return text.replace(/\u001b\[[0-9;]*[A-Za-z]/g, "");
}

const gib = (bytes: number): string => `${(bytes / 1024 ** 3).toFixed(2)} GiB`;

type RawRun = Omit<CliRun, "stepCalls" | "served" | "requests">;

/** One CLI process for one prompt, with the watchdog; a string says why it could not finish. */
async function runOnce(adapter: CliAdapter, model: ScriptedModel, context: Parameters<CliAdapter["invocation"]>[0], scratch: string, options: DriveOptions): Promise<RawRun | string> {
  const invocation = adapter.invocation(context);
  const { file, args } = sandboxedCommand(invocation.file, invocation.args, { readOnly: invocation.readOnly, writable: [scratch], modelSocket: join(scratch, "model.sock"), cwd: context.work, memoryBytes: options.memoryBytes });
  const env = invocation.env;
  const stepTimeout = options.stepTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS;
  // execa is ~130 modules: loaded when a CLI is first driven, not by every loopsim start.
  const { execa } = await import("execa");
  let child: ResultPromise<{ reject: false; detached: true; cleanup: true; stdin: "ignore"; cwd: string; env: Record<string, string>; extendEnv: false; maxBuffer: number }>;
  try {
    child = execa(file, [...args], { reject: false, detached: true, cleanup: true, stdin: "ignore", cwd: context.work, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: "C.UTF-8", ...env }, extendEnv: false, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    return `the runtime could not be started (${(error as Error).message})`;
  }
  const pid = child.pid;
  if (pid !== undefined) {
    live.add(pid);
    options.onStarted?.(pid, context.prompt);
  }
  const startTimeout = Math.max(stepTimeout, options.startTimeoutMs ?? (options.stepTimeoutMs === undefined ? DEFAULT_START_TIMEOUT_MS : stepTimeout));
  let timedOut = false;
  let waited = startTimeout;
  let timer: NodeJS.Timeout | undefined;
  const arm = (ms: number) => {
    if (timer !== undefined) clearTimeout(timer);
    waited = ms;
    timer = setTimeout(() => {
      timedOut = true;
      if (pid !== undefined) killGroup(pid);
    }, ms);
  };
  arm(startTimeout);
  const stopListening = model.onRequest(() => arm(stepTimeout));
  // What the run holds, all its processes together, is bounded too: the data bound is per process
  // and counts reservations (residentWatchdog.ts).
  const residentBound = options.residentBytes ?? DEFAULT_SANDBOX_RESIDENT_BYTES;
  let overResident: number | undefined;
  const stopWatching =
    pid === undefined
      ? () => undefined
      : watchResident(pid, residentBound, (bytes) => {
          overResident = bytes;
          killGroup(pid);
        });
  try {
    const result = await child;
    if (overResident !== undefined) return `the runtime went over the sandbox's bound of resident memory (${gib(overResident)} resident, bound ${gib(residentBound)}) after ${model.served()} responses; it was killed${stderrTail(result.stderr)}`;
    if (timedOut) return `the runtime made no model request and did not exit within ${waited} ms (after ${model.served()} responses); it was killed${stderrTail(result.stderr)}`;
    if (result.failed && result.exitCode === undefined) {
      const why = result.signal !== undefined ? `killed by ${result.signal}` : (result.originalMessage ?? "failed");
      return `the runtime exited abnormally (${why}) after ${model.served()} responses: ${lastLine(String(result.stderr ?? ""))}`;
    }
    return { exitCode: result.exitCode, signal: result.signal, stdout: String(result.stdout ?? ""), stderr: String(result.stderr ?? "") };
  } finally {
    stopListening();
    stopWatching();
    if (timer !== undefined) clearTimeout(timer);
    if (pid !== undefined) killGroup(pid);
  }
}


/** Injected warnings: user or system text that appears between two requests of one prompt and
 * speaks of loops or repetition (tool results and the model's own messages excluded). Cline's
 * soft warning names neither: "Detected 3 consecutive identical calls to `read_files`; consider
 * trying a different approach." */
export function warningsIn(requests: readonly SeenRequest[]): { afterStep: number; text: string }[] {
  const found: { afterStep: number; text: string }[] = [];
  let lastStep = -1;
  for (let i = 0; i < requests.length; i++) {
    const req = requests[i] as SeenRequest;
    if (i > 0) {
      const previous = requests[i - 1] as SeenRequest;
      for (const message of req.messages.slice(previous.messages.length)) {
        const text = messageText(message);
        if (text !== undefined && /loop|repeat|consecutive identical/i.test(text)) found.push({ afterStep: lastStep, text: text.slice(0, 300) });
      }
    }
    if (req.servedStep !== undefined) lastStep = req.servedStep;
  }
  return found;
}

function messageText(message: unknown): string | undefined {
  if (message === null || typeof message !== "object") return undefined;
  const m = message as { role?: unknown; content?: unknown };
  if (m.role !== "user" && m.role !== "system") return undefined;
  if (typeof m.content === "string") return m.content;
  if (Array.isArray(m.content)) return m.content.map((part) => (part !== null && typeof part === "object" && typeof (part as { text?: unknown }).text === "string" ? (part as { text: string }).text : "")).join("\n");
  return undefined;
}
