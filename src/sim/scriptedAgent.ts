// Most families are a loop phase between a short opening and a short wrap-up. This helper holds
// that shape so each family only says what its calls are and how the world answers them.
import type { AgentBehaviour, PlannedCall, ToolResponse } from "./behaviour.js";
import { text } from "./behaviour.js";
import type { Rng } from "./rng.js";

export interface Step {
  readonly tool: string;
  readonly params: unknown;
  readonly inLoop: boolean;
  readonly respond: () => ToolResponse;
  readonly says?: readonly string[];
  readonly callless?: boolean;
}

export interface Script {
  /** The main phase: returns the next step, or undefined when the phase is over. */
  main(index: number): Step | undefined;
  /** After changing approach, the agent does this instead (undefined: wrap up and stop). */
  afterChange?: (index: number) => Step | undefined;
  /** After a compaction (undefined: carry on with main). */
  afterCompaction?: (index: number) => Step | undefined;
}

/** A productive call that makes visible progress: new file, new content. */
export function productiveStep(world: Rng, index: number): Step {
  const n = world.int(1, 400);
  const kind = index % 3;
  if (kind === 0) {
    const path = `src/module${n}.ts`;
    return { tool: "read", params: { path }, inLoop: false, respond: () => ({ result: text(`export const v${n} = ${world.int(0, 1e6)};`) }) };
  }
  if (kind === 1) {
    const pattern = `TODO-${n}`;
    return { tool: "grep", params: { pattern, path: "src" }, inLoop: false, respond: () => ({ result: text(`${world.int(0, 9)} matches for ${pattern}`) }) };
  }
  return {
    tool: "apply_patch",
    params: { patch: `*** Update File: src/module${n}.ts\n+// change ${world.id()}` },
    inLoop: false,
    respond: () => ({ result: text("Applied patch", { status: "ok" }) }),
  };
}

export function scriptedAgent(runId: string, world: Rng, script: Script, wrapUp = 2): AgentBehaviour {
  let phase: "main" | "changed" | "compacted" | "wrapup" | "done" = "main";
  let index = 0;
  let wrapLeft = wrapUp;
  /** The step behind the call last proposed: respond() answers it. */
  let current: { call: PlannedCall; step: Step } | undefined;

  const stepFor = (): Step | undefined => {
    for (;;) {
      if (phase === "done") return undefined;
      let step: Step | undefined;
      if (phase === "main") step = script.main(index);
      else if (phase === "changed") step = script.afterChange?.(index);
      else if (phase === "compacted") step = script.afterCompaction?.(index);
      else if (wrapLeft-- > 0) step = productiveStep(world, index);
      if (step !== undefined) return step;
      phase = phase === "wrapup" ? "done" : "wrapup";
    }
  };

  return {
    next() {
      const step = stepFor();
      index++;
      if (step === undefined) return undefined;
      const call: PlannedCall = { runId, tool: step.tool, params: step.params, inLoop: step.inLoop, ...(step.says === undefined ? {} : { says: step.says }), ...(step.callless === true ? { callless: true } : {}) };
      current = { call, step };
      return call;
    },
    respond(call) {
      return current?.call === call ? current.step.respond() : { result: text("ok") };
    },
    changeApproach() {
      if (phase === "main" || phase === "compacted") phase = script.afterChange === undefined ? "wrapup" : "changed";
    },
    compacted() {
      if (phase === "main" && script.afterCompaction !== undefined) phase = "compacted";
    },
    runAborted() {
      phase = "done";
    },
  };
}
