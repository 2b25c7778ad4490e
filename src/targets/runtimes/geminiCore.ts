// A published Gemini CLI as a target (`gemini-cli@VERSION`, `gemini-cli@latest`): its own
// LoopDetectionService from @google/gemini-cli-core, driven in this process the way its client
// drives it: one service per session (the client's), `reset(prompt)` whenever an event of another
// run arrives (the client resets when the prompt id changes: `lastPromptId !== prompt_id`, run
// ids compared exactly), `addAndCheck` for each tool call request, and the client's strike
// handling:
// - generations whose addAndCheck answers a boolean (up to 0.3x): a loop stops the prompt at once;
// - generations that count strikes (0.4x on): strike 1 cuts the response off at that call (it and
//   the rest of the response never run), `clearDetection()` and a hidden feedback turn; strike 2
//   stops the prompt.
// Model text goes in as its stream events: a message as a Content event (its content-loop rule
// reads it), a thought as a Thought event (which it passes over), with the same strike handling.
// Each call goes through its own turn first (Turn.handlePendingFunctionCall: the name trimmed,
// `args || {}`), with the raw name and args from the trace, and the event that turn yields is
// what addAndCheck gets, as in the CLI. A release whose turn cannot be called this way gets
// loopsim's copy of that rule (normalization/geminiCli.ts), and its notes say so.
// Its LLM-based check (`turnStarted`, after 30 turns) needs a model: it is never called, and the
// report says so. Telemetry stays off (usage statistics false in the config stub), and HOME points
// into loopsim's cache so nothing is written to the user's home.
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { UserError } from "../../io/errors.js";
import { sandboxDir } from "../sandbox.js";
import { ALLOW, peerTarget, type PeerAction, type PeerCall, type PeerText } from "../peers/peerGuard.js";
import { asGiven, type CallView } from "../peers/normalization/callView.js";
import { GEMINI_NORMALIZATION } from "../peers/normalization/geminiCli.js";
import { muteConsole } from "../muteConsole.js";
import type { Target } from "../target.js";
import { namedToolCall, type ProbeAction, type RawToolCall } from "./drivenRuntime.js";
import { ensureRuntime, latestVersion, npmInstallInto } from "./packageCache.js";
import { GEMINI_PACKAGE_NAME } from "./geminiPin.js";

export const GEMINI_PACKAGE = GEMINI_PACKAGE_NAME;
export const GEMINI_RUNTIME = "gemini-cli";
const SERVICE = "dist/src/services/loopDetectionService.js";
const TURN = "dist/src/core/turn.js";
const DETECTOR = "gemini-cli:tool-call-loop";
const CUT = "gemini-cli:response-cut";
const CONTENT = "gemini-cli:content-loop";

/** Gemini CLI's own tool names and args for a probe action. */
export function geminiToolCall(action: ProbeAction, work: string): RawToolCall {
  return namedToolCall(action, work, { read: "read_file", pathKey: "file_path", shell: "run_shell_command" });
}

type CheckResult = boolean | { readonly count: number; readonly detail?: string };

interface LoopDetectionService {
  reset(promptId: string, userPrompt?: string): void;
  addAndCheck(event: { type: string; value: unknown }): CheckResult;
  clearDetection?(): void;
}

type ServiceClass = new (contextOrConfig: unknown) => LoopDetectionService;

type HandlePendingFunctionCall = (this: unknown, fnCall: { id: string; name: unknown; args: unknown }, traceId?: string) => { value?: { name?: unknown; args?: unknown } } | undefined;

/** The turn's own step from a model's function call to the ToolCallRequest it yields. */
type TurnPath = (tool: string, params: unknown) => CallView;

/** Just enough of a Turn for handlePendingFunctionCall: no tool registry (no display), an id given. */
function turnStub(): Record<string, unknown> {
  return {
    chat: { context: { config: { isContextManagementEnabled: () => false } }, loopContext: { toolRegistry: { getTool: () => undefined } } },
    prompt_id: "loopsim",
    callCounter: 0,
    pendingToolCalls: [],
  };
}

/** The shipped turn path when it can be called, with the answer checked on a probe call. */
function shippedTurnPath(handle: HandlePendingFunctionCall | undefined): TurnPath | undefined {
  if (typeof handle !== "function") return undefined;
  // One stub for every call (a trace has thousands): only its list of pending calls grows, and
  // it is emptied before each call.
  const stub = turnStub();
  const pending = stub.pendingToolCalls as unknown[];
  const path: TurnPath = (tool, params) => {
    pending.length = 0;
    const event = handle.call(stub, { id: "loopsim", name: tool, args: params });
    const value = event?.value;
    if (value === undefined || typeof value.name !== "string") throw new Error("no ToolCallRequest from the turn");
    return { tool: value.name, params: value.args };
  };
  try {
    path(" probe ", undefined);
    return path;
  } catch {
    return undefined;
  }
}

export type GeminiGeneration = "stops-at-once" | "strikes";

/** The config stub: loop detection on, telemetry and debug off. Older releases take it as the
 * config, newer ones as a context whose `.config` it also is. */
function configStub(): Record<string, unknown> {
  const stub: Record<string, unknown> = {
    getDisableLoopDetection: () => false,
    getUsageStatisticsEnabled: () => false,
    getTelemetryEnabled: () => false,
    getDebugMode: () => false,
    getSessionId: () => "loopsim",
  };
  stub.config = stub;
  return stub;
}

function sandboxHome(): void {
  const home = join(sandboxDir("runtimes-sandbox"), "home");
  mkdirSync(home, { recursive: true });
  process.env.HOME = home;
  process.env.GEMINI_TELEMETRY_ENABLED = "false";
}

export async function resolveGeminiVersion(spec: string, onNote: (line: string) => void): Promise<string> {
  if (spec === "latest") return latestVersion(GEMINI_RUNTIME, GEMINI_PACKAGE, onNote);
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.]+)?$/.test(spec)) throw new UserError(`gemini-cli@${spec}: not a version (expected e.g. gemini-cli@0.61.0 or gemini-cli@latest)`);
  return spec;
}

export async function ensureGemini(version: string, onNote: (line: string) => void): Promise<string> {
  return ensureRuntime(
    GEMINI_RUNTIME,
    version,
    async (dir) => {
      await npmInstallInto(dir, `${GEMINI_PACKAGE}@${version}`);
      if (!existsSync(join(dir, "node_modules", GEMINI_PACKAGE, SERVICE))) throw new UserError(`gemini-cli@${version}: layout not recognised: no ${SERVICE} in ${GEMINI_PACKAGE}`);
      return [`${GEMINI_PACKAGE}@${version}`];
    },
    onNote,
  );
}

interface RunState {
  readonly service: LoopDetectionService;
  /** The response strike 1 cut off: its other calls never reach the detector nor run. */
  readonly cutStep: string | undefined;
}

interface LoadedService {
  readonly Service: ServiceClass;
  readonly toolCallType: string;
  readonly contentType: string;
  readonly thoughtType: string;
  readonly handle: HandlePendingFunctionCall | undefined;
  readonly generation: GeminiGeneration;
}

/** Each version's modules are imported once per process (several seconds: hundreds of files);
 * every later target of that version reuses them. */
const loaded = new Map<string, Promise<LoadedService>>();

function loadService(version: string, dir: string): Promise<LoadedService> {
  let pending = loaded.get(version);
  if (pending === undefined) {
    pending = importService(version, dir);
    loaded.set(version, pending);
    pending.catch(() => loaded.delete(version));
  }
  return pending;
}

async function importService(version: string, dir: string): Promise<LoadedService> {
  sandboxHome();
  const root = join(dir, "node_modules", GEMINI_PACKAGE);
  // Its telemetry module registers OpenTelemetry globals at import and complains on the console
  // when another version already did (several versions in one process): keep that quiet.
  const restore = muteConsole();
  try {
    const serviceModule = (await import(pathToFileURL(join(root, SERVICE)).href)) as { LoopDetectionService?: ServiceClass };
    const turnModule = (await import(pathToFileURL(join(root, TURN)).href)) as { GeminiEventType?: { ToolCallRequest?: string; Content?: string; Thought?: string }; Turn?: { prototype?: { handlePendingFunctionCall?: HandlePendingFunctionCall } } };
    const handle = turnModule.Turn?.prototype?.handlePendingFunctionCall;
    if (serviceModule.LoopDetectionService === undefined) throw new Error("no LoopDetectionService export");
    const Service = serviceModule.LoopDetectionService;
    const toolCallType = turnModule.GeminiEventType?.ToolCallRequest ?? "tool_call_request";
    const contentType = turnModule.GeminiEventType?.Content ?? "content";
    const thoughtType = turnModule.GeminiEventType?.Thought ?? "thought";
    return { Service, toolCallType, contentType, thoughtType, handle, generation: generationOf(Service, toolCallType) };
  } catch (error) {
    throw new UserError(`gemini-cli@${version}: its LoopDetectionService does not load (${(error as Error).message.split("\n")[0]})`);
  } finally {
    restore();
  }
}

/** Each version's target, made once per process: field's columns, compare's and scan's threads,
 * conform's --against and the bench resolve it again and again, and a target holds no session
 * state (each `start` makes its own service), so all of them share one. */
const targets = new Map<string, Promise<Target>>();

export async function loadGeminiTarget(spec: string, onNote: (line: string) => void = (line) => process.stderr.write(line + "\n")): Promise<Target> {
  const version = await resolveGeminiVersion(spec, onNote);
  let pending = targets.get(version);
  if (pending === undefined) {
    pending = makeGeminiTarget(version, onNote);
    targets.set(version, pending);
    pending.catch(() => targets.delete(version));
  }
  return pending;
}

async function makeGeminiTarget(version: string, onNote: (line: string) => void): Promise<Target> {
  const dir = await ensureGemini(version, onNote);
  const { Service, toolCallType, contentType, thoughtType, handle, generation } = await loadService(version, dir);

  const shipped = shippedTurnPath(handle);
  const turnPath: TurnPath = shipped ?? ((tool, params) => GEMINI_NORMALIZATION.view(tool, params));
  /** The client's handling of one addAndCheck answer: nothing, strike 1 (cut, clear, feedback) or a stop. */
  const answer = (state: RunState, result: CheckResult, detector: string, step: string | undefined): { state: RunState; action: PeerAction } => {
    if (result === false || (typeof result === "object" && result.count === 0)) return { state: state.cutStep === undefined ? state : { ...state, cutStep: undefined }, action: ALLOW };
    if (result === true || result.count > 1) return { state, action: { kind: "stop", detector, count: typeof result === "object" ? result.count : 1, message: "Gemini CLI: Loop detected, stopping execution." } };
    state.service.clearDetection?.();
    const detail = result.detail ?? "Repetitive patterns identified";
    return { state: { ...state, cutStep: step }, action: { kind: "block", detector, count: 1, message: `System: Potential loop detected. Details: ${detail}. Please take a step back and confirm you're making forward progress.` } };
  };
  const onCall = (state: RunState, call: PeerCall): { state: RunState; action: PeerAction } => {
    if (state.cutStep !== undefined && call.step === state.cutStep) {
      return { state, action: { kind: "block", detector: CUT, count: 0, message: "Gemini CLI: the response was cut off at a detected loop; this call never ran." } };
    }
    const seen = turnPath(call.tool, call.params);
    const result = state.service.addAndCheck({ type: toolCallType, value: { callId: "loopsim", name: seen.tool, args: seen.params, isClientInitiated: false, prompt_id: "loopsim" } });
    return answer(state, result, DETECTOR, call.step);
  };
  const onText = (state: RunState, text: PeerText): { state: RunState; action: PeerAction } => {
    // Text of a response already cut off never arrives.
    if (state.cutStep !== undefined && text.step === state.cutStep) return { state, action: ALLOW };
    return answer(state, state.service.addAndCheck({ type: text.type === "message" ? contentType : thoughtType, value: text.type === "message" ? text.text : { subject: "", description: text.text } }), CONTENT, text.step);
  };
  return peerTarget<RunState>({
    name: `gemini-cli@${version}`,
    summary: `Gemini CLI ${version}: its own LoopDetectionService (${GEMINI_PACKAGE}@${version}), ${generation === "strikes" ? "strike 1 cuts the call off with feedback, strike 2 stops the prompt" : "a detected loop stops the prompt at once"}`,
    notes: [
      `runs the shipped ${GEMINI_PACKAGE}@${version} (${SERVICE}) in-process`,
      generation === "strikes" ? "strike handling as its client does it: count 1 cuts the response and clears the flag, count 2 stops" : "addAndCheck answers a boolean in this generation: the first detection stops the prompt",
      shipped !== undefined ? "each call goes through its own Turn.handlePendingFunctionCall (name trimmed, args || {}) with the trace's raw name and args" : `its Turn.handlePendingFunctionCall cannot be called here: loopsim's copy of the rule stands in (${GEMINI_NORMALIZATION.rule})`,
      "a run stands for one user prompt: one service per session, reset(prompt) whenever an event of another run arrives, as the client resets it when the prompt id changes (ids compared exactly: 'p1' and ' p1' are two prompts); two runs taking turns reset it at every change",
      "count is the service's detection count, the strike: 1 cuts the response, 2 stops the prompt",
      "its LLM-based check needs a model: n/a here (turnStarted is never called)",
      "model text: a message is a Content event, a thought a Thought event, given to the same service",
    ],
    detectors: [DETECTOR, CUT, CONTENT],
    normalization: asGiven("gemini-cli", "as the model sent them, into its own turn", `${GEMINI_PACKAGE}@${version} ${TURN}`),
    warns: false,
    runIds: "exact",
    scope: "session",
    reducer: {
      // The client's service, made once per session; each prompt resets it (enterRun).
      initial: () => ({ service: new Service(configStub()), cutStep: undefined }),
      enterRun: (state, run) => {
        state.service.reset(run, "");
        return { service: state.service, cutStep: undefined };
      },
      onCall,
      onOutcome: (state) => ({ state, action: ALLOW }),
      onText,
    },
  });
}

/** Which client behaviour goes with this service: a boolean answer, or a strike count. */
function generationOf(Service: ServiceClass, toolCallType: string): GeminiGeneration {
  const probe = new Service(configStub());
  probe.reset("loopsim-probe", "");
  const answer = probe.addAndCheck({ type: toolCallType, value: { callId: "p", name: "probe", args: {}, isClientInitiated: false, prompt_id: "p" } });
  return typeof answer === "boolean" ? "stops-at-once" : "strikes";
}
