// A user's trace as a script for a driven CLI, and what the CLI did as loopsim's outputs. Each run
// of the trace is one prompt of one conversation (runs in order of first appearance; run ids as
// given, never trimmed: trimming is OpenClaw's rule alone); the calls
// of one response (the same `step`) are served together, a call without a step is a response of
// its own. Names and args go to the runtime as recorded: its own turn normalises them (its adapter's
// toolCall may spell a call in the runtime's own schema where the record plainly says the same
// thing: opencodeArgs.ts).
// The runtime runs its own tools in a scratch folder, so the trace's results are not what it
// sees; they are not used. A call the runtime rejected before running it (a tool it does not
// have, args its schema refuses) is allowed here and its outcome not recorded: no guard decided it.
import { argsHash } from "../../../models/callHash.js";
import { digestNamed } from "../../../models/digest.js";
import { isTextEvent, type ToolEvent } from "../../../models/events.js";
import { runKeyOf } from "../../../models/normalize.js";
import { chosenDigest } from "../digestChoice.js";
import type { TargetOutput } from "../target.js";
import { guardFate, type CallFate, type DrivenScript, type DrivenStep, type PromptObservation, type Rejection } from "./drivenRuntime.js";

interface PlannedCall {
  readonly event: number;
  readonly prompt: number;
  readonly step: number;
  readonly id: string;
}

export interface TracePlan {
  readonly script: DrivenScript;
  /** The call each event is about (outcomes point at their call); undefined for compactions. */
  readonly callOf: readonly (PlannedCall | undefined)[];
  /** Each prompt's run, by prompt index. */
  readonly runs: readonly string[];
}

export function planTrace(events: readonly ToolEvent[]): TracePlan {
  const runs: string[] = [];
  const prompts: { calls: { id: string; name: string; args: unknown }[]; stepKey: string | undefined }[][] = [];
  const callOf: (PlannedCall | undefined)[] = [];
  const pending = new Map<string, PlannedCall[]>();
  events.forEach((event, index) => {
    const run = runKeyOf(event.runId, "exact");
    let p = runs.indexOf(run);
    if (p === -1) {
      p = runs.push(run) - 1;
      prompts.push([]);
    }
    const steps = prompts[p] as (typeof prompts)[number];
    // Model text is not sent: the scripted model streams no text (text probes are n/a here).
    if (event.type === "compaction" || isTextEvent(event)) {
      callOf.push(undefined);
      return;
    }
    if (event.type === "call") {
      const last = steps.at(-1);
      const joins = last !== undefined && event.step !== undefined && last.stepKey === event.step;
      if (!joins) steps.push({ calls: [], stepKey: event.step });
      const s = steps.length - 1;
      const current = steps[s] as (typeof steps)[number];
      const id = `call_p${p + 1}s${s + 1}c${current.calls.length + 1}`;
      current.calls.push({ id, name: event.tool, args: event.params });
      const planned = { event: index, prompt: p, step: s, id };
      callOf.push(planned);
      const key = `${run}\u0000${event.callId ?? event.tool}`;
      pending.set(key, [...(pending.get(key) ?? []), planned]);
      return;
    }
    const key = `${run}\u0000${event.callId ?? event.tool}`;
    const waiting = pending.get(key) ?? [];
    callOf.push(waiting.shift());
  });
  const script: DrivenScript = {
    files: {},
    prompts: prompts.map((steps) => steps.map((s): DrivenStep => ({ calls: s.calls.map((c) => ({ id: c.id, action: { kind: "raw", name: c.name, args: c.args } })) }))),
  };
  return { script, callOf, runs };
}

/** A call the runtime answered: it ran, or it was rejected before running (a tool the runtime lacks,
 * args its schema refuses), which is the runtime's answer to it and no guard decision. */
const answered = (fate: CallFate | undefined): boolean => guardFate(fate) === "ran";

/** Where a prompt stopped: the event of the call that triggered, and whether that call was answered. */
function stopPoint(plan: TracePlan, prompt: number, observed: PromptObservation): { event: number; triggerAnswered: boolean } | undefined {
  const step = observed.stoppedAtStep;
  if (step === null) return undefined;
  const calls = plan.callOf.filter((c, i): c is PlannedCall => c !== undefined && c.event === i && c.prompt === prompt && c.step === step);
  const trigger = calls.find((c) => !answered(observed.fates[c.id])) ?? calls.at(-1);
  if (trigger === undefined) return undefined;
  return { event: trigger.event, triggerAnswered: answered(observed.fates[trigger.id]) };
}

/**
 * The outcome of a call as the runtime answered it. A call that ran is recorded; one the guard
 * refused, or that the run never reached, is vetoed (E4: its outcome is the guard's block, or
 * never came). A call the runtime rejected before running it is neither: nothing ran, so nothing
 * is recorded, and no guard blocked it, so it is no veto; `rejected` says why the runtime rejected
 * it, and where it said it has no such tool, `unknownTool` names the tool as the trace called it.
 */
function outcomeNote(index: number, run: string, tool: string, argsHash: string, fate: CallFate | undefined, rejection: Rejection | undefined): TargetOutput {
  if (fate === "rejected") return { kind: "outcome", index, run, tool, recorded: false, vetoed: false, argsHash, resultHash: undefined, unknownTool: rejection === "unknown-tool" ? tool : undefined, ...(rejection === undefined ? {} : { rejected: rejection }) };
  const ran = fate === "ran" || fate === undefined;
  return { kind: "outcome", index, run, tool, recorded: ran, vetoed: !ran, argsHash, resultHash: undefined, unknownTool: undefined };
}

/** loopsim's outputs for every event of the trace, from what the runtime did in each prompt. */
export function outputsFromObservations(runtime: string, events: readonly ToolEvent[], plan: TracePlan, prompts: readonly PromptObservation[]): TargetOutput[] {
  const digest = digestNamed(chosenDigest());
  const stops = prompts.map((o, p) => stopPoint(plan, p, o));
  /** The event after which a run's later events are ignored. */
  const endOf = new Map<number, number>();
  stops.forEach((s, p) => {
    if (s !== undefined) endOf.set(p, s.event);
  });
  const lastEventOfStep = new Map<string, number>();
  plan.callOf.forEach((c, i) => {
    if (c !== undefined) lastEventOfStep.set(`${c.prompt}/${c.step}`, i);
  });
  const out: TargetOutput[] = [];
  events.forEach((event, index) => {
    const run = runKeyOf(event.runId, "exact");
    const prompt = plan.runs.indexOf(run);
    const end = endOf.get(prompt);
    const stop = stops[prompt];
    if (end !== undefined && index > end && !(stop?.triggerAnswered === true && plan.callOf[index]?.event === end)) {
      out.push({ kind: "ignored", index, run, eventType: event.type });
      return;
    }
    if (event.type === "compaction") {
      out.push({ kind: "compaction", index, run, armed: false });
      return;
    }
    // Text takes its place in the stream and gives no output, as with the reference.
    if (isTextEvent(event)) return;
    const call = plan.callOf[index];
    const observed = prompts[prompt];
    const hash = argsHash(digest, event.tool, event.params);
    const fate: CallFate | undefined = call === undefined || observed === undefined ? "ran" : observed.fates[call.id];
    const stopHere = stop !== undefined && stop.event === call?.event && (event.type === "call" ? !stop.triggerAnswered : true);
    const abort: TargetOutput = { kind: "abort", index, run, tool: event.tool, error: `${runtime}:stop`, count: 0, message: observed?.stopMessage ?? `${runtime} stopped the run` };
    if (event.type === "call") {
      if (stopHere) {
        out.push(abort);
        return;
      }
      // A rejected call is allowed by the guard: the runtime's rejection is no loop-guard decision.
      if (fate === undefined || answered(fate)) out.push({ kind: "call", index, run, tool: event.tool, argsHash: hash, verdict: "allow" });
      else out.push({ kind: "call", index, run, tool: event.tool, argsHash: hash, verdict: "critical", detector: `${runtime}:refused`, count: 0, warningKey: `${runtime}:refused:${hash}`, message: `${runtime}: the call ${fate === "refused" ? "was refused" : "did not run"}`, emitted: true });
      if (stop?.triggerAnswered === true && stop.event === index && !events.slice(index + 1).some((_, j) => plan.callOf[index + 1 + j]?.event === index && events[index + 1 + j]?.type === "outcome")) out.push(abort);
    } else {
      out.push(outcomeNote(index, run, event.tool, hash, fate, call === undefined ? undefined : observed?.rejections?.[call.id]));
      if (stopHere && stop?.triggerAnswered === true) out.push(abort);
    }
    const stepKey = call === undefined ? undefined : `${call.prompt}/${call.step}`;
    if (stepKey !== undefined && lastEventOfStep.get(stepKey) === index) {
      for (const w of observed?.warnings ?? []) {
        if (w.afterStep === call?.step) out.push({ kind: "call", index, run, tool: event.tool, argsHash: hash, verdict: "warning", detector: `${runtime}:warning`, count: 0, warningKey: `${runtime}:warning:${hash}`, message: w.text, emitted: true });
      }
    }
  });
  return out;
}
