// Laws that pin thresholds and switches exactly, found by the semantic mutants (mutation/): the
// global breaker blocks whatever the detector switches say (D2 row 2), the unknown-tool streak
// blocks at its threshold and not before (D2 row 1, inclusive), and no critical is ever
// suppressed (W2).
import fc from "fast-check";
import { configFrom } from "../../models/configResolution.js";
import type { ToolEvent } from "../../models/events.js";
import type { LoopDetectionBlock } from "../../src/arbitraries/configArbitrary.js";
import { text } from "../../src/sim/behaviour.js";
import { runTarget } from "../../src/targets/target.js";
import { callsOf, configuredTrace, draft, tagOutputs, type ConfiguredTrace } from "./common.js";
import { broken, type Law } from "./law.js";

interface SwitchCase {
  readonly block: LoopDetectionBlock;
  readonly generic: boolean;
  readonly loop: number;
}

/** loop identical calls with identical results, then the same call once more. */
function identicalLoop(loop: number, tool = "read"): ToolEvent[] {
  const events: ToolEvent[] = [];
  for (let i = 0; i < loop; i++) {
    events.push({ type: "call", runId: "r", callId: `c${i}`, tool, params: { path: "same" } });
    events.push({ type: "outcome", runId: "r", callId: `c${i}`, tool, params: { path: "same" }, result: text("same") });
  }
  events.push({ type: "call", runId: "r", callId: "last", tool, params: { path: "same" } });
  return events;
}

const switchCase: fc.Arbitrary<SwitchCase> = fc
  .record({ global: fc.integer({ min: 3, max: 25 }), genericRepeat: fc.boolean(), pingPong: fc.boolean(), knownPollNoProgress: fc.boolean(), extra: fc.integer({ min: 0, max: 3 }) })
  .map((r) => ({
    block: { enabled: true, historySize: 200, warningThreshold: 1, criticalThreshold: 2, globalCircuitBreakerThreshold: r.global, detectors: { genericRepeat: r.genericRepeat, pingPong: r.pingPong, knownPollNoProgress: r.knownPollNoProgress } },
    generic: r.genericRepeat,
    loop: r.global + r.extra,
  }));

/** D2 row 2: no switch turns the global breaker off. */
export const globalBreakerIgnoresSwitches: Law<SwitchCase> = {
  name: "global-breaker-ignores-switches",
  spec: ["D2", "C1"],
  needs: ["rollingDetectors", "honours:detectors.genericRepeat", "honours:globalCircuitBreakerThreshold"],
  arbitrary: switchCase,
  runs: 120,
  required: ["generic-off", "generic-on"],
  check(c, subject, coverage) {
    const generic = c.generic;
    coverage.hit(generic ? "generic-on" : "generic-off");
    const last = callsOf(runTarget(subject, configFrom(c.block), identicalLoop(c.loop))).at(-1);
    if (last?.verdict !== "critical") broken(`after ${c.loop} identical outcomes (global breaker ${c.block.globalCircuitBreakerThreshold}, genericRepeat ${generic}) the next call got ${last?.verdict ?? "nothing"}`);
    if (!generic && last.detector !== "global_circuit_breaker") broken(`with genericRepeat off the block came from ${last.detector}, not the global breaker`);
  },
  scenario: (c) => ({ description: "Counterexample: a detector switch turned the global breaker off.", covers: ["D2"], config: { tools: { loopDetection: c.block } }, events: identicalLoop(c.loop) }),
};

interface UnknownCase {
  readonly threshold: number;
}

function unknownTrace(misses: number): ToolEvent[] {
  const events: ToolEvent[] = [];
  for (let i = 0; i < misses; i++) {
    const params = { url: `https://example.test/${i}` };
    events.push({ type: "call", runId: "r", callId: `u${i}`, tool: "browserx", params });
    events.push({ type: "outcome", runId: "r", callId: `u${i}`, tool: "browserx", params, error: "Unknown tool: browserx" });
  }
  events.push({ type: "call", runId: "r", callId: "next", tool: "browserx", params: { url: "https://example.test/next" } });
  return events;
}

/** D2 row 1, thresholds inclusive, counts without the current call: threshold misses block the next call, threshold - 1 do not. */
export const unknownToolBlocksAtThreshold: Law<UnknownCase> = {
  name: "unknown-tool-blocks-at-threshold",
  spec: ["D2", "S3", "H3"],
  needs: ["rollingDetectors", "honours:unknownToolThreshold"],
  arbitrary: fc.integer({ min: 2, max: 30 }).map((threshold) => ({ threshold })),
  runs: 60,
  required: ["blocked-at-threshold"],
  check(c, subject, coverage) {
    const config = configFrom({ enabled: true, unknownToolThreshold: c.threshold, historySize: 200, warningThreshold: 40, criticalThreshold: 50, globalCircuitBreakerThreshold: 60 });
    const at = callsOf(runTarget(subject, config, unknownTrace(c.threshold))).at(-1);
    if (at?.verdict !== "critical" || at.detector !== "unknown_tool_repeat") broken(`${c.threshold} misses of an unknown tool (threshold ${c.threshold}) did not block the next call: ${at?.verdict ?? "nothing"}`);
    coverage.hit("blocked-at-threshold");
    const before = callsOf(runTarget(subject, config, unknownTrace(c.threshold - 1))).at(-1);
    if (before?.verdict === "critical" && before.detector === "unknown_tool_repeat") broken(`${c.threshold - 1} misses already blocked (threshold ${c.threshold})`);
  },
  scenario: (c) => ({ description: "Counterexample: the unknown-tool threshold is not inclusive.", covers: ["D2", "S3"], config: { tools: { loopDetection: { enabled: true, unknownToolThreshold: c.threshold } } }, events: unknownTrace(c.threshold) }),
};

/** W2: a critical always reaches the caller, whatever came before it. */
export const criticalsAlwaysEmitted: Law<ConfiguredTrace> = {
  name: "criticals-always-emitted",
  spec: ["W2", "E3"],
  needs: ["rollingDetectors", "warningPolicy"],
  arbitrary: configuredTrace({ enabled: [true] }),
  runs: 150,
  required: ["generic_repeat:critical", "known_poll_no_progress:critical"],
  check(value, subject, coverage) {
    const outputs = runTarget(subject, configFrom(value.block), value.events);
    tagOutputs(coverage, outputs);
    const hidden = callsOf(outputs).find((o) => o.verdict === "critical" && !o.emitted);
    if (hidden !== undefined) broken(`the critical at event ${hidden.index} (${hidden.verdict === "critical" ? hidden.detector : ""}) was suppressed`);
  },
  scenario: (value) => draft(value, ["W2"], "Counterexample: a critical verdict was suppressed."),
};

/** The trace without the call at `at` and the outcome with its callId, or undefined when the call has no callId (then which outcome is its veto depends on order). */
function withoutCall(events: readonly ToolEvent[], at: number): ToolEvent[] | undefined {
  const call = events[at];
  if (call === undefined || call.type !== "call" || call.callId === undefined) return undefined;
  const run = (call.runId ?? "").trim();
  const answers = (e: ToolEvent) => (e.type === "call" || e.type === "outcome") && e.callId === call.callId && (e.runId ?? "").trim() === run;
  // Another call with the same callId makes the pairing ambiguous: not judged.
  if (events.some((e, i) => i !== at && e.type === "call" && answers(e))) return undefined;
  return events.filter((e, i) => i !== at && !(i > at && e.type === "outcome" && answers(e)));
}

/** E3, R2, H2.4, G2: a blocked call is neither run nor recorded, so taking it out of the trace changes no later verdict. */
export const blockedCallsLeaveNoTrace: Law<ConfiguredTrace> = {
  name: "blocked-calls-leave-no-trace",
  spec: ["E3", "R2", "E4", "H2", "G2"],
  needs: ["rollingDetectors", "warningPolicy"],
  arbitrary: configuredTrace({ enabled: [true] }),
  runs: 200,
  required: ["removed-a-block", "removed-a-block-with-call-id"],
  check(value, subject, coverage) {
    const config = configFrom(value.block);
    const outputs = runTarget(subject, config, value.events);
    const block = callsOf(outputs).find((o) => o.verdict === "critical");
    if (block === undefined || value.events[block.index]?.type !== "call") return;
    coverage.hit("removed-a-block");
    const shorter = withoutCall(value.events, block.index);
    if (shorter === undefined) return;
    coverage.hit("removed-a-block-with-call-id");
    // Later call verdicts, compared without their indexes (the shorter trace is shifted).
    const key = (o: (typeof outputs)[number]) => JSON.stringify({ ...o, index: undefined });
    const after = callsOf(outputs.filter((o) => o.index > block.index)).map(key);
    const again = callsOf(runTarget(subject, config, shorter).filter((o) => o.index >= block.index)).map(key);
    const at = after.findIndex((line, i) => line !== again[i]);
    if (at !== -1 || after.length !== again.length) broken(`taking out the call blocked at event ${block.index} changed a later output: ${after[at] ?? "nothing"} became ${again[at] ?? "nothing"}`);
  },
  scenario: (value) => draft(value, ["E3", "R2"], "Counterexample: a blocked call changed later verdicts, as if it had been run or recorded."),
};
