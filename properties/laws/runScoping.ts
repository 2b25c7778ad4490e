// SPEC R1 and K2: detection reads only the call's run.
import fc from "fast-check";
import { runTarget } from "../../src/targets/target.js";
import { configFrom } from "../../models/configResolution.js";
import type { ToolEvent } from "../../models/events.js";
import { normalizeRunId } from "../../models/normalize.js";
import { outputJsonLine } from "../../src/format/outputJson.js";
import { configBlockArbitrary, type LoopDetectionBlock } from "../../src/arbitraries/configArbitrary.js";
import { traceArbitrary } from "../../src/arbitraries/traceArbitrary.js";
import { knownAnomaly } from "./anomalies.js";
import { broken, type Law } from "./law.js";
import { warningMasksBlock, SEVERITY, callsOf, configuredTrace, describeVerdict, draft, tagOutputs, blockStatusDivergesBefore, verdictsByIndex, type ConfiguredTrace } from "./common.js";

interface FreshRunCase {
  readonly block: LoopDetectionBlock;
  readonly before: ToolEvent[];
  readonly fresh: ToolEvent[];
}

const withRun = (events: readonly ToolEvent[], runId: string): ToolEvent[] => events.map((e) => ({ ...e, runId }));

/** A fresh runId starts from zero: its verdicts after any trace equal its verdicts alone. */
export const freshRunStartsFromZero: Law<FreshRunCase> = {
  name: "fresh-run-starts-from-zero",
  spec: ["R1", "E2", "K2"],
  needs: ["rollingDetectors"],
  arbitrary: fc.record({ block: configBlockArbitrary({ enabled: [true] }), before: traceArbitrary(), fresh: traceArbitrary({ maxSegments: 4 }).map((e) => withRun(e, "fresh-run")) }),
  runs: 150,
  required: ["generic_repeat:warning", "generic_repeat:critical", "ping_pong:warning", "flagged-before"],
  check(value, subject, coverage) {
    const config = configFrom(value.block);
    const full = runTarget(subject, config, [...value.before, ...value.fresh]).filter((o) => o.run === "fresh-run");
    const alone = runTarget(subject, config, value.fresh);
    tagOutputs(coverage, alone);
    if (callsOf(runTarget(subject, config, value.before)).some((v) => v.verdict !== "allow")) coverage.hit("flagged-before");
    const shift = value.before.length;
    const left = full.map((o) => outputJsonLine({ ...o, index: o.index - shift }));
    const right = alone.map(outputJsonLine);
    const at = left.findIndex((line, i) => line !== right[i]);
    if (at !== -1 || left.length !== right.length) broken(`the fresh run's output ${at} differs after other runs: ${left[at] ?? "none"} vs alone ${right[at] ?? "none"}`);
  },
  scenario: (value) => ({ ...draft({ block: value.block, events: [...value.before, ...value.fresh] }, ["R1", "K2"], "Counterexample: a fresh run did not start from zero."), events: [...value.before, ...value.fresh] }),
};

/** The run with the most calls, R, and R's events alone. */
function busiestRun(events: readonly ToolEvent[]): { run: string; alone: ToolEvent[]; positions: number[] } {
  const counts = new Map<string, number>();
  for (const e of events) if (e.type === "call") counts.set(normalizeRunId(e.runId), (counts.get(normalizeRunId(e.runId)) ?? 0) + 1);
  let run = "";
  let best = -1;
  for (const [r, n] of [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (n > best) {
      best = n;
      run = r;
    }
  }
  const positions: number[] = [];
  const alone: ToolEvent[] = [];
  events.forEach((e, i) => {
    if (normalizeRunId(e.runId) === run) {
      positions.push(i);
      alone.push(e);
    }
  });
  return { run, alone, positions };
}

/** Other runs' events never add a warning or a block to run R (anomaly A1 excepted, narrowly). */
export const otherRunsNeverAdd: Law<ConfiguredTrace> = {
  name: "other-runs-never-add-flags",
  spec: ["R1", "K2"],
  needs: ["rollingDetectors"],
  arbitrary: configuredTrace({ enabled: [true] }, { runs: 4 }),
  runs: 200,
  required: ["multi-run", "generic_repeat:warning", "ping_pong:warning", "generic_repeat:critical"],
  check(value, subject, coverage) {
    const config = configFrom(value.block);
    const { run, alone, positions } = busiestRun(value.events);
    if (alone.length < value.events.length) coverage.hit("multi-run");
    const full = verdictsByIndex(runTarget(subject, config, value.events).filter((o) => o.run === run));
    const aloneOutputs = runTarget(subject, config, alone);
    tagOutputs(coverage, aloneOutputs);
    const mine = new Map([...verdictsByIndex(aloneOutputs)].map(([i, v]) => [positions[i] as number, v]));
    for (const [index, v] of full) {
      const a = mine.get(index);
      if (a === undefined) continue; // R was aborted earlier alone
      if (SEVERITY[v.verdict] <= SEVERITY[a.verdict]) continue;
      if (blockStatusDivergesBefore(index, mine, full) !== undefined && knownAnomaly("A1", coverage, "unrecorded-block")) {
        return;
      }
      // Known anomaly A8 (README): ping-pong evidence is judged over the whole alternating tail;
      // when other runs' records evict its older, varied records, what is left can be uniform,
      // and a warning becomes a block. Only a shorter tail of the same pair qualifies.
      if (v.verdict === "critical" && a.verdict === "warning" && v.detector === "ping_pong" && a.detector === "ping_pong" && a.warningKey === v.warningKey && v.count < a.count && knownAnomaly("A8", coverage, "eviction-completes-evidence")) {
        return;
      }
      // Known anomaly A5: eviction lowered the count of an earlier row's warning, which was
      // hiding a block of a later row.
      if (warningMasksBlock(a, v) && knownAnomaly("A5", coverage, "warning-masks-block")) {
        return;
      }
      broken(`call ${index} of run ${JSON.stringify(run)}: ${describeVerdict(v)} with other runs present, ${describeVerdict(a)} alone`);
    }
  },
  scenario: (value) => draft(value, ["R1", "K2"], "Counterexample: another run's events added a flag to run R."),
};

/** With a window that never evicts, R's verdicts equal those of R alone, exactly. */
export const scopedWithoutEviction: Law<ConfiguredTrace> = {
  name: "run-verdicts-equal-alone-without-eviction",
  spec: ["R1", "W1", "K2"],
  needs: ["rollingDetectors", "honours:historySize"],
  arbitrary: configuredTrace({ enabled: [true, undefined] }, { runs: 4 }).map((v) => ({ ...v, block: { ...v.block, historySize: 5000 } })),
  runs: 200,
  required: ["multi-run", "generic_repeat:warning", "generic_repeat:critical", "ping_pong:critical", "known_poll_no_progress:warning"],
  check(value, subject, coverage) {
    const config = configFrom(value.block);
    const { run, alone, positions } = busiestRun(value.events);
    if (alone.length < value.events.length) coverage.hit("multi-run");
    const full = runTarget(subject, config, value.events).filter((o) => o.run === run);
    const aloneOutputs = runTarget(subject, config, alone);
    tagOutputs(coverage, aloneOutputs);
    const left = full.map(outputJsonLine);
    const right = aloneOutputs.map((o) => outputJsonLine({ ...o, index: positions[o.index] as number }));
    const at = left.findIndex((line, i) => line !== right[i]);
    if (at !== -1 || left.length !== right.length) broken(`run ${JSON.stringify(run)} output ${at}: ${left[at] ?? "none"} with other runs, ${right[at] ?? "none"} alone`);
  },
  scenario: (value) => draft(value, ["R1", "K2"], "Counterexample: run R's verdicts depend on other runs even without eviction."),
};
