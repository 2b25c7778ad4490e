// Writing a failure as a scenario recorded from the target, so `loopsim replay FILE` (which uses
// the scenario's own target) reproduces it, and `loopsim replay --target reference FILE` shows
// how the reference differs.
import { join } from "node:path";
import type { ToolEvent } from "../../models/events.js";
import { scenarioFromEvents, writeScenario } from "../scenario/write.js";
import { targetRef, type Target } from "../targets/target.js";

export function safeName(text: string): string {
  return text.replace(/[^a-zA-Z0-9._-]+/g, "_");
}

export function writeCounterexample(dir: string, target: Target, check: string, input: { config: unknown; events: readonly ToolEvent[]; covers: readonly string[]; description: string }): string {
  const file = counterexamplePath(dir, target, check);
  const scenario = scenarioFromEvents(
    { id: `${safeName(target.name)}-${safeName(check)}`, title: `${target.name} departs from the reference: ${check}`, description: input.description, covers: input.covers, config: input.config, events: input.events },
    target,
  );
  writeScenario(file, scenario);
  return file;
}

export function replayLine(file: string): string {
  return `loopsim replay ${file}`;
}

/** Where conform puts a check's counterexample scenario under --out DIR. */
export function counterexamplePath(dir: string, target: Target, check: string): string {
  return join(dir, safeName(target.name), `${safeName(check)}.json`);
}

/**
 * The replay command for a check whose counterexample was not written (no --out): write it, then
 * replay it (conform exits 1 when a check fails, hence `;`, not `&&`). A pinned trace (a probe,
 * a scenario) has no seed that finds it again, so this is the way back to it.
 */
export function replayWithoutOut(target: Target, check: string): string {
  const dir = "loopsim-conform";
  return `loopsim conform --target ${targetRef(target)} --out ${dir} --force; ${replayLine(counterexamplePath(join(dir, "counterexamples"), target, check))}`;
}
