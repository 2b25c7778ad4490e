// A field trace as a script for a runtime driven through its CLI. The runtime runs its own tools,
// so loopsim cannot hand it the thread's tools and results; what it keeps is what loop guards
// look at: which calls are the same call, which come in one response, which results change, which
// fail, and where a prompt starts. Each distinct call of the trace (tool + args) becomes one read
// of a file of its own (a failing one, of a missing file), and the file is rewritten before a
// response whenever the trace's result for that call changes.
import { guardFate, type DrivenScript, type DrivenStep, type PromptObservation } from "../targets/runtimes/drivenRuntime.js";
import { stableSerialize } from "../../models/stableSerialize.js";
import type { ExpandedTrace } from "./expand.js";
import type { ObservedCall, Observation } from "./observe.js";

export interface FieldScript {
  readonly script: DrivenScript;
  /** Script call id -> trace call number. */
  readonly numbers: ReadonlyMap<string, number>;
}

export function fieldScript(trace: ExpandedTrace): FieldScript {
  const files: Record<string, string> = {};
  const fileOf = new Map<string, string>();
  const content = new Map<string, string>();
  const numbers = new Map<string, number>();
  const prompts = trace.runs.map((run, p) => {
    const steps: DrivenStep[] = [];
    let current: { step: string; calls: { id: string; action: { kind: "read"; file: string } }[]; writes: Record<string, string | null> } | undefined;
    run.calls.forEach((n) => {
      const call = trace.calls[n - 1];
      if (call === undefined) return;
      if (current === undefined || current.step !== call.step) {
        if (current !== undefined) steps.push(asStep(current));
        current = { step: call.step, calls: [], writes: {} };
      }
      const key = `${call.tool}\u0000${stableSerialize(call.args ?? null)}`;
      let file = fileOf.get(key);
      if (file === undefined) {
        file = `call-${fileOf.size + 1}.txt`;
        fileOf.set(key, file);
      }
      const failing = call.error !== undefined;
      const text = failing ? null : `${stableSerialize(call.result ?? null)}\n`;
      if (content.get(file) !== (text ?? "\u0000missing")) {
        content.set(file, text ?? "\u0000missing");
        if (steps.length === 0 && p === 0 && current.calls.length === 0 && !(file in files)) {
          if (text !== null) files[file] = text;
        } else current.writes[file] = text;
      }
      const id = `call_p${p + 1}s${steps.length + 1}c${current.calls.length + 1}`;
      numbers.set(id, n);
      current.calls.push({ id, action: { kind: "read", file } });
    });
    if (current !== undefined) steps.push(asStep(current));
    return steps;
  });
  return { script: { files, prompts }, numbers };
}

function asStep(s: { calls: DrivenStep["calls"]; writes: Record<string, string | null> }): DrivenStep {
  return Object.keys(s.writes).length === 0 ? { calls: s.calls } : { calls: s.calls, writes: s.writes };
}

/** What the runtime did, as one observed call per trace call. */
export function observeDriven(trace: ExpandedTrace, script: FieldScript, prompts: readonly PromptObservation[]): Observation {
  const byNumber = new Map<number, ObservedCall>();
  prompts.forEach((prompt, p) => {
    const steps = script.script.prompts[p] ?? [];
    steps.forEach((step, s) => {
      const warned = prompt.warnings.some((w) => w.afterStep === s);
      const stoppedHere = prompt.stoppedAtStep === s;
      // A call the runtime rejected (a tool it lacks, args its schema refuses) was answered, not
      // stopped: no guard decided it, so the field sees it let through, as it sees a call that ran.
      const ran = step.calls.filter((c) => guardFate(prompt.fates[c.id]) === "ran");
      step.calls.forEach((c) => {
        const n = script.numbers.get(c.id);
        if (n === undefined) return;
        const fate = guardFate(prompt.fates[c.id] ?? "not-run");
        const last = c === ran[ran.length - 1];
        const endedAfter = stoppedHere && last;
        byNumber.set(n, {
          fate: fate === "refused" ? "blocked" : fate,
          told: fate === "refused" || (warned && last),
          keptFromModel: false,
          ...(fate === "refused" || endedAfter ? { detector: (prompt.stopMessage ?? "refused").slice(0, 80) } : {}),
          runEndedAfter: endedAfter,
        });
      });
    });
  });
  return { calls: trace.calls.map((c) => byNumber.get(c.number) ?? { fate: "not-run", told: false, keptFromModel: false, runEndedAfter: false }) };
}
