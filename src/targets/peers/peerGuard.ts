// Other runtimes' loop guards, as targets. Each runtime is a reducer over one run's calls and
// outcomes, written from the behaviour described in ../shared/targets/peers.md (no code of theirs
// is used). This file turns such a reducer into loopsim's output vocabulary:
// - a warning, nudge or feedback message for the model is a `warning` verdict the agent sees;
// - a denied or skipped call is a `critical` verdict (a block: the call does not run);
// - a stop, STUCK, or a question to the user ends the run: an `abort`, after which the run's
//   events are ignored. There is no user in a simulation or a replayed session, so a question
//   is never answered: we count it as the end of the run (the reading; peers.md also
//   allows reading it as a block, which would let the agent go on).
// A verdict reached after the call ran (OpenHands compares observations) is attached to the
// outcome event: the agent sees it with the result, as it would see a warning on the call.
// A trace's run stands for the unit each runtime counts in: one user prompt (Gemini CLI, Qwen
// Code's turn, OpenHands since the last user message, opencode's assistant message, Roo, Cline,
// Kilo, Goose and CrewAI's task). Most runtimes keep a guard per run, never shared; a runtime whose
// client holds one guard per session and resets it when a new prompt starts (Gemini CLI) says so
// with `scope: "session"`: two runs that take turns reset it at every change.
// Run ids are told apart by each runtime's rule (RunIdRule): the peers compare ids exactly; only
// OpenClaw trims them (its rule E2).
// Each runtime sees a call's name and args through its own normalisation (./normalization/),
// never through OpenClaw's rule E2: raw names and args go in, the runtime's view comes out.
import type { ResolvedConfig } from "../../../models/config.js";
import { argsHash } from "../../../models/callHash.js";
import { digestNamed } from "../../../models/digest.js";
import type { ToolEvent } from "../../../models/events.js";
import { runKeyOf, type RunIdRule } from "../../../models/normalize.js";
import { errorText, isPlainObject } from "../../../models/outcomeHash.js";
import { chosenDigest } from "../digestChoice.js";
import type { Target, TargetCapabilities, TargetOutput, TargetSession } from "../target.js";
import type { CallNormalization } from "./normalization/callView.js";

export interface PeerCall {
  readonly tool: string;
  readonly params: unknown;
  /** The model response the call came in, when the trace says (parallel calls share it). */
  readonly step?: string;
}

export interface PeerOutcome extends PeerCall {
  readonly result: unknown;
  /** The error text when the call failed, undefined otherwise. */
  readonly error: string | undefined;
  /**
   * What kind of failure the trace says it was: an error object's string `kind` (loopsim's
   * convention, docs/guide/formats.md: `"invalid-arguments"` is a call whose args failed the
   * tool's schema before it ran), undefined otherwise.
   */
  readonly errorKind?: string;
}

/** An error object's string `kind`, if it has one. */
export function errorKindOf(error: unknown): string | undefined {
  return isPlainObject(error) && typeof error.kind === "string" ? error.kind : undefined;
}

export type PeerAction =
  | { readonly kind: "allow" }
  | { readonly kind: "warn" | "block" | "stop"; readonly detector: string; readonly count: number; readonly message: string };

export const ALLOW: PeerAction = { kind: "allow" };

/** Model text as a peer's guard sees it: a message (or one streamed chunk of it) or a thought. */
export interface PeerText {
  readonly type: "message" | "thought";
  readonly text: string;
  /** A streamed piece: consecutive chunks of one type make one message. */
  readonly chunk: boolean;
  readonly step?: string;
}

/** One run's guard: before a call runs, and after it ran. State is replaced, never shared. */
export interface PeerReducer<S> {
  initial(): S;
  onCall(state: S, call: PeerCall): { state: S; action: PeerAction };
  /** Only "allow", "warn" and "stop" make sense after the call ran. */
  onOutcome(state: S, outcome: PeerOutcome): { state: S; action: PeerAction };
  /**
   * Model text, for the runtimes whose guard judges it ("block" cuts the response off: the rest
   * of it never runs). A runtime that never sees text leaves it out: its guard is blind to text,
   * and the compare report says so.
   */
  onText?(state: S, text: PeerText): { state: S; action: PeerAction };
  /**
   * A session-scoped guard's reset when an event of another run arrives (the client's new prompt
   * id); `initial()` when left out. Only read with `scope: "session"`.
   */
  enterRun?(state: S, run: string): S;
}

export interface PeerDefinition<S> {
  readonly name: string;
  readonly summary: string;
  /** The choices made where the description is ambiguous; printed in every report. */
  readonly notes: readonly string[];
  readonly detectors: readonly string[];
  /** How the runtime turns the model's tool name and args into what its guard compares. */
  readonly normalization: CallNormalization;
  /** Whether the runtime ever warns (most only stop or block). */
  readonly warns: boolean;
  /** How run ids are told apart: "exact" unless given (only OpenClaw trims). */
  readonly runIds?: RunIdRule;
  /** "run" (the default): a guard per run. "session": one guard, reset when the run changes. */
  readonly scope?: "run" | "session";
  readonly reducer: PeerReducer<S>;
}

const PEER_CAPABILITIES: Omit<TargetCapabilities, "warningLevel" | "detectors"> = {
  rollingDetectors: true,
  warningPolicy: false,
  guard: false,
  counts: false,
  honours: [],
  stateSize: false,
};

export function peerTarget<S>(definition: PeerDefinition<S>): Target {
  return {
    name: definition.name,
    summary: definition.summary,
    capabilities: { ...PEER_CAPABILITIES, warningLevel: definition.warns, detectors: definition.detectors, readsText: definition.reducer.onText !== undefined },
    notes: [...definition.notes, `calls as ${definition.normalization.runtime} sees them: ${definition.normalization.rule}`, "ignores every tools.loopDetection field: its numbers are its own"],
    breaks: [],
    start: (_config: ResolvedConfig) => new PeerSession(definition),
  };
}

class PeerSession<S> implements TargetSession {
  private readonly states = new Map<string, S>();
  private readonly stopped = new Set<string>();
  /** Calls the guard blocked, by run and callId: their outcomes, if any arrive, are vetoes. */
  private readonly blocked = new Set<string>();
  private readonly digest = digestNamed(chosenDigest());
  private index = 0;
  /** The run a session-scoped guard is on now. */
  private currentRun: string | undefined;

  constructor(private readonly definition: PeerDefinition<S>) {}

  step(event: ToolEvent): TargetOutput[] {
    const index = this.index++;
    const run = runKeyOf(event.runId, this.definition.runIds ?? "exact");
    if (this.stopped.has(run)) return [{ kind: "ignored", index, run, eventType: event.type }];
    if (event.type === "compaction") return [{ kind: "compaction", index, run, armed: false }];
    const reducer = this.definition.reducer;
    const blindToIt = (event.type === "message" || event.type === "thought") && reducer.onText === undefined;
    if (this.definition.scope === "session" && run !== this.currentRun && !blindToIt) this.enter(run);
    if (event.type === "message" || event.type === "thought") {
      // A guard blind to text never starts a run's state for it: text alone changes nothing.
      if (reducer.onText === undefined) return [];
      const text: PeerText = { type: event.type, text: event.text, chunk: event.chunk === true, ...(event.step === undefined ? {} : { step: event.step }) };
      const { state: next, action } = reducer.onText(this.states.get(run) ?? reducer.initial(), text);
      this.states.set(run, next);
      if (action.kind === "allow") return [];
      if (action.kind === "stop") return [this.stop(index, run, event.type, action)];
      return [{ kind: "text", index, run, textType: event.type, verdict: action.kind === "warn" ? "warning" : "critical", detector: action.detector, count: action.count, message: action.message }];
    }
    const state = this.states.get(run) ?? reducer.initial();
    const { tool, params } = this.definition.normalization.view(event.tool, event.params);
    const hash = argsHash(this.digest, tool, params);
    const blockedKey = `${run}\u0000${event.callId ?? ""}\u0000${hash}`;
    if (event.type === "call") {
      const { state: next, action } = reducer.onCall(state, event.step === undefined ? { tool, params } : { tool, params, step: event.step });
      this.states.set(run, next);
      if (action.kind === "allow") return [{ kind: "call", index, run, tool, argsHash: hash, verdict: "allow" }];
      if (action.kind === "stop") return [this.stop(index, run, tool, action)];
      if (action.kind === "block") this.blocked.add(blockedKey);
      return [this.flag(index, run, tool, hash, action)];
    }
    if (this.blocked.delete(blockedKey)) {
      return [{ kind: "outcome", index, run, tool, recorded: false, vetoed: true, argsHash: hash, resultHash: undefined, unknownTool: undefined }];
    }
    const hasError = "error" in event && event.error !== undefined;
    const kind = hasError ? errorKindOf(event.error) : undefined;
    const outcome: PeerOutcome = { tool, params, result: event.result, error: hasError ? errorText(event.error) : undefined, ...(kind === undefined ? {} : { errorKind: kind }) };
    const { state: next, action } = reducer.onOutcome(state, outcome);
    this.states.set(run, next);
    const note: TargetOutput = { kind: "outcome", index, run, tool, recorded: true, vetoed: false, argsHash: hash, resultHash: undefined, unknownTool: undefined };
    if (action.kind === "allow") return [note];
    if (action.kind === "stop") return [note, this.stop(index, run, tool, action)];
    return [note, this.flag(index, run, tool, hash, action)];
  }

  /** A session-scoped guard meets another run: its client resets the one guard it holds. */
  private enter(run: string): void {
    const reducer = this.definition.reducer;
    const previous = this.currentRun === undefined ? undefined : this.states.get(this.currentRun);
    if (this.currentRun !== undefined) this.states.delete(this.currentRun);
    if (reducer.enterRun === undefined) this.states.set(run, reducer.initial());
    else this.states.set(run, reducer.enterRun(previous ?? reducer.initial(), run));
    this.currentRun = run;
  }

  private flag(index: number, run: string, tool: string, hash: string, action: Exclude<PeerAction, { kind: "allow" }>): TargetOutput {
    return {
      kind: "call",
      index,
      run,
      tool,
      argsHash: hash,
      verdict: action.kind === "warn" ? "warning" : "critical",
      detector: action.detector,
      count: action.count,
      warningKey: `${action.detector}:${hash}`,
      message: action.message,
      emitted: true,
    };
  }

  private stop(index: number, run: string, tool: string, action: Exclude<PeerAction, { kind: "allow" }>): TargetOutput {
    this.stopped.add(run);
    return { kind: "abort", index, run, tool, error: `${action.detector}`, count: action.count, message: action.message };
  }
}
