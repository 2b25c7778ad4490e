// Running the C1/C5 probes on a target.
import { configFrom } from "../../models/configResolution.js";
import { missingNeed, type Target } from "../targets/target.js";
import { attribute } from "./attribute.js";
import type { CheckResult } from "./check.js";
import { replayLine, replayWithoutOut, writeCounterexample } from "./counterexample.js";
import { PROBES } from "./probes.js";
import { differenceOf } from "./compare.js";

/**
 * The C1/C5 probes (pinned short traces) as checks on the target, each compared with the
 * reference; a failure carries its first differing line and a counterexample scenario.
 *
 * @param target - the target to probe.
 * @param outDir - counterexample scenarios are written under this folder; none when undefined.
 */
export function probeChecks(target: Target, outDir: string | undefined): CheckResult[] {
  return PROBES.map((probe, i): CheckResult => {
    const name = `probe ${probe.field}${PROBES.filter((p) => p.field === probe.field).length > 1 ? `-${PROBES.slice(0, i).filter((p) => p.field === probe.field).length + 1}` : ""}`;
    const lacking = missingNeed(target, probe.needs);
    if (lacking !== undefined) return { kind: "probe", name, rules: probe.rules, status: "n/a", reason: lacking };
    const config = configFrom(probe.block);
    const diff = differenceOf(target, config, probe.events);
    if (diff === undefined) return { kind: "probe", name, rules: probe.rules, status: "pass" };
    const touched = attribute(target, config, probe.events, diff);
    // A probe that departs on a verdict breaks its field's rules; one that departs only on emission
    // is W1's (buckets), whatever the field.
    // The same goes for a departure that is more basic than the field: a block that did not stick
    // (E4) or a guard that never armed (C5, G1) shows up on any probe that runs long enough.
    const emissionOnly = touched.length > 0 && touched.every((r) => r === "W1" || r === "W2" || r === "K5");
    const moreBasic = !probe.rules.includes("C5") && touched.some((r) => r === "E4" || r === "C5" || r === "G1");
    const rules = emissionOnly || moreBasic ? touched : [...probe.rules];
    let counterexample;
    if (outDir !== undefined) {
      const file = writeCounterexample(outDir, target, name.replace(/ /g, "-"), { config: { tools: { loopDetection: probe.block } }, events: probe.events, covers: rules, description: `C1 probe: ${probe.what}. Reference: ${diff.reference ?? "(nothing)"}; ${target.name}: ${diff.target ?? "(nothing)"}.` });
      counterexample = { file, events: probe.events.length, replay: replayLine(file), reference: diff.reference, target: diff.target };
    } else counterexample = { file: "", events: probe.events.length, replay: replayWithoutOut(target, name.replace(/ /g, "-")), reference: diff.reference, target: diff.target };
    return { kind: "probe", name, rules, status: "fail", reason: `${probe.what}; reference: ${diff.reference ?? "(nothing)"}, ${target.name}: ${diff.target ?? "(nothing)"}`, counterexample };
  });
}
