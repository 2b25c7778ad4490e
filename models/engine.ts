// The engine (SPEC E1-E5): one reducer over the event stream that composes hashing (H), the
// rolling window and its counts (R, S), detection (D), the caller's warning policy (W) and one
// post-compaction guard per run (G).
//
// The state is linear: engineStep consumes the state it is given and returns its successor, so
// the window can be updated in place instead of copied on every event. Nothing else holds it.
import { enabledMode, type EnabledMode, type ResolvedConfig } from "./config.js";
import { CallIdentities } from "./callHash.js";
import { DEFAULT_DIGEST, digestNamed, type Digest, type DigestName } from "./digest.js";
import { Deque } from "./deque.js";
import { detect, isKnownPoll } from "./detection.js";
import type { EngineOutput } from "./engineOutput.js";
import { isTextEvent, type CallEvent, type CompactionEvent, type OutcomeEvent, type TextEvent, type ToolEvent } from "./events.js";
import { GUARD_IDLE, guardStep, type GuardReducer, type GuardState } from "./guard.js";
import { IncrementalHistory } from "./history/incremental.js";
import { ScanningHistory } from "./history/scanning.js";
import type { HistoryIndex } from "./history/types.js";
import { normalizeRunId, normalizeToolName } from "./normalize.js";
import { hashOutcome, type OutcomeDigest, type OutcomeInput } from "./outcomeHash.js";
import { loopVetoResult } from "./verdict.js";
import { WarningPolicy } from "./warningPolicy.js";

export type HistoryKind = "incremental" | "scanning";

/**
 * The engine is composed of parts; the reference uses its own. Another part is passed in only to
 * put a variant under test (src/targets/zoo), so the reference keeps one code path and no switches.
 */
export interface EngineOptions {
  /** "scanning" is the oracle; a function builds another window implementation. */
  readonly history?: HistoryKind | ((historySize: number) => HistoryIndex);
  readonly guardStep?: GuardReducer;
  readonly hashOutcome?: (input: OutcomeInput, digest: Digest) => OutcomeDigest;
  /** Which fixed-size digest H1 uses; verdicts are the same with either. */
  readonly digest?: DigestName;
}

/** A blocked call whose outcome, if the input carries one, is the veto (E4). */
interface BlockedCall {
  readonly argsHash: string;
  readonly callId: string | undefined;
}

interface BlockedEntry {
  readonly key: string;
  live: boolean;
}

/** Blocked calls awaiting their input outcome, newest per key last, oldest overall first. */
interface BlockedCalls {
  readonly byKey: Map<string, Deque<BlockedEntry>>;
  readonly order: Deque<BlockedEntry>;
  live: number;
}

export interface EngineState {
  readonly config: ResolvedConfig;
  readonly mode: EnabledMode;
  readonly guardStep: GuardReducer;
  readonly hashOutcome: (input: OutcomeInput, digest: Digest) => OutcomeDigest;
  readonly history: HistoryIndex;
  readonly warnings: WarningPolicy;
  readonly guards: Map<string, GuardState>;
  readonly aborted: Set<string>;
  readonly blocked: BlockedCalls;
  readonly digest: Digest;
  readonly identities: CallIdentities;
  nextIndex: number;
}

export function createEngine(config: ResolvedConfig, options: EngineOptions = {}): EngineState {
  const digest = digestNamed(options.digest ?? DEFAULT_DIGEST);
  const history =
    typeof options.history === "function"
      ? options.history(config.historySize)
      : options.history === "scanning"
        ? new ScanningHistory(config.historySize)
        : new IncrementalHistory(config.historySize);
  return {
    config,
    mode: enabledMode(config.enabled),
    guardStep: options.guardStep ?? guardStep,
    hashOutcome: options.hashOutcome ?? hashOutcome,
    history,
    warnings: new WarningPolicy(config.warningThreshold),
    guards: new Map(),
    aborted: new Set(),
    blocked: { byKey: new Map(), order: new Deque(), live: 0 },
    digest,
    identities: new CallIdentities(digest),
    nextIndex: 0,
  };
}

export function engineStep(state: EngineState, event: ToolEvent): { state: EngineState; outputs: EngineOutput[] } {
  const index = state.nextIndex++;
  // Model text is no event of SPEC's: it takes its place in the stream (indices stay positions in
  // the trace) and nothing else, not even an "ignored" note after an abort.
  if (isTextEvent(event)) return { state, outputs: [] };
  const run = normalizeRunId(event.runId);
  if (state.aborted.has(run)) {
    return { state, outputs: [{ kind: "ignored", index, run, eventType: event.type }] };
  }
  return { state, outputs: dispatch(state, event, index, run) };
}

/**
 * The per-event transition. A switch checked against `never` is as exhaustive as ts-pattern's
 * .exhaustive() (a missing case does not compile) without building a matcher per event, which
 * cost 7% of the engine's time on the hot path; ts-pattern keeps the guard's transitions.
 */
function dispatch(state: EngineState, event: Exclude<ToolEvent, TextEvent>, index: number, run: string): EngineOutput[] {
  switch (event.type) {
    case "call":
      return onCall(state, event, index, run);
    case "outcome":
      return onOutcome(state, event, index, run);
    case "compaction":
      return onCompaction(state, event, index, run);
    // Stryker disable next-line all: equivalent, no event reaches the default of a switch checked against never
    default: {
      const unhandled: never = event;
      // Stryker disable next-line all: equivalent, unreachable (see above)
      throw new Error(`unhandled event ${JSON.stringify(unhandled)}`);
    }
  }
}

/** Runs a whole trace; convenient for tests and replays. */
export function runEngine(config: ResolvedConfig, events: Iterable<ToolEvent>, options: EngineOptions = {}): EngineOutput[] {
  const state = createEngine(config, options);
  const out: EngineOutput[] = [];
  for (const event of events) out.push(...engineStep(state, event).outputs);
  return out;
}

function onCall(state: EngineState, event: CallEvent, index: number, run: string): EngineOutput[] {
  const tool = normalizeToolName(event.tool);
  const argsHash = state.identities.of(tool, event.params);
  if (!state.mode.rollingDetectors) {
    if (state.mode.recordCalls) state.history.appendCall(run, tool, argsHash, event.callId);
    return [{ kind: "call", index, run, tool, argsHash, verdict: "allow" }];
  }
  const counts = state.history.countsFor(run, tool, argsHash);
  const found = detect(state.config, tool, argsHash, isKnownPoll(tool, event.params), counts);
  if (found === undefined) {
    state.history.appendCall(run, tool, argsHash, event.callId);
    return [{ kind: "call", index, run, tool, argsHash, verdict: "allow" }];
  }
  const emitted = state.warnings.emit(run, found);
  const verdict: EngineOutput = {
    kind: "call",
    index,
    run,
    tool,
    argsHash,
    verdict: found.level,
    detector: found.detector,
    count: found.count,
    warningKey: found.warningKey,
    message: found.message,
    emitted,
  };
  if (found.level === "warning") {
    state.history.appendCall(run, tool, argsHash, event.callId);
    return [verdict];
  }
  rememberBlocked(state, run, { argsHash, callId: event.callId });
  // E4: the blocked call's outcome is the veto, which the reference does not record (H2.4).
  const abort = recordOutcome(state, index, run, tool, event.params, argsHash, event.callId, {
    result: loopVetoResult(found.message),
  }).abort;
  return abort === undefined ? [verdict] : [verdict, abort];
}

function blockedKey(run: string, argsHash: string, callId: string | undefined): string {
  return `${run}\u0000${argsHash}\u0000${callId ?? "\u0001"}`;
}

function rememberBlocked(state: EngineState, run: string, call: BlockedCall): void {
  const blocked = state.blocked;
  const entry: BlockedEntry = { key: blockedKey(run, call.argsHash, call.callId), live: true };
  let sameKey = blocked.byKey.get(entry.key);
  if (sameKey === undefined) {
    sameKey = new Deque<BlockedEntry>();
    blocked.byKey.set(entry.key, sameKey);
  }
  sameKey.push(entry);
  blocked.order.push(entry);
  blocked.live++;
  // Blocked calls whose outcome never arrives must not pile up: remember as many as the window.
  while (blocked.live > state.config.historySize) {
    const oldest = blocked.order.shift() as BlockedEntry;
    if (!oldest.live) continue; // taken by its outcome already
    // Leaving both the order and its key's list, it is referenced nowhere: no need to mark it.
    blocked.live--;
    const list = blocked.byKey.get(oldest.key) as Deque<BlockedEntry>;
    list.shift();
    if (list.length === 0) blocked.byKey.delete(oldest.key);
  }
  if (blocked.order.length > 2 * state.config.historySize + 16) {
    const live = [...blocked.order].filter((e) => e.live);
    blocked.order.clear();
    for (const e of live) blocked.order.push(e);
  }
}

/** E4: an input outcome of a blocked call (same run, tool, args and callId) is the veto. */
function takeBlocked(state: EngineState, run: string, argsHash: string, callId: string | undefined): boolean {
  if (state.blocked.live === 0) return false;
  const key = blockedKey(run, argsHash, callId);
  const list = state.blocked.byKey.get(key);
  if (list === undefined) return false;
  const entry = list.pop() as BlockedEntry;
  entry.live = false;
  state.blocked.live--;
  if (list.length === 0) state.blocked.byKey.delete(key);
  return true;
}

function onOutcome(state: EngineState, event: OutcomeEvent, index: number, run: string): EngineOutput[] {
  const tool = normalizeToolName(event.tool);
  const argsHash = state.identities.of(tool, event.params);
  if (takeBlocked(state, run, argsHash, event.callId)) {
    return [{ kind: "outcome", index, run, tool, recorded: false, vetoed: true, argsHash, resultHash: undefined, unknownTool: undefined }];
  }
  const { recorded, abort, resultHash, unknownTool } = recordOutcome(state, index, run, tool, event.params, argsHash, event.callId, event);
  const note: EngineOutput = { kind: "outcome", index, run, tool, recorded, vetoed: false, argsHash, resultHash, unknownTool };
  return abort === undefined ? [note] : [note, abort];
}

/** R3 and G2: record an outcome that has a hash and let the run's guard observe it. */
function recordOutcome(
  state: EngineState,
  index: number,
  run: string,
  tool: string,
  params: unknown,
  argsHash: string,
  callId: string | undefined,
  outcome: { readonly result?: unknown; readonly error?: unknown },
): { recorded: boolean; abort?: EngineOutput; resultHash?: string; unknownTool?: string } {
  const hasError = "error" in outcome && outcome.error !== undefined;
  const facts = state.hashOutcome({ tool, params, result: outcome.result, error: outcome.error, hasError }, state.digest);
  if (facts.resultHash === undefined) return { recorded: false };
  const resultHash = facts.resultHash;
  state.history.recordOutcome(run, tool, argsHash, callId, {
    resultHash,
    unknownTool: facts.unknownTool,
  });
  const guard = state.guards.get(run);
  const recorded = { recorded: true, resultHash, unknownTool: facts.unknownTool };
  if (guard === undefined) return recorded;
  const windowSize = state.config.postCompactionGuard.windowSize;
  const step = state.guardStep(guard, { type: "observe", tool, triple: `${tool}\u0000${argsHash}\u0000${resultHash}`, windowSize });
  if (step.state.phase === "idle") state.guards.delete(run);
  else state.guards.set(run, step.state);
  if (step.abort === undefined) return recorded;
  state.aborted.add(run);
  state.guards.delete(run);
  return {
    ...recorded,
    abort: { kind: "abort", index, run, error: "compaction_loop_persisted", tool: step.abort.tool, count: step.abort.count, message: step.abort.message },
  };
}

function onCompaction(state: EngineState, _event: CompactionEvent, index: number, run: string): EngineOutput[] {
  if (!state.mode.guard) return [{ kind: "compaction", index, run, armed: false }];
  const step = state.guardStep(state.guards.get(run) ?? GUARD_IDLE, { type: "compaction", windowSize: state.config.postCompactionGuard.windowSize });
  state.guards.set(run, step.state);
  return [{ kind: "compaction", index, run, armed: true }];
}

/** Entries the engine holds, for the bounded-state property: O(historySize + live runs). */
export function engineStateSize(state: EngineState): { history: number; guards: number; warnings: number; blocked: number; aborted: number } {
  const blocked = state.blocked.order.length;
  let guards = 0;
  for (const guard of state.guards.values()) guards += 1 + (guard.phase === "armed" ? guard.counts.size : 0);
  return { history: state.history.stateSize(), guards, warnings: state.warnings.size(), blocked, aborted: state.aborted.size };
}
