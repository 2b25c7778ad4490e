// Replaying a scenario: the same config, agent and source give the same timeline, and the
// timeline is compared with what the file expects.
import { resolveEffectiveConfig } from "../../models/configResolution.js";
import { REFERENCE_TARGET } from "../targets/reference.js";
import { runTarget, type Target } from "../targets/target.js";
import type { EngineOutput } from "../../models/engineOutput.js";
import { simulate } from "../sim/simulate.js";
import { expectationOf } from "./facts.js";
import type { LoadedScenario } from "./load.js";
import type { ScenarioExpected } from "./scenario.js";

export interface Replayed {
  readonly outputs: EngineOutput<string, string>[];
  readonly expected: ScenarioExpected;
}

/**
 * Replays a loaded scenario on a target and compares each output with the expected verdicts.
 *
 * @param loaded - a scenario from {@link loadScenario}.
 * @param target - the target to replay it on (default: the reference).
 */
export function replayScenario(loaded: LoadedScenario, target: Target = REFERENCE_TARGET): Replayed {
  const { scenario } = loaded;
  const config = resolveEffectiveConfig(scenario.config ?? {}, scenario.agent ?? undefined).config;
  if ("simulation" in scenario.source) {
    const result = simulate(scenario.source.simulation, config, target);
    return { outputs: result.outputs, expected: expectationOf(result.outputs, result.events.length) };
  }
  const events = loaded.events ?? [];
  const outputs = runTarget(target, config, events);
  return { outputs, expected: expectationOf(outputs, events.length) };
}

/** A readable, event-by-event diff of two compact timelines: changed lines with context. */
export function timelineDiff(expected: readonly string[], actual: readonly string[], maxLines = 40): string[] {
  const out: string[] = [];
  const length = Math.max(expected.length, actual.length);
  let shown = 0;
  let lastShown = -10;
  for (let i = 0; i < length && shown < maxLines; i++) {
    if (expected[i] === actual[i]) continue;
    if (i - lastShown > 3 && i > 0 && expected[i - 1] !== undefined) out.push(`    ${expected[i - 1]}`);
    if (expected[i] !== undefined) out.push(`  - ${expected[i]}`);
    if (actual[i] !== undefined) out.push(`  + ${actual[i]}`);
    lastShown = i;
    shown++;
  }
  const remaining = [...Array(length).keys()].filter((i) => expected[i] !== actual[i]).length - shown;
  if (remaining > 0) out.push(`  ... ${remaining} more differing lines`);
  return out;
}
