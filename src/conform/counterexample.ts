// Writing a failure as a scenario recorded from the target, so `loopsim replay FILE` (which uses
// the scenario's own target) reproduces it, and `loopsim replay --target reference FILE` shows
// how the reference differs.
import { join } from "node:path";
import type { ToolEvent } from "../../models/events.js";
import { scenarioFromEvents, writeScenario } from "../scenario/write.js";
import type { Target } from "../targets/target.js";

export function safeName(text: string): string {
  return text.replace(/[^a-zA-Z0-9._-]+/g, "_");
}

export function writeCounterexample(dir: string, target: Target, check: string, input: { config: unknown; events: readonly ToolEvent[]; covers: readonly string[]; description: string }): string {
  const file = join(dir, safeName(target.name), `${safeName(check)}.json`);
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
