// SPEC C5: what each value of `enabled` switches on.
import { configFrom } from "../../models/configResolution.js";
import { runTarget } from "../../src/targets/target.js";
import type { ToolEvent } from "../../models/events.js";
import { REFERENCE, broken, type Law } from "./law.js";
import { callsOf, configuredTrace, draft, tagOutputs, type ConfiguredTrace } from "./common.js";

export const enabledFalseSilent: Law<ConfiguredTrace> = {
  name: "enabled-false-silent",
  spec: ["C5", "R2", "G1"],
  needs: ["honours:enabled"],
  arbitrary: configuredTrace({ enabled: [false] }),
  runs: 150,
  required: ["would-flag", "would-abort"],
  check(value, subject, coverage) {
    const outputs = runTarget(subject, configFrom(value.block), value.events);
    const loud = outputs.find((o) => (o.kind === "call" && o.verdict !== "allow") || o.kind === "abort");
    if (loud !== undefined) broken(`enabled:false, yet event ${loud.index} got ${loud.kind === "abort" ? "an abort" : `a ${loud.kind === "call" ? loud.verdict : ""} verdict`}`);
    // Non-vacuity: the same trace with enabled:true would have been flagged or aborted.
    const on = runTarget(REFERENCE, configFrom({ ...value.block, enabled: true }), value.events);
    if (on.some((o) => o.kind === "call" && o.verdict !== "allow")) coverage.hit("would-flag");
    if (on.some((o) => o.kind === "abort")) coverage.hit("would-abort");
  },
  scenario: (value) => draft(value, ["C5"], "Counterexample: with enabled:false something was flagged or aborted."),
};

interface UnsetCase {
  readonly value: ConfiguredTrace;
}

/** After any trace: a compaction of a fresh run, then windowSize identical call/outcome pairs. */
function relapse(windowSize: number): ToolEvent[] {
  const events: ToolEvent[] = [{ type: "compaction", runId: "fresh-run" }];
  for (let i = 0; i < windowSize; i++) {
    events.push({ type: "call", runId: "fresh-run", tool: "read", params: { path: "huge.log" } });
    events.push({ type: "outcome", runId: "fresh-run", tool: "read", params: { path: "huge.log" }, result: { content: [{ type: "text", text: "same" }] } });
  }
  return events;
}

export const enabledUnsetGuardOnly: Law<UnsetCase> = {
  name: "enabled-unset-guard-only",
  spec: ["C5", "G1", "G3", "K6"],
  needs: ["guard", "honours:enabled"],
  // The relapse is built from the block at check time, so a block pinned for a target that ignores
  // windowSize (conform) still gets a relapse of the window it really has.
  arbitrary: configuredTrace({ enabled: [undefined] }).map((value) => ({ value })),
  runs: 150,
  required: ["abort", "would-flag"],
  check({ value }, subject, coverage) {
    const config = configFrom(value.block);
    const tail = relapse(config.postCompactionGuard.windowSize);
    const outputs = runTarget(subject, config, [...value.events, ...tail]);
    tagOutputs(coverage, outputs);
    const flagged = callsOf(outputs).find((v) => v.verdict !== "allow");
    if (flagged !== undefined) broken(`enabled unset, yet call ${flagged.index} got a ${flagged.verdict} verdict from ${flagged.detector}`);
    const abort = outputs.find((o) => o.kind === "abort" && o.run === "fresh-run");
    if (abort === undefined) broken("enabled unset: a compaction followed by windowSize identical triples did not abort");
    if (abort.kind === "abort" && abort.count !== config.postCompactionGuard.windowSize) broken(`abort count ${abort.count} is not windowSize ${config.postCompactionGuard.windowSize}`);
    const on = runTarget(REFERENCE, configFrom({ ...value.block, enabled: true }), value.events);
    if (on.some((o) => o.kind === "call" && o.verdict !== "allow")) coverage.hit("would-flag");
  },
  scenario: ({ value }) => ({ ...draft(value, ["C5", "K6"], "Counterexample: enabled unset must keep the guard on and the detectors off."), events: [...value.events, ...relapse(configFrom(value.block).postCompactionGuard.windowSize)] }),
};

