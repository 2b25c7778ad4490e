// SPEC R1 and R3 where runtimes actually differ: call ids are numbered per run (call_0, call_1,
// ...), so two runs reuse the same ids. An outcome fills a pending call of its own run only, and
// a blocked call's veto is matched in its own run only: each run's outputs, with another run
// reusing its ids interleaved, equal its outputs alone (with a window that never evicts).
import fc from "fast-check";
import { configFrom } from "../../models/configResolution.js";
import type { ToolEvent } from "../../models/events.js";
import { outputJsonLine } from "../../src/format/outputJson.js";
import { configBlockArbitrary, type LoopDetectionBlock } from "../../src/arbitraries/configArbitrary.js";
import { traceArbitrary } from "../../src/arbitraries/traceArbitrary.js";
import { runTarget } from "../../src/targets/target.js";
import { tagOutputs } from "./common.js";
import type { Coverage } from "./coverage.js";
import { broken, type Law } from "./law.js";

interface ReusedIdsCase {
  readonly block: LoopDetectionBlock;
  /** One run's trace; the other run replays its calls, ids included, with results that move. */
  readonly base: ToolEvent[];
  /** How many of the first run's events go before the second run starts. */
  readonly lead: number;
}

const inRun = (events: readonly ToolEvent[], runId: string): ToolEvent[] => events.map((e) => ({ ...e, runId }));

/** The second run: the same calls and ids; every result different, so it makes progress. */
function movingCopy(base: readonly ToolEvent[]): ToolEvent[] {
  return inRun(base, "r2").map((e, i) => (e.type === "outcome" && !("error" in e && e.error !== undefined) ? { ...e, result: { content: [{ type: "text", text: `r2 result ${i}` }] } } : e));
}

/** The two runs' events interleaved one by one after `lead` events of the first, with each event's run-local position. */
export function interleaveRuns(base: readonly ToolEvent[], lead: number): { events: ToolEvent[]; r1: number[]; r2: number[] } {
  const a = inRun(base, "r1");
  const b = movingCopy(base);
  const events: ToolEvent[] = [];
  const r1: number[] = [];
  const r2: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && (i < lead || j >= b.length || (i - lead) <= j)) {
      r1.push(events.length);
      events.push(a[i++] as ToolEvent);
    } else {
      r2.push(events.length);
      events.push(b[j++] as ToolEvent);
    }
  }
  return { events, r1, r2 };
}

/** Whether some outcome arrived while the other run had a pending call with its callId. */
function reusedWhilePending(events: readonly ToolEvent[]): boolean {
  const pending = new Map<string, Set<string>>(); // run -> callIds waiting
  for (const e of events) {
    if ((e.type !== "call" && e.type !== "outcome") || e.callId === undefined) continue;
    const run = e.runId ?? "";
    const mine = pending.get(run) ?? new Set<string>();
    pending.set(run, mine);
    if (e.type === "call") mine.add(e.callId);
    else {
      const other = pending.get(run === "r1" ? "r2" : "r1");
      if (other?.has(e.callId) === true) return true;
      mine.delete(e.callId);
    }
  }
  return false;
}

function judgeRun(name: string, events: readonly ToolEvent[], positions: readonly number[], alone: readonly ToolEvent[], value: ReusedIdsCase, subject: Parameters<Law<ReusedIdsCase>["check"]>[1], coverage: Coverage): void {
  const config = configFrom(value.block);
  const together = runTarget(subject, config, events).filter((o) => o.run === name);
  const apart = runTarget(subject, config, alone);
  tagOutputs(coverage, apart);
  const left = together.map(outputJsonLine);
  const right = apart.map((o) => outputJsonLine({ ...o, index: positions[o.index] as number }));
  const at = left.findIndex((line, k) => line !== right[k]);
  if (at !== -1 || left.length !== right.length) broken(`run ${name}, output ${at}: ${left[at] ?? "none"} with the other run reusing its call ids, ${right[at] ?? "none"} alone`);
}

export const reusedCallIdsStayInTheirRun: Law<ReusedIdsCase> = {
  name: "reused-call-ids-stay-in-their-run",
  spec: ["R1", "R3", "E4"],
  needs: ["rollingDetectors", "honours:historySize"],
  arbitrary: fc.record({
    block: configBlockArbitrary({ enabled: [true] }).map((b) => ({ ...b, historySize: 5000 })),
    base: traceArbitrary({ runs: 1, maxSegments: 6, orphans: false }),
    lead: fc.integer({ min: 0, max: 3 }),
  }),
  runs: 120,
  required: ["reused-while-pending", "generic_repeat:critical", "vetoed"],
  check(value, subject, coverage) {
    const { events, r1, r2 } = interleaveRuns(value.base, value.lead);
    if (reusedWhilePending(events)) coverage.hit("reused-while-pending");
    judgeRun("r1", events, r1, inRun(value.base, "r1"), value, subject, coverage);
    judgeRun("r2", events, r2, movingCopy(value.base), value, subject, coverage);
  },
  scenario: (value) => ({
    description: "Counterexample: a run's outputs changed when another run, interleaved, reused its call ids.",
    covers: ["R1", "R3"],
    config: { tools: { loopDetection: value.block } },
    events: interleaveRuns(value.base, value.lead).events,
  }),
};
