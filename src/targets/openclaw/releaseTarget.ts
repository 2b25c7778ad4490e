// A shipped OpenClaw release as a target: the release's own detect, record and outcome-record
// functions (found by name among the detector chunk's exports, whatever letters the bundler gave
// them), its own post-compaction guard where it can be loaded, and the caller's side (warning
// buckets, key prefixes, the enabled gate, what a blocked call records) emulated per release as
// generation.ts documents. Logging is silenced before the first import (silence.ts).
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ResolvedConfig } from "../../../models/config.js";
import type { ToolEvent } from "../../../models/events.js";
import { normalizeRunId, normalizeToolName } from "../../../models/normalize.js";
import { loopVetoResult } from "../../../models/verdict.js";
import { UserError } from "../../io/errors.js";
import { muteConsole } from "../muteConsole.js";
import type { Target, TargetOutput, TargetSession } from "../target.js";
import { releaseDir, type ReleaseManifest } from "./cache.js";
import { ensureRelease, resolveReleaseSpec } from "./fetch.js";
import { generationOf, type Generation } from "./generation.js";
import { loadGuardFactory, type GuardFactory, type ReleaseGuard } from "./guardRegion.js";
import { silenceThisProcess } from "./silence.js";

interface DetectResult {
  readonly stuck: boolean;
  readonly level?: "warning" | "critical";
  readonly detector?: string;
  readonly count?: number;
  readonly message?: string;
  readonly warningKey?: string;
}

interface HistoryRecord {
  readonly toolName: string;
  readonly argsHash: string;
  resultHash?: string;
  outcomeKind?: string;
  unknownToolName?: string;
}

interface SessionState {
  toolCallHistory?: HistoryRecord[];
}

interface ReleaseFunctions {
  detect(state: SessionState, tool: string, params: unknown, config: unknown, scope?: { runId: string }): DetectResult;
  record(state: SessionState, tool: string, params: unknown, callId: string | undefined, config: unknown, scope?: { runId: string }): void;
  recordOutcome(state: SessionState, input: Record<string, unknown>): HistoryRecord | undefined;
}

const WANTED = { detect: "detectToolCallLoop", record: "recordToolCall", recordOutcome: "recordToolCallOutcome" } as const;

/** The functions by their declared names, among the exports and the exported objects' properties. */
function findFunctions(module: Record<string, unknown>): ReleaseFunctions | string {
  const byName = new Map<string, (...args: never[]) => unknown>();
  const visit = (value: unknown) => {
    if (typeof value === "function" && value.name !== "") byName.set(value.name, value as (...args: never[]) => unknown);
  };
  for (const value of Object.values(module)) {
    visit(value);
    if (value !== null && typeof value === "object") for (const inner of Object.values(value as Record<string, unknown>)) visit(inner);
  }
  const missing = Object.values(WANTED).filter((name) => !byName.has(name));
  if (missing.length > 0) return `its detector chunk does not export ${missing.join(", ")}`;
  const detect = byName.get(WANTED.detect) as unknown as ReleaseFunctions["detect"];
  const record = byName.get(WANTED.record) as unknown as ReleaseFunctions["record"];
  const recordOutcome = byName.get(WANTED.recordOutcome) as unknown as ReleaseFunctions["recordOutcome"];
  return {
    detect: (...args) => hushed(() => detect(...args)),
    record: (...args) => hushed(() => record(...args)),
    recordOutcome: (...args) => hushed(() => recordOutcome(...args)),
  };
}


/**
 * Releases create their loggers lazily, and tslog complains on the console when it is given the
 * silent level ("minLevel Infinity is outside the default range"): nothing a release prints may
 * reach loopsim's output, so the console is muted around every call into it.
 */
function hushed<T>(call: () => T): T {
  const restore = muteConsole();
  try {
    return call();
  } finally {
    restore();
  }
}

const LOOP_WARNING_BUCKET_SIZE = 10;
const MAX_LOOP_WARNING_KEYS = 256;

/** The config object the caller hands the release: the effective tools.loopDetection block. */
function blockOf(config: ResolvedConfig): Record<string, unknown> {
  return {
    ...(config.enabled === undefined ? {} : { enabled: config.enabled }),
    historySize: config.historySize,
    warningThreshold: config.warningThreshold,
    criticalThreshold: config.criticalThreshold,
    unknownToolThreshold: config.unknownToolThreshold,
    globalCircuitBreakerThreshold: config.globalCircuitBreakerThreshold,
    detectors: { ...config.detectors },
    postCompactionGuard: { ...config.postCompactionGuard },
  };
}

class ReleaseSession implements TargetSession {
  private readonly state: SessionState = { toolCallHistory: [] };
  private readonly block: Record<string, unknown>;
  private readonly buckets = new Map<string, number>();
  private readonly blocked = new Map<string, number>();
  private readonly guards = new Map<string, ReleaseGuard>();
  private readonly aborted = new Set<string>();
  private index = 0;

  constructor(
    private readonly fns: ReleaseFunctions,
    private readonly gen: Generation,
    private readonly guardFactory: GuardFactory | undefined,
    private readonly config: ResolvedConfig,
  ) {
    this.block = blockOf(config);
  }

  step(event: ToolEvent): TargetOutput[] {
    const index = this.index++;
    const run = normalizeRunId(event.runId);
    // A release's tool-loop detection sees tool calls only: model text takes its place in the
    // stream and nothing else, as in the reference.
    if (event.type === "message" || event.type === "thought") return [];
    if (this.aborted.has(run)) return [{ kind: "ignored", index, run, eventType: event.type }];
    switch (event.type) {
      case "call":
        return this.onCall(index, run, this.toolName(event.tool), event.params, event.callId);
      case "outcome":
        return this.onOutcome(index, run, this.toolName(event.tool), event.params, event.callId, event);
      case "compaction":
        return this.onCompaction(index, run);
      default: {
        const unhandled: never = event;
        throw new Error(`unhandled event ${JSON.stringify(unhandled)}`);
      }
    }
  }

  private toolName(raw: string): string {
    const tool = normalizeToolName(raw);
    return this.gen.toolAliases[tool] ?? tool;
  }

  private scope(run: string): { runId: string } | undefined {
    return this.gen.runScoped && run !== "" ? { runId: run } : undefined;
  }

  /** The release's own args hash, from a record written into a scratch history. */
  private argsHashOf(tool: string, params: unknown, callId: string | undefined): string {
    const scratch: SessionState = { toolCallHistory: [] };
    this.fns.record(scratch, tool, params, callId, this.block, undefined);
    return scratch.toolCallHistory?.[0]?.argsHash ?? `${tool}:?`;
  }

  private recordsCalls(): boolean {
    return !this.gen.enabledGate || this.config.enabled === true;
  }

  /** The record the release just appended is the newest; its argsHash is the release's own. */
  private recordCall(tool: string, params: unknown, callId: string | undefined, run: string): string {
    this.fns.record(this.state, tool, params, callId, this.block, this.scope(run));
    return this.state.toolCallHistory?.at(-1)?.argsHash ?? this.argsHashOf(tool, params, callId);
  }

  private onCall(index: number, run: string, tool: string, params: unknown, callId: string | undefined): TargetOutput[] {
    const found = this.recordsCalls() ? this.fns.detect(this.state, tool, params, this.block, this.scope(run)) : { stuck: false };
    if (!found.stuck || found.level === undefined) {
      const argsHash = this.recordsCalls() ? this.recordCall(tool, params, callId, run) : this.argsHashOf(tool, params, callId);
      return [{ kind: "call", index, run, tool, argsHash, verdict: "allow" }];
    }
    const detector = found.detector ?? "unknown";
    const count = found.count ?? 0;
    const warningKey = found.warningKey ?? `${detector}:${tool}`;
    const message = found.message ?? "";
    if (found.level === "warning") {
      const emitted = this.emitWarning(this.gen.runPrefixedWarningKeys && run !== "" ? `${run}:${warningKey}` : warningKey, count);
      const argsHash = this.recordCall(tool, params, callId, run);
      return [{ kind: "call", index, run, tool, argsHash, verdict: "warning", detector, count, warningKey, message, emitted }];
    }
    const argsHash = this.argsHashOf(tool, params, callId);
    const verdict: TargetOutput = { kind: "call", index, run, tool, argsHash, verdict: "critical", detector, count, warningKey, message, emitted: true };
    const key = blockedKey(run, argsHash, callId);
    const waiting = this.blocked.get(key) ?? 0;
    this.blocked.delete(key); // re-inserted as the newest
    this.blocked.set(key, waiting + 1);
    // Blocked calls whose outcome never comes must not pile up (the reference keeps historySize).
    while (this.blocked.size > Math.max(1, this.config.historySize)) this.blocked.delete(this.blocked.keys().next().value as string);
    if (this.gen.blockedCallRecords === "nothing") return [verdict];
    const written = this.recordOutcome(run, tool, params, callId, { result: loopVetoResult(message) });
    const abort = this.observe(index, run, tool, written);
    return abort === undefined ? [verdict] : [verdict, abort];
  }

  /** The caller's buckets of a constant 10 per key, at most 256 keys (oldest dropped). */
  private emitWarning(key: string, count: number): boolean {
    const bucket = Math.floor(count / LOOP_WARNING_BUCKET_SIZE);
    if (bucket <= (this.buckets.get(key) ?? 0)) return false;
    this.buckets.set(key, bucket);
    while (this.buckets.size > MAX_LOOP_WARNING_KEYS) this.buckets.delete(this.buckets.keys().next().value as string);
    return true;
  }

  /** Calls the release's recorder and finds the record it wrote, whether or not it returns it. */
  private recordOutcome(run: string, tool: string, params: unknown, callId: string | undefined, outcome: { result?: unknown; error?: unknown }): HistoryRecord | undefined {
    const history = this.state.toolCallHistory ?? [];
    const before = new Set(history.filter((r) => r.resultHash === undefined && r.outcomeKind === undefined));
    const last = history.at(-1);
    const input: Record<string, unknown> = { toolName: tool, toolParams: params, toolCallId: callId, config: this.block, ...outcome };
    if (this.gen.runScoped && run !== "") input.runId = run;
    const returned = this.fns.recordOutcome(this.state, input);
    if (returned !== undefined && returned !== null && typeof returned === "object") return returned;
    const after = this.state.toolCallHistory ?? [];
    const filled = after.find((r) => before.has(r) && (r.resultHash !== undefined || r.outcomeKind !== undefined));
    if (filled !== undefined) return filled;
    const appended = after.at(-1);
    return appended !== undefined && appended !== last && !before.has(appended) ? appended : undefined;
  }

  private onOutcome(index: number, run: string, tool: string, params: unknown, callId: string | undefined, event: { result?: unknown; error?: unknown }): TargetOutput[] {
    // Only an outcome that may be a blocked call's needs its args hash before it is recorded.
    if (this.blocked.size > 0) {
      const argsHash = this.argsHashOf(tool, params, callId);
      const key = blockedKey(run, argsHash, callId);
      const pending = this.blocked.get(key);
      if (pending !== undefined) {
        if (pending <= 1) this.blocked.delete(key);
        else this.blocked.set(key, pending - 1);
        return [{ kind: "outcome", index, run, tool, recorded: false, vetoed: true, argsHash, resultHash: undefined, unknownTool: undefined }];
      }
    }
    const outcome = "error" in event && event.error !== undefined ? { error: event.error } : { result: event.result };
    const written = this.recordOutcome(run, tool, params, callId, outcome);
    const argsHash = written?.argsHash ?? this.argsHashOf(tool, params, callId);
    const note: TargetOutput = { kind: "outcome", index, run, tool, recorded: written !== undefined, vetoed: false, argsHash, resultHash: written?.resultHash ?? written?.outcomeKind, unknownTool: written?.unknownToolName };
    const abort = this.observe(index, run, tool, written);
    return abort === undefined ? [note] : [note, abort];
  }

  /** The runner hands the guard each outcome the recorder wrote with a result hash. */
  private observe(index: number, run: string, tool: string, written: HistoryRecord | undefined): TargetOutput | undefined {
    const guard = this.guards.get(run);
    if (guard === undefined || written?.resultHash === undefined) return undefined;
    const verdict = guard.observe({ toolName: written.toolName ?? tool, argsHash: written.argsHash, resultHash: written.resultHash });
    if (!verdict.shouldAbort) return undefined;
    this.aborted.add(run);
    this.guards.delete(run);
    return { kind: "abort", index, run, error: "compaction_loop_persisted", tool: verdict.toolName ?? tool, count: verdict.count ?? 0, message: verdict.message ?? "" };
  }

  private onCompaction(index: number, run: string): TargetOutput[] {
    if (this.guardFactory === undefined || this.config.enabled === false) return [{ kind: "compaction", index, run, armed: false }];
    let guard = this.guards.get(run);
    if (guard === undefined) {
      guard = this.guardFactory(this.config.postCompactionGuard, { enabled: true });
      this.guards.set(run, guard);
    }
    guard.armPostCompaction();
    return [{ kind: "compaction", index, run, armed: true }];
  }
}

function blockedKey(run: string, argsHash: string, callId: string | undefined): string {
  return `${run}\u0000${argsHash}\u0000${callId ?? "\u0001"}`;
}

/**
 * Some releases' logging library complains on the console while it loads (tslog's "minLevel
 * Infinity is outside the default range" for the silent level); nothing a release says while
 * loading belongs in loopsim's output.
 */
async function quietly<T>(load: () => Promise<T>): Promise<T> {
  const restore = muteConsole();
  // A release's runtime installs its own signal and exit handlers when it loads (they swallow
  // SIGTERM and Ctrl-C); loopsim keeps its own behaviour, so whatever the release adds is removed.
  const before = new Map(PROCESS_EVENTS.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  try {
    return await load();
  } finally {
    restore();
    for (const e of PROCESS_EVENTS) {
      for (const listener of process.listeners(e as NodeJS.Signals)) if (!before.get(e)?.has(listener)) process.removeListener(e, listener);
    }
  }
}

const PROCESS_EVENTS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGUSR1", "SIGUSR2", "exit", "beforeExit", "uncaughtException", "unhandledRejection"] as const;

const loaded = new Map<string, Promise<Target>>();

/** `openclaw@VERSION` (or `latest`): from the cache, fetched once when missing. */
export function loadReleaseTarget(spec: string, onNote: (line: string) => void = (line) => process.stderr.write(line + "\n")): Promise<Target> {
  let promise = loaded.get(spec);
  if (promise === undefined) {
    promise = load(spec, onNote);
    loaded.set(spec, promise);
  }
  return promise;
}

async function load(spec: string, onNote: (line: string) => void): Promise<Target> {
  const version = await resolveReleaseSpec(spec, onNote);
  const manifest = await ensureRelease(version, onNote);
  return targetFromManifest(manifest);
}

export async function targetFromManifest(manifest: ReleaseManifest): Promise<Target> {
  const { version } = manifest;
  return targetFromDist({
    name: `openclaw@${version}`,
    label: `OpenClaw ${version}`,
    dist: join(releaseDir(version), "package", "dist"),
    detectorChunk: manifest.detectorChunk,
    guardChunk: manifest.guardChunk,
    generation: generationOf(version),
    notLoading: (why) => `openclaw@${version}: its detector chunk ${manifest.detectorChunk} does not load (${why}); delete ${releaseDir(version)} to fetch it again`,
  });
}

/** Where a build's chunks are and how its caller behaves: a cached release, or a local build. */
export interface BuildLayout {
  readonly name: string;
  readonly loadedFrom?: string;
  /** How the summary names it: "OpenClaw 2026.9.6", "the OpenClaw build at ./build". */
  readonly label: string;
  readonly dist: string;
  readonly detectorChunk: string;
  readonly guardChunk: string | null;
  readonly generation: Generation;
  /** Notes before the generation's own (how the generation was chosen, for a local build). */
  readonly extraNotes?: readonly string[];
  /** The error when the detector chunk does not import, given the first line of the cause. */
  readonly notLoading: (why: string) => string;
  /** Keep the release's logging out of the cache (a local build never writes to it). */
  readonly privateSandbox?: boolean;
}

/** A target from a dist/ folder whose chunks are known: the release's own functions, the caller emulated. */
export async function targetFromDist(layout: BuildLayout): Promise<Target> {
  const { dist, name } = layout;
  silenceThisProcess(layout.privateSandbox === true);
  let module: Record<string, unknown>;
  try {
    module = await quietly(() => import(pathToFileURL(join(dist, layout.detectorChunk)).href) as Promise<Record<string, unknown>>);
  } catch (error) {
    throw new UserError(layout.notLoading((error as Error).message.split("\n")[0] as string));
  }
  const fns = findFunctions(module);
  if (typeof fns === "string") throw new UserError(`${name}: layout not recognised: ${fns}`);
  const gen = layout.generation;
  let guardFactory: GuardFactory | undefined;
  let guardNote: string;
  if (!gen.hasGuard) guardNote = "Guard: none in this release (G rules n/a).";
  else if (layout.guardChunk === null) guardNote = "Guard: not driven, no chunk defines createPostCompactionLoopGuard (G rules n/a).";
  else {
    const guard = loadGuardFactory(join(dist, layout.guardChunk), gen.guardTakesConfig);
    if ("factory" in guard) {
      guardFactory = guard.factory;
      guardNote = `Guard: the release's own createPostCompactionLoopGuard, from ${layout.guardChunk}.`;
    } else guardNote = `Guard: not driven, ${guard.reason} (G rules n/a).`;
  }
  return {
    name,
    ...(layout.loadedFrom === undefined ? {} : { loadedFrom: layout.loadedFrom }),
    summary: `${layout.label}: its own detector (${layout.detectorChunk}), ${guardFactory === undefined ? "no guard driven" : "its own guard"}, the caller emulated`,
    capabilities: {
      rollingDetectors: true,
      warningLevel: true,
      warningPolicy: true,
      guard: guardFactory !== undefined,
      counts: true,
      honours: gen.honours,
      detectors: gen.detectors,
      stateSize: false,
    },
    notes: [...(layout.extraNotes ?? []), ...gen.notes, guardNote],
    breaks: [],
    start: (config) => new ReleaseSession(fns, gen, guardFactory, config),
  };
}
