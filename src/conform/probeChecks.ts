// Running the C1/C5 probes on a target.
import { configFrom } from "../../models/configResolution.js";
import { missingNeed, type Target } from "../targets/target.js";
import { attribute } from "./attribute.js";
import type { CheckResult } from "./check.js";
import { replayLine, writeCounterexample } from "./counterexample.js";
import { PROBES } from "./probes.js";
import { differenceOf } from "./scenarioChecks.js";

export function probeChecks(target: Target, outDir: string | undefined): CheckResult[] {
  return PROBES.map((probe, i): CheckResult => {
    const name = `probe ${probe.field}${PROBES.filter((p) => p.field === probe.field).length > 1 ? `-${PROBES.slice(0, i).filter((p) => p.field === probe.field).length + 1}` : ""}`;
    const lacking = missingNeed(target, probe.needs);
    if (lacking !== undefined) return { kind: "probe", name, rules: probe.rules, status: "n/a", reason: lacking };
    const config = configFrom(probe.block);
    const diff = differenceOf(target, config, probe.events);
    if (diff === undefined) return { kind: "probe", name, rules: probe.rules, status: "pass" };
    const touched = attribute(target, config, probe.events, diff);
    // The probe's rules when the departure is about the field; W1's when it is only about emission.
    const relevant = touched.filter((r) => probe.rules.includes(r) || r === "W1" || r === "W2" || r === "K5");
    const rules = relevant.length > 0 ? relevant : touched.length > 0 ? touched : [...probe.rules];
    let counterexample;
    if (outDir !== undefined) {
      const file = writeCounterexample(outDir, target, name.replace(/ /g, "-"), { config: { tools: { loopDetection: probe.block } }, events: probe.events, covers: rules, description: `C1 probe: ${probe.what}. Reference: ${diff.reference ?? "(nothing)"}; ${target.name}: ${diff.target ?? "(nothing)"}.` });
      counterexample = { file, events: probe.events.length, replay: replayLine(file), reference: diff.reference, target: diff.target };
    }
    return { kind: "probe", name, rules, status: "fail", reason: `${probe.what}; reference: ${diff.reference ?? "(nothing)"}, ${target.name}: ${diff.target ?? "(nothing)"}`, counterexample };
  });
}
