// Runs a probe through an event-level target (a model, or a runtime's own code in-process) the
// way an agent would: the calls of each response in order, each call's outcome once it ran, the
// rest of a prompt dropped once the target stops it. Tool names and args are the runtime's own
// (its ToolNaming), results come from a small file system that follows the probe's writes.
import { configFrom } from "../../models/configResolution.js";
import type { ResolvedConfig } from "../../models/config.js";
import type { CallFate, DrivenScript, ProbeAction, PromptObservation, ToolNaming } from "../targets/runtimes/drivenRuntime.js";
import type { Target } from "../targets/target.js";

const WORK = "/loopsim/probe";

/** What a call would give back in the scratch folder: a result, or an error. */
function simulate(action: ProbeAction, files: Map<string, string>): { result: unknown } | { error: unknown } {
  if (action.kind === "raw") return { result: "" };
  if (action.kind === "read") {
    // No path at all fails the read tool's schema in every runtime here: an invalid-arguments
    // error (Kilo counts those; the others read it as any failure).
    if (action.args !== undefined) return { error: { kind: "invalid-arguments", message: "params must have required property 'file_path'" } };
    const content = files.get(action.file);
    return content === undefined ? { error: `File not found: ${action.file}` } : { result: content };
  }
  const cat = /^cat (\S+)$/.exec(action.command);
  if (cat !== null) {
    const content = files.get(cat[1] as string);
    return content === undefined ? { error: `cat: ${cat[1]}: No such file or directory (exit 1)` } : { result: content };
  }
  const echo = /^echo (.*)$/.exec(action.command);
  if (echo !== null) return { result: `${echo[1]}\n` };
  if (/^git /.test(action.command)) return { error: "fatal: not a git repository (exit 128)" };
  return { result: "" };
}

export function runProbeOnTarget(target: Target, naming: ToolNaming, script: DrivenScript, config: ResolvedConfig = configFrom({})): PromptObservation[] {
  const session = target.start(config);
  const files = new Map(Object.entries(script.files));
  return script.prompts.map((steps, p) => {
    const runId = `prompt-${p + 1}`;
    const fates: Record<string, CallFate> = {};
    for (const step of steps) for (const call of step.calls) fates[call.id] = "not-run";
    const warnings: { afterStep: number; text: string }[] = [];
    let stoppedAtStep: number | null = null;
    let stopMessage: string | undefined;
    for (let s = 0; s < steps.length && stoppedAtStep === null; s++) {
      const step = steps[s] as DrivenScript["prompts"][number][number];
      for (const [file, content] of Object.entries(step.writes ?? {})) {
        if (content === null) files.delete(file);
        else files.set(file, content);
      }
      const ran: { id: string; action: ProbeAction; tool: string; params: unknown }[] = [];
      // The response's text streams first; a stop there ends the prompt, a cut refuses its calls.
      for (const piece of step.text ?? []) {
        const outputs = session.step({ type: piece.type, runId, text: piece.text, chunk: true, step: `${runId}/step-${s + 1}` });
        const abort = outputs.find((o) => o.kind === "abort");
        if (abort?.kind === "abort") {
          stoppedAtStep = s;
          stopMessage = abort.message;
          break;
        }
      }
      if (stoppedAtStep !== null) break;
      for (const call of step.calls) {
        const { name, args } = naming.toolCall(call.action, WORK);
        const outputs = session.step({ type: "call", runId, callId: call.id, tool: name, params: args, step: `${runId}/step-${s + 1}` });
        const abort = outputs.find((o) => o.kind === "abort");
        if (abort?.kind === "abort") {
          stoppedAtStep = s;
          stopMessage = abort.message;
          break;
        }
        const verdict = outputs.find((o) => o.kind === "call");
        if (verdict?.kind !== "call") continue; // ignored: the run is over
        if (verdict.verdict === "critical") {
          fates[call.id] = "refused";
          continue;
        }
        if (verdict.verdict === "warning") warnings.push({ afterStep: s, text: verdict.message ?? "" });
        fates[call.id] = "ran";
        ran.push({ id: call.id, action: call.action, tool: name, params: args });
      }
      for (const call of ran) {
        const outcome = simulate(call.action, files);
        const outputs = session.step({ type: "outcome", runId, callId: call.id, tool: call.tool, params: call.params, ...outcome });
        for (const o of outputs) {
          if (o.kind === "call" && o.verdict === "warning") warnings.push({ afterStep: s, text: o.message ?? "" });
          if (o.kind === "abort" && stoppedAtStep === null) {
            stoppedAtStep = s;
            stopMessage = o.message;
          }
        }
      }
    }
    return stopMessage === undefined ? { fates, stoppedAtStep, warnings } : { fates, stoppedAtStep, stopMessage, warnings };
  });
}
