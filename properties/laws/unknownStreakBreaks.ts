// SPEC S3 where a real agent's trace is messy: retries of a missing tool with other events in
// between. The streak counts consecutive recorded misses of one unavailable tool from the newest
// record of the run; a pending record (a call still waiting for its outcome) breaks it, and so
// does any other record of the run; another run's records do not. A late outcome that fills a
// pending record with a miss joins the streak up again. A call is blocked by unknown_tool_repeat
// exactly when that streak has reached unknownToolThreshold. The law keeps its own small list of
// the run's records to know the streak, written from S3, R2 and R3 alone.
import fc from "fast-check";
import { configFrom } from "../../models/configResolution.js";
import type { ToolEvent } from "../../models/events.js";
import { runTarget } from "../../src/targets/target.js";
import { callsOf, describeVerdict } from "./common.js";
import { broken, type Law } from "./law.js";

/** What comes before each retry. */
type Between = "nothing" | "pending-same-tool" | "late-answer" | "other-tool" | "pending-other-run";

interface StreakCase {
  readonly threshold: number;
  readonly steps: readonly Between[];
}

const TOOL = "browserx";
const MISS = `Unknown tool: ${TOOL}`;

function blockOf(threshold: number): Record<string, unknown> {
  return { enabled: true, unknownToolThreshold: threshold, historySize: 500, warningThreshold: 40, criticalThreshold: 50, globalCircuitBreakerThreshold: 60 };
}

/** Retries of a missing tool (args differ each time: S3 ignores them, no other detector counts them) with the steps between. */
export function streakTrace(c: StreakCase): ToolEvent[] {
  const events: ToolEvent[] = [];
  const waiting: string[] = [];
  let id = 0;
  c.steps.forEach((between, i) => {
    if (between === "pending-same-tool") {
      const callId = `w${id++}`;
      waiting.push(callId);
      events.push({ type: "call", runId: "r1", callId, tool: TOOL, params: { q: `waiting ${i}` } });
    } else if (between === "late-answer" && waiting.length > 0) {
      const callId = waiting.shift() as string;
      const call = events.find((e) => e.type === "call" && e.callId === callId) as Extract<ToolEvent, { type: "call" }>;
      events.push({ type: "outcome", runId: "r1", callId, tool: TOOL, params: call.params, error: MISS });
    } else if (between === "other-tool") {
      const callId = `o${id++}`;
      events.push({ type: "call", runId: "r1", callId, tool: "read", params: { path: `f${i}` } });
      events.push({ type: "outcome", runId: "r1", callId, tool: "read", params: { path: `f${i}` }, result: { content: [{ type: "text", text: `file ${i}` }] } });
    } else if (between === "pending-other-run") {
      events.push({ type: "call", runId: "r2", callId: `p${id++}`, tool: TOOL, params: { q: "elsewhere" } });
    }
    const callId = `c${id++}`;
    events.push({ type: "call", runId: "r1", callId, tool: TOOL, params: { q: i } });
    events.push({ type: "outcome", runId: "r1", callId, tool: TOOL, params: { q: i }, error: MISS });
  });
  return events;
}

/** Run r1's records as S3 reads them: each a tool and whether it is a recorded miss or still pending. */
interface Rec {
  readonly callId: string;
  readonly tool: string;
  miss: boolean;
  pending: boolean;
}

const streakOf = (records: readonly Rec[]): number => {
  let n = 0;
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i] as Rec;
    if (r.pending || !r.miss || r.tool !== TOOL) break;
    n++;
  }
  return n;
};

export const unknownStreakBreaksAtAnyOtherRecord: Law<StreakCase> = {
  name: "unknown-streak-stops-at-pending-calls",
  spec: ["S3", "R2", "R3", "R1", "D2"],
  needs: ["rollingDetectors", "honours:unknownToolThreshold"],
  arbitrary: fc.record({
    threshold: fc.integer({ min: 2, max: 8 }),
    steps: fc.array(fc.oneof({ weight: 6, arbitrary: fc.constant<Between>("nothing") }, { weight: 3, arbitrary: fc.constantFrom<Between>("pending-same-tool", "late-answer", "other-tool", "pending-other-run") }), { minLength: 3, maxLength: 30 }),
  }),
  runs: 150,
  required: ["blocked-after-a-break", "allowed-because-of-a-pending-call", "joined-by-a-late-answer"],
  check(c, subject, coverage) {
    const events = streakTrace(c);
    const verdicts = new Map(callsOf(runTarget(subject, configFrom(blockOf(c.threshold)), events)).map((v) => [v.index, v]));
    const records: Rec[] = [];
    let broke = false;
    events.forEach((e, index) => {
      if ((e.type !== "call" && e.type !== "outcome") || e.runId !== "r1") return;
      if (e.type === "outcome") {
        // R3: the outcome fills its call's record; a blocked call has none (its outcome is the veto).
        const r = records.find((x) => x.callId === e.callId && x.pending);
        if (r === undefined) return;
        r.pending = false;
        r.miss = "error" in e && e.error !== undefined;
        if (e.callId?.startsWith("w") === true && streakOf(records) > 1) coverage.hit("joined-by-a-late-answer");
        return;
      }
      const streak = e.tool === TOOL ? streakOf(records) : 0;
      const v = verdicts.get(index);
      const blocked = v?.verdict === "critical" && v.detector === "unknown_tool_repeat";
      if (e.tool === TOOL) {
        const should = streak >= c.threshold;
        if (blocked !== should) broken(`call ${index}: ${describeVerdict(v)}, but its unknown-tool streak is ${streak} (threshold ${c.threshold})`);
        if (blocked && broke) coverage.hit("blocked-after-a-break");
        if (!blocked && records.some((r) => r.pending && r.tool === TOOL) && streakOf(records.filter((r) => !r.pending)) >= c.threshold) coverage.hit("allowed-because-of-a-pending-call");
      }
      // R2: a blocked call is not recorded.
      if (v?.verdict === "critical") return;
      if (e.callId?.startsWith("w") === true || e.tool !== TOOL) broke = true;
      records.push({ callId: e.callId ?? "", tool: e.tool, miss: false, pending: true });
    });
  },
  scenario: (c) => ({
    description: "Counterexample: an unknown-tool retry was blocked (or not) against the streak S3 defines; a pending call or another record breaks it.",
    covers: ["S3"],
    config: { tools: { loopDetection: blockOf(c.threshold) } },
    events: streakTrace(c),
  }),
};
