// Warnings come first (seed page, SPEC D2): with warning < critical, the first non-allow
// verdict on a repeated pattern is a warning. The pattern of a verdict is its warning key
// without the result part, per run.
import { configFrom } from "../../models/configResolution.js";
import { runTarget } from "../../src/targets/target.js";
import type { FlaggedCall } from "../../models/engineOutput.js";
import { knownAnomaly } from "./anomalies.js";
import { broken, type Law } from "./law.js";
import { callsOf, configuredTrace, draft, tagOutputs, type ConfiguredTrace } from "./common.js";

/**
 * What a verdict is about, per run: the call (its args), and for ping-pong and unknown-tool
 * verdicts also the pair or the missing tool. A block is preceded by a warning when an earlier
 * warning was about any of the same things.
 */
export function subjectsOf(v: FlaggedCall<string>): string[] {
  const subjects = [`${v.run}|args:${v.argsHash}`];
  if (v.detector === "ping_pong" || v.detector === "unknown_tool_repeat") subjects.push(`${v.run}|${v.warningKey}`);
  // A ping-pong is about both of its calls: a warning on the partner (say a poll warning, which
  // comes first in D2) was a warning about this loop.
  if (v.detector === "ping_pong") for (const hash of v.warningKey.slice("pingpong:".length).split("|")) subjects.push(`${v.run}|args:${hash}`);
  return subjects;
}

export const warningsComeFirst: Law<ConfiguredTrace> = {
  name: "warnings-come-first",
  spec: ["D2", "W1"],
  needs: ["warningLevel"],
  arbitrary: configuredTrace({ enabled: [true], repairs: false }, { orphans: false }),
  runs: 250,
  required: ["blocked"],
  check(value, subject, coverage) {
    const config = configFrom(value.block);
    const outputs = runTarget(subject, config, value.events);
    tagOutputs(coverage, outputs);
    const heard = new Set<string>();
    for (const v of callsOf(outputs)) {
      if (v.verdict === "allow") continue;
      const subjects = subjectsOf(v);
      const first = !subjects.some((s) => heard.has(s));
      for (const s of subjects) heard.add(s);
      if (!first || v.verdict === "warning") continue;
      const pattern = subjects.join(" / ");
      // Known anomaly A3 (README): unknown_tool_repeat has no warning level in SPEC D2.
      if (v.detector === "unknown_tool_repeat" && knownAnomaly("A3", coverage, "unknown-tool-has-no-warning")) {
        continue;
      }
      // Known anomaly A4 (README): the breaker has no warning level either; with the pattern's
      // own warning detector switched off, its block is the first thing the agent hears.
      const poll = v.warningKey.startsWith("global:") && (v.tool === "command_status" || v.tool === "process");
      const warnerOff = poll ? !config.detectors.knownPollNoProgress : !config.detectors.genericRepeat;
      if (v.detector === "global_circuit_breaker" && warnerOff && knownAnomaly("A4", coverage, "breaker-without-warner")) {
        continue;
      }
      // Known anomaly A6 (README): a ping-pong's first count is 3 (two alternating records plus
      // the call), so with criticalThreshold <= 3 its first verdict is already a block.
      if (v.detector === "ping_pong" && v.count === 3 && config.criticalThreshold <= 3 && knownAnomaly("A6", coverage, "ping-pong-starts-at-3")) {
        continue;
      }
      broken(`call ${v.index}: the first verdict on pattern ${pattern} is a block (${v.detector} ${v.count}) with no warning before it`);
    }
    if (callsOf(outputs).some((v) => v.verdict === "critical")) coverage.hit("blocked");
  },
  scenario: (value) => draft(value, ["D2"], "Counterexample: a repeated pattern was blocked before it was warned."),
};
