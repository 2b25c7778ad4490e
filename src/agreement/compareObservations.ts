// Where a model and a real runtime disagree on one probe. Compared per prompt: the response in
// which the run stopped (or that it ran to the end), the fate of every call as the loop guard
// decided it (ran, refused, not run), and after which responses a warning reached the model. A
// call the runtime rejected before running it (a tool it lacks, args its schema refuses) is no
// guard decision and no model has a registry: it compares as let through, as a call that ran. In the response where a run
// stopped, only the calls the model says did not run are compared: a CLI that ends the run does
// not report the calls of that response it had started, so "ran" there cannot be observed.
import { guardFate, type PromptObservation } from "../targets/runtimes/drivenRuntime.js";

export interface Difference {
  readonly prompt: number;
  readonly what: string;
  readonly model: string;
  readonly runtime: string;
}

const stepText = (s: number | null): string => (s === null ? "ran to the end" : `stopped in response ${s + 1}`);

export function differences(model: readonly PromptObservation[], real: readonly PromptObservation[]): Difference[] {
  const found: Difference[] = [];
  const prompts = Math.max(model.length, real.length);
  for (let p = 0; p < prompts; p++) {
    const m = model[p];
    const r = real[p];
    if (m === undefined || r === undefined) {
      found.push({ prompt: p + 1, what: "prompt", model: m === undefined ? "not reached" : "reached", runtime: r === undefined ? "not reached" : "reached" });
      continue;
    }
    if (m.stoppedAtStep !== r.stoppedAtStep) found.push({ prompt: p + 1, what: "stop", model: stepText(m.stoppedAtStep), runtime: stepText(r.stoppedAtStep) });
    const stopStepCalls = new Set<string>();
    const ids = Object.keys(m.fates);
    for (const id of ids) {
      const step = /s(\d+)c\d+$/.exec(id);
      if (step !== null && m.stoppedAtStep !== null && Number(step[1]) - 1 === m.stoppedAtStep) stopStepCalls.add(id);
    }
    for (const id of ids) {
      const mf = guardFate(m.fates[id]);
      const rf = guardFate(r.fates[id]);
      if (stopStepCalls.has(id) && mf === "ran") continue;
      if (mf !== rf) found.push({ prompt: p + 1, what: `call ${id}`, model: mf ?? "absent", runtime: rf ?? "absent" });
    }
    const mw = [...new Set(m.warnings.map((w) => w.afterStep + 1))].join(", ");
    const rw = [...new Set(r.warnings.map((w) => w.afterStep + 1))].join(", ");
    if (mw !== rw) found.push({ prompt: p + 1, what: "warnings after responses", model: mw === "" ? "none" : mw, runtime: rw === "" ? "none" : rw });
  }
  return found;
}
