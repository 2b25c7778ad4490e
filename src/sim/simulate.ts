// The closed loop: the agent proposes a call, the engine answers, the world runs what was
// allowed, and the agent reacts to what reaches it (emitted warnings, vetoes, aborts,
// compactions). Everything is drawn from one seed; the same inputs give the same bytes.
import type { ResolvedConfig } from "../../models/config.js";
import type { EngineOutput } from "../../models/engineOutput.js";
import type { ToolEvent } from "../../models/events.js";
import { REFERENCE_TARGET } from "../targets/reference.js";
import type { Target } from "../targets/target.js";
import { REACTION_MODELS, type ModelPreset } from "./agentModel.js";
import type { FamilyLabel } from "./behaviour.js";
import { findFamily } from "./families.js";
import { FITTED_FAMILY, fittedFamily, type FittedParams } from "./fittedFamily.js";
import { makeRng } from "./rng.js";
import { tokensOf } from "./tokens.js";

/**
 * The most calls one simulated agent may attempt. A simulation keeps its events and outputs (for
 * timelines, scenarios and replays), about 1 KB a call: 100,000 calls stay near 100 MB.
 */
export const MAX_SIMULATED_CALLS = 100_000;
/** What `simulate` and a scenario without `calls` give an agent. */
export const DEFAULT_SIMULATED_CALLS = 80;

export interface SimulationSpec {
  readonly family: string;
  readonly seed: number;
  /** Calls the agent may attempt (blocked attempts count). */
  readonly calls: number;
  readonly model: ModelPreset;
  /** The fitted family's parameters (src/sim/fittedFamily.ts); absent for every other family. */
  readonly params?: FittedParams;
}

export interface SimulationSummary {
  readonly family: string;
  readonly label: FamilyLabel;
  readonly model: ModelPreset | "recorded";
  readonly seed: number;
  readonly attempts: number;
  readonly executed: number;
  readonly loopCalls: number;
  /** Loop calls that ran before the first block or abort (all of them when nothing caught it). */
  readonly wastedCalls: number;
  readonly wastedTokens: number;
  readonly totalTokens: number;
  readonly emittedWarnings: number;
  readonly warnings: number;
  readonly blocks: number;
  /** Blocks on calls that were not part of a loop. */
  readonly falseBlocks: number;
  readonly aborts: number;
  /** Aborts (stops) on a call that was not part of a loop. */
  readonly falseAborts: number;
  readonly compactions: number;
  /** Attempt numbers (0-based) of the first emitted warning, block and abort; -1 when none. */
  readonly firstWarning: number;
  readonly firstBlock: number;
  readonly firstAbort: number;
  readonly caught: boolean;
  readonly escapedAfterWarning: boolean;
}

export interface SimulationResult {
  readonly spec: SimulationSpec;
  readonly events: ToolEvent[];
  readonly outputs: EngineOutput<string, string>[];
  readonly summary: SimulationSummary;
}

/** One agent against one target (the reference unless another is named). */
export function simulate(spec: SimulationSpec, config: ResolvedConfig, target: Target = REFERENCE_TARGET): SimulationResult {
  const family = spec.params !== undefined && spec.family === FITTED_FAMILY ? fittedFamily(spec.params) : findFamily(spec.family);
  if (family === undefined) throw new Error(`unknown family ${spec.family}`);
  const reaction = REACTION_MODELS[spec.model];
  const world = makeRng(`${spec.seed}:${spec.family}:world`);
  const mind = makeRng(`${spec.seed}:${spec.family}:${spec.model}:mind`);
  const agent = family.create(world);
  const engine = target.start(config);
  const events: ToolEvent[] = [];
  const outputs: EngineOutput<string, string>[] = [];
  const step = (event: ToolEvent): EngineOutput<string, string>[] => {
    events.push(event);
    const out = engine.step(event);
    outputs.push(...out);
    return out;
  };

  let context = 0;
  let callSeq = 0;
  const s = {
    attempts: 0, executed: 0, loopCalls: 0, wastedCalls: 0, wastedTokens: 0, totalTokens: 0,
    emittedWarnings: 0, warnings: 0, blocks: 0, falseBlocks: 0, aborts: 0, falseAborts: 0, compactions: 0,
    firstWarning: -1, firstBlock: -1, firstAbort: -1, escapedAfterWarning: false,
  };
  let caughtAt = -1;
  const noteAbort = (attempt: number, inLoop: boolean): void => {
    s.aborts++;
    if (!inLoop) s.falseAborts++;
    if (s.firstAbort < 0) s.firstAbort = attempt;
    if (caughtAt < 0 && inLoop) caughtAt = attempt;
  };

  const compactIfFull = (runId: string): void => {
    if (context > reaction.contextWindow) {
      // The runner's compaction-retry: the context is summarised and the prompt retried.
      step({ type: "compaction", runId });
      s.compactions++;
      context = reaction.summaryTokens;
      agent.compacted();
    }
  };

  while (s.attempts < spec.calls) {
    const planned = agent.next();
    if (planned === undefined) break;
    const attempt = s.attempts++;
    // Model text first (text-loop agents only): one response's message chunks, then its call.
    const response = planned.says === undefined ? undefined : `response-${attempt + 1}`;
    let cutByText: "stop" | "cut" | undefined;
    let saidTokens = 0;
    for (const piece of planned.says ?? []) {
      const said = step({ type: "message", runId: planned.runId, text: piece, chunk: true, step: response });
      saidTokens += tokensOf(piece);
      const stop = said.find((o) => o.kind === "abort");
      const cut = said.find((o) => o.kind === "text" && o.verdict === "critical");
      if (stop !== undefined) {
        saidTokens += tokensOf(stop.message);
        noteAbort(attempt, planned.inLoop);
        agent.runAborted(planned.runId);
        cutByText = "stop";
        break;
      }
      if (cut?.kind === "text") {
        // The response is cut off: the rest of its text and its call never come.
        saidTokens += tokensOf(cut.message);
        s.blocks++;
        if (!planned.inLoop) s.falseBlocks++;
        if (s.firstBlock < 0) s.firstBlock = attempt;
        if (caughtAt < 0 && planned.inLoop) caughtAt = attempt;
        if (mind.chance(reaction.changeAfterBlock)) agent.changeApproach();
        cutByText = "cut";
        break;
      }
    }
    context += saidTokens;
    s.totalTokens += saidTokens;
    if (cutByText !== undefined) {
      compactIfFull(planned.runId);
      continue;
    }
    if (planned.callless === true) {
      // A response of text alone: a turn spent, no call to run.
      if (planned.inLoop) {
        s.loopCalls++;
        if (caughtAt < 0) {
          s.wastedCalls++;
          s.wastedTokens += saidTokens;
        }
      }
      compactIfFull(planned.runId);
      continue;
    }
    const callId = `call-${++callSeq}`;
    const call = response === undefined
      ? ({ type: "call", runId: planned.runId, callId, tool: planned.tool, params: planned.params } as const)
      : ({ type: "call", runId: planned.runId, callId, tool: planned.tool, params: planned.params, step: response } as const);
    const answer = step(call);
    const verdict = answer.find((o) => o.kind === "call");
    const callTokens = tokensOf(planned.params);
    context += callTokens;
    s.totalTokens += callTokens;
    const stopBeforeRunning = answer.find((o) => o.kind === "abort");
    if (stopBeforeRunning !== undefined) {
      // Another runtime's guard stopped the run at this call (peers' stops): it never ran.
      context += tokensOf(stopBeforeRunning.message);
      s.totalTokens += tokensOf(stopBeforeRunning.message);
      noteAbort(attempt, planned.inLoop);
      agent.runAborted(planned.runId);
    } else if (verdict?.kind === "call" && verdict.verdict === "critical") {
      s.blocks++;
      if (!planned.inLoop) s.falseBlocks++;
      if (s.firstBlock < 0) s.firstBlock = attempt;
      if (caughtAt < 0 && planned.inLoop) caughtAt = attempt;
      const vetoTokens = tokensOf(verdict.message);
      context += vetoTokens;
      s.totalTokens += vetoTokens;
      if (mind.chance(reaction.changeAfterBlock)) agent.changeApproach();
    } else {
      const response = agent.respond(planned);
      const outcome: ToolEvent =
        response.error !== undefined
          ? { type: "outcome", runId: planned.runId, callId, tool: planned.tool, params: planned.params, error: response.error }
          : { type: "outcome", runId: planned.runId, callId, tool: planned.tool, params: planned.params, result: response.result };
      const out = step(outcome);
      s.executed++;
      const tokens = callTokens + tokensOf(response.error ?? response.result);
      context += tokens - callTokens;
      s.totalTokens += tokens - callTokens;
      if (planned.inLoop) {
        s.loopCalls++;
        if (caughtAt < 0) {
          s.wastedCalls++;
          s.wastedTokens += tokens;
        }
      }
      // A warning on the call, or one reached after it ran (a guard that compares results).
      const warning = [verdict, ...out].find((o) => o?.kind === "call" && o.verdict === "warning");
      if (warning?.kind === "call" && warning.verdict === "warning") {
        s.warnings++;
        if (warning.emitted) {
          s.emittedWarnings++;
          if (s.firstWarning < 0) s.firstWarning = attempt;
          context += tokensOf(warning.message);
          if (mind.chance(reaction.heedWarning)) {
            if (planned.inLoop && caughtAt < 0) s.escapedAfterWarning = true;
            agent.changeApproach();
          }
        }
      }
      if (out.some((o) => o.kind === "abort")) {
        noteAbort(attempt, planned.inLoop);
        agent.runAborted(planned.runId);
      }
    }
    compactIfFull(planned.runId);
  }

  const summary: SimulationSummary = {
    family: family.name,
    label: family.label,
    model: spec.model,
    seed: spec.seed,
    ...s,
    caught: caughtAt >= 0,
  };
  return { spec, events, outputs, summary };
}
