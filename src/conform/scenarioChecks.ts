// The spec and upstream scenarios as conformance checks: each replays on the target and is
// compared, on what the target models, with the reference's recorded expectation. A failure is
// cut down by delta debugging to the smallest sub-trace that still shows the same kind of
// departure, and written as a scenario recorded from the target.
import { join } from "node:path";
import { DEFAULT_CONFIG, type ResolvedConfig } from "../../models/config.js";
import { resolveEffectiveConfig } from "../../models/configResolution.js";
import type { ToolEvent } from "../../models/events.js";
import { scenarioFiles } from "../scenario/files.js";
import { packageRoot } from "../io/packageRoot.js";
import { loadScenario } from "../scenario/load.js";
import { minimizeKeepingPairs } from "../scenario/eventPairs.js";
import { simulate } from "../sim/simulate.js";
import { REFERENCE_TARGET } from "../targets/reference.js";
import { CONFIG_FIELDS, runTarget, type ConfigField, type Target } from "../targets/target.js";
import { attribute } from "./attribute.js";
import type { CheckResult } from "./check.js";
import { differenceOf, type FirstDifference } from "./compare.js";
import { replayLine, replayWithoutOut, writeCounterexample } from "./counterexample.js";
import { rulesOf } from "./rules.js";

export function fieldValue(config: ResolvedConfig, field: ConfigField): unknown {
  const [head, tail] = field.split(".") as [string, string | undefined];
  const value = (config as unknown as Record<string, unknown>)[head];
  return tail === undefined ? value : (value as Record<string, unknown>)[tail];
}

/** Fields whose value in this config differs from the default and that the target ignores. */
export function ignoredFieldsUsed(target: Target, config: ResolvedConfig): ConfigField[] {
  return CONFIG_FIELDS.filter((f) => f !== "enabled" && !target.capabilities.honours.includes(f) && fieldValue(config, f) !== fieldValue(DEFAULT_CONFIG, f));
}

/** Minimises a trace while the target still departs on a line of the same kind. */
export function minimalDifference(target: Target, config: ResolvedConfig, events: readonly ToolEvent[], original: FirstDifference): { events: ToolEvent[]; diff: FirstDifference } {
  const kind = (d: FirstDifference) => `${(d.reference ?? d.target ?? "").split(" ")[1]}`;
  const wanted = kind(original);
  // Nothing after the first differing event can matter to it: cut there before delta debugging.
  const at = Number((original.reference ?? original.target ?? "").split(" ")[0]);
  const prefix = Number.isInteger(at) && at >= 0 && at < events.length ? events.slice(0, at + 1) : [...events];
  const holds = (candidate: readonly ToolEvent[]) => {
    const d = differenceOf(target, config, candidate);
    return d !== undefined && kind(d) === wanted;
  };
  const { kept } = minimizeKeepingPairs(holds(prefix) ? prefix : events, holds, { maxTests: 800 });
  return { events: kept, diff: differenceOf(target, config, kept) ?? original };
}

export function corpusScenarioFiles(): string[] {
  const root = join(packageRoot(), "scenarios");
  return scenarioFiles([join(root, "spec"), join(root, "upstream")]);
}

/**
 * Every scenario of loopsim's corpus (scenarios/spec and scenarios/upstream) replayed on the
 * target, each a check against the scenario's expected verdicts.
 *
 * @param target - the target to replay the scenarios on.
 * @param outDir - counterexample scenarios are written under this folder; none when undefined.
 * @param onTick - called once per scenario (for a progress bar).
 */
export function scenarioChecks(target: Target, outDir: string | undefined, onTick: () => void = () => undefined): CheckResult[] {
  const out: CheckResult[] = [];
  for (const file of corpusScenarioFiles()) {
    onTick();
    const load = loadScenario(file, { requireExpected: true });
    if (!load.ok) continue;
    const { scenario } = load.loaded;
    const name = `scenario ${scenario.id}`;
    const rules = rulesOf(scenario.covers);
    const config = resolveEffectiveConfig(scenario.config ?? {}, scenario.agent ?? undefined).config;
    const ignored = ignoredFieldsUsed(target, config);
    if (ignored.length > 0) {
      out.push({ kind: "scenario", name, rules, status: "n/a", reason: `sets ${ignored.join(", ")}, which ${target.name} ignores (the C1 probes judge that)` });
      continue;
    }
    // The events the reference saw: a closed-loop scenario replays its simulation.
    const events: ToolEvent[] = "simulation" in scenario.source ? simulate(scenario.source.simulation, config).events : (load.loaded.events ?? []);
    const reference = runTarget(REFERENCE_TARGET, config, events);
    if (!target.capabilities.guard && reference.some((o) => o.kind === "abort" || (o.kind === "compaction" && o.armed))) {
      out.push({ kind: "scenario", name, rules, status: "n/a", reason: `needs the post-compaction guard, which ${target.name} lacks or does not drive` });
      continue;
    }
    const diff = differenceOf(target, config, events);
    if (diff === undefined) {
      out.push({ kind: "scenario", name, rules, status: "pass" });
      continue;
    }
    const minimal = minimalDifference(target, config, events, diff);
    const touched = attribute(target, config, minimal.events, minimal.diff);
    const failed = rules.filter((r) => touched.includes(r));
    const blamed = failed.length > 0 ? failed : touched;
    let counterexample;
    if (outDir !== undefined) {
      const fileOut = writeCounterexample(outDir, target, `scenario-${scenario.id}`, {
        config: scenario.config ?? {},
        events: minimal.events,
        covers: blamed,
        description: `Cut down from scenarios/${file.split("/scenarios/")[1] ?? file} (${events.length} events) to ${minimal.events.length}. Reference: ${minimal.diff.reference ?? "(nothing)"}; ${target.name}: ${minimal.diff.target ?? "(nothing)"}.`,
      });
      counterexample = { file: fileOut, events: minimal.events.length, replay: replayLine(fileOut), reference: minimal.diff.reference, target: minimal.diff.target };
    } else counterexample = { file: "", events: minimal.events.length, replay: replayWithoutOut(target, `scenario-${scenario.id}`), reference: minimal.diff.reference, target: minimal.diff.target };
    out.push({ kind: "scenario", name, rules: blamed, status: "fail", reason: `reference: ${minimal.diff.reference ?? "(nothing)"}; ${target.name}: ${minimal.diff.target ?? "(nothing)"}`, counterexample });
  }
  return out;
}
