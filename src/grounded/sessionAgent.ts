// A recorded session as a closed-loop agent. It replays its own calls and results, in order, to a
// guard; when the guard warns, blocks or stops, the stated reaction model (reaction.ts) decides
// whether the agent goes on with its recording, skips past the repeated stretch to its next
// different call, or ends. A blocked or skipped call never runs, so its recorded outcome is
// dropped. Under a guard that never speaks (target `none`) the agent feeds exactly its recorded
// events, byte for byte. The summary is the simulator's, so every tuning metric applies.
import type { ResolvedConfig } from "../../models/config.js";
import type { EngineOutput } from "../../models/engineOutput.js";
import type { CallEvent, ToolEvent } from "../../models/events.js";
import { callUnits } from "../scenario/eventPairs.js";
import { makeRng } from "../sim/rng.js";
import type { FamilyLabel } from "../sim/behaviour.js";
import type { SimulationSummary } from "../sim/simulate.js";
import { eventTokens, tokensOf } from "../sim/tokens.js";
import type { Target } from "../targets/target.js";
import type { LabelledEvent } from "./injection.js";
import type { Reaction, ReactionOdds, SessionReaction, Signal } from "./reaction.js";

export interface SessionAgentSpec {
  /** What the metrics group it by: `session`, or `inject:SHAPE`. */
  readonly family: string;
  readonly label: FamilyLabel;
  /** Names the reaction stream: the session's id and the agent's kind. */
  readonly name: string;
  readonly seed: number;
  readonly script: readonly LabelledEvent[];
}

export interface SessionAgentRun {
  readonly events: ToolEvent[];
  readonly outputs: EngineOutput<string, string>[];
  readonly summary: SimulationSummary;
  /** Each reaction drawn, in order, with the signal, the event position it answered and the uniform draw behind it (reactionGrid.ts replays runs from these). */
  readonly reactions: readonly { readonly signal: Signal; readonly reaction: Reaction; readonly at: number; readonly draw: number }[];
}

/** How many of the calls just made define the "repeated stretch" a skip jumps past: repeats, A/B and three-call cycles. */
export const SKIP_LOOKBACK = 4;

/** A call's shape for skipping: its tool and args with every run of digits read as one, so retries with a changing counter are one stretch. */
export function shapeKey(call: CallEvent): string {
  return `${call.tool}\u0000${(JSON.stringify(call.params ?? null) ?? "").replace(/\d+/g, "#")}`;
}

interface Prepared {
  readonly raw: readonly ToolEvent[];
  readonly outcomeOf: ReadonlyMap<number, readonly number[]>;
  readonly callOf: ReadonlyMap<number, number>;
  /** Tokens of each event: a call's args, an outcome's result or error. */
  readonly tokens: readonly number[];
  readonly shapes: readonly string[];
}

// What does not depend on the guard is worked out once per script and shared by every config.
const preparedScripts = new WeakMap<readonly LabelledEvent[], Prepared>();

function prepared(script: readonly LabelledEvent[]): Prepared {
  const known = preparedScripts.get(script);
  if (known !== undefined) return known;
  const raw = script.map((e) => e.event);
  // Where each call's outcome is (callUnits pairs them as the importers do), to drop it with the call.
  const outcomeOf = new Map<number, number[]>();
  for (const unit of callUnits(raw)) if (raw[unit[0] as number]?.type === "call") outcomeOf.set(unit[0] as number, unit.slice(1));
  const callOf = new Map<number, number>();
  for (const [call, outs] of outcomeOf) for (const o of outs) callOf.set(o, call);
  const tokens = raw.map(eventTokens);
  const shapes = raw.map((e) => (e.type === "call" ? shapeKey(e) : ""));
  const made = { raw, outcomeOf, callOf, tokens, shapes };
  preparedScripts.set(script, made);
  return made;
}

/** The reaction a uniform draw `u` picks under `odds`: the same draw picks the same reaction wherever the odds agree (common random numbers across reaction models). */
export function chooseReaction(odds: ReactionOdds, u: number): Reaction {
  return u < odds.goOn ? "goOn" : u < odds.goOn + odds.skip ? "skip" : "end";
}

export function runSessionAgent(spec: SessionAgentSpec, config: ResolvedConfig, target: Target, reaction: SessionReaction): SessionAgentRun {
  const script = spec.script;
  const { raw, outcomeOf, callOf, tokens, shapes } = prepared(script);
  const mind = makeRng(`${spec.seed}:${spec.name}:reaction`);
  const engine = target.start(config);
  const events: ToolEvent[] = [];
  const outputs: EngineOutput<string, string>[] = [];
  const reactions: { signal: Signal; reaction: Reaction; at: number; draw: number }[] = [];
  const dropped = new Set<number>();
  const recentShapes: string[] = [];
  const pendingWarning = new Map<number, EngineOutput<string, string>>();
  const s = {
    attempts: 0, executed: 0, loopCalls: 0, wastedCalls: 0, wastedTokens: 0, totalTokens: 0,
    emittedWarnings: 0, warnings: 0, blocks: 0, falseBlocks: 0, aborts: 0, falseAborts: 0, compactions: 0,
    firstWarning: -1, firstBlock: -1, firstAbort: -1, escapedAfterWarning: false,
  };
  let caught = false;
  let ended = false;
  const attemptOf = new Map<number, number>();

  const step = (event: ToolEvent): EngineOutput<string, string>[] => {
    events.push(event);
    const out = engine.step(event);
    outputs.push(...out);
    return out;
  };
  const drop = (call: number) => {
    dropped.add(call);
    for (const o of outcomeOf.get(call) ?? []) dropped.add(o);
  };
  /** Skip to the next call whose shape is none of the last few calls'; the session ends if there is none. */
  const skipFrom = (position: number) => {
    const recent = new Set(recentShapes.slice(-SKIP_LOOKBACK));
    for (let k = position + 1; k < script.length; k++) {
      const e = raw[k] as ToolEvent;
      if (e.type !== "call" || dropped.has(k)) continue;
      if (!recent.has(shapes[k] as string)) return;
      drop(k);
    }
    ended = true;
  };
  const react = (signal: Signal, position: number, inLoop: boolean) => {
    const odds = reaction[signal];
    const u = mind.next();
    const choice = chooseReaction(odds, u);
    reactions.push({ signal, reaction: choice, at: position, draw: u });
    if (choice === "goOn") return;
    if (signal === "warning" && inLoop && !caught) s.escapedAfterWarning = true;
    if (choice === "end") ended = true;
    else skipFrom(position);
  };
  const noteAbort = (attempt: number, inLoop: boolean) => {
    s.aborts++;
    if (!inLoop) s.falseAborts++;
    if (s.firstAbort < 0) s.firstAbort = attempt;
    if (inLoop) caught = true;
  };
  const warningIn = (out: readonly EngineOutput<string, string>[]) => out.find((o) => o.kind === "call" && o.verdict === "warning");
  const heedWarning = (warning: EngineOutput<string, string> | undefined, attempt: number, position: number, inLoop: boolean) => {
    if (warning?.kind !== "call" || warning.verdict !== "warning") return;
    s.warnings++;
    if (!warning.emitted) return;
    s.emittedWarnings++;
    if (s.firstWarning < 0) s.firstWarning = attempt;
    s.totalTokens += tokensOf(warning.message);
    react("warning", position, inLoop);
  };

  for (let i = 0; i < script.length && !ended; i++) {
    if (dropped.has(i)) continue;
    const { event, inLoop } = script[i] as LabelledEvent;
    if (event.type === "compaction") {
      step(event);
      s.compactions++;
      continue;
    }
    if (event.type === "call") {
      const attempt = s.attempts++;
      attemptOf.set(i, attempt);
      recentShapes.push(shapes[i] as string);
      const answer = step(event);
      s.totalTokens += tokens[i] as number;
      const stop = answer.find((o) => o.kind === "abort");
      const verdict = answer.find((o) => o.kind === "call");
      if (stop !== undefined) {
        drop(i);
        s.totalTokens += tokensOf(stop.message);
        noteAbort(attempt, inLoop);
        react("stop", i, inLoop);
      } else if (verdict?.kind === "call" && verdict.verdict === "critical") {
        drop(i);
        s.blocks++;
        if (!inLoop) s.falseBlocks++;
        if (s.firstBlock < 0) s.firstBlock = attempt;
        if (inLoop) caught = true;
        s.totalTokens += tokensOf(verdict.message);
        react("block", i, inLoop);
      } else {
        const warning = warningIn(answer);
        // The agent reads a warning with the call's result; a call the recording never answered reads it now.
        if (warning !== undefined && (outcomeOf.get(i) ?? []).length > 0) pendingWarning.set(i, warning);
        else heedWarning(warning, attempt, i, inLoop);
      }
      continue;
    }
    const call = callOf.get(i);
    const out = step(event);
    const resultTokens = tokens[i] as number;
    s.totalTokens += resultTokens;
    s.executed++;
    if (inLoop) {
      s.loopCalls++;
      if (!caught) {
        s.wastedCalls++;
        s.wastedTokens += resultTokens + (call === undefined ? 0 : (tokens[call] as number));
      }
    }
    const attempt = call === undefined ? Math.max(0, s.attempts - 1) : (attemptOf.get(call) ?? 0);
    const held = call === undefined ? undefined : pendingWarning.get(call);
    if (call !== undefined) pendingWarning.delete(call);
    heedWarning(held ?? warningIn(out), attempt, i, inLoop);
    if (!ended && out.some((o) => o.kind === "abort")) {
      noteAbort(attempt, inLoop);
      react("stop", i, inLoop);
    }
  }

  const summary: SimulationSummary = {
    family: spec.family,
    label: spec.label,
    model: "recorded",
    seed: spec.seed,
    ...s,
    caught,
  };
  return { events, outputs, summary, reactions };
}
