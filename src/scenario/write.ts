// Building a scenario file from a trace and writing it atomically.
import type { ToolEvent } from "../../models/events.js";
import { REFERENCE_TARGET } from "../targets/reference.js";
import { runTarget, targetRef, type Target } from "../targets/target.js";
import { resolveEffectiveConfig } from "../../models/configResolution.js";
import { validateOpenClawConfig } from "../../models/configValidation.js";
import { writeFileAtomic } from "../io/atomicWrite.js";
import { encodeCycles } from "./cycles.js";
import { expectationOf } from "./facts.js";
import { SCENARIO_SCHEMA, type Scenario } from "./scenario.js";

export interface ScenarioDraft {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly covers: readonly string[];
  readonly config: unknown;
  readonly agent?: string | null;
  readonly events: readonly ToolEvent[];
}

/** A scenario whose expectation records what `target` does (the reference unless named). */
export function scenarioFromEvents(draft: ScenarioDraft, target: Target = REFERENCE_TARGET): Scenario {
  const config = resolveEffectiveConfig(draft.config, draft.agent ?? undefined).config;
  const outputs = runTarget(target, config, draft.events);
  return {
    schema: SCENARIO_SCHEMA,
    id: draft.id,
    title: draft.title,
    description: draft.description,
    covers: draft.covers,
    config: draft.config,
    ...(validateOpenClawConfig(draft.config ?? {}).length > 0 ? { configBypassesValidation: true } : {}),
    agent: draft.agent ?? null,
    source: { events: draft.events.map((e) => encodeCycles(e)) },
    ...(target === REFERENCE_TARGET ? {} : { target: targetRef(target) }),
    expected: expectationOf(outputs, draft.events.length),
  };
}

export function scenarioText(scenario: Scenario): string {
  return JSON.stringify(scenario, null, 2) + "\n";
}

export function writeScenario(path: string, scenario: Scenario): void {
  writeFileAtomic(path, scenarioText(scenario));
}
