// SPEC G2 and E4 where they meet: after a compaction the agent keeps calling what is already
// blocked, so loop vetoes arrive inside the guard's window. The guard observes recorded outcomes
// only; a veto is not one. So taking a blocked call (and its veto) out of the window changes no
// other output: not a verdict, not an abort, not which later events are ignored.
import fc from "fast-check";
import { configFrom } from "../../models/configResolution.js";
import type { ToolEvent } from "../../models/events.js";
import { runTarget, type TargetOutput } from "../../src/targets/target.js";
import { callsOf, tagOutputs } from "./common.js";
import { broken, type Law } from "./law.js";

interface WindowCase {
  readonly windowSize: number;
  readonly critical: number;
  /** After the compaction: a retry of the blocked loop (X) or a call that keeps its result (Y). */
  readonly after: readonly ("X" | "Y")[];
}

const X = { tool: "read", params: { path: "/w/stuck.txt" } };
const Y = { tool: "exec", params: { command: "make test" } };

function blockOf(c: WindowCase): Record<string, unknown> {
  return { enabled: true, historySize: 200, warningThreshold: 2, criticalThreshold: c.critical, globalCircuitBreakerThreshold: 60, unknownToolThreshold: 10, postCompactionGuard: { windowSize: c.windowSize } };
}

/** A loop blocked before the compaction, then retries of it among calls of another loop. */
export function windowTrace(c: WindowCase): ToolEvent[] {
  const events: ToolEvent[] = [];
  let id = 0;
  const pair = (call: { tool: string; params: Record<string, unknown> }, text: string) => {
    const callId = `c${id++}`;
    events.push({ type: "call", runId: "r1", callId, ...call });
    events.push({ type: "outcome", runId: "r1", callId, ...call, result: { content: [{ type: "text", text }] } });
  };
  for (let i = 0; i < c.critical; i++) pair(X, "same");
  events.push({ type: "compaction", runId: "r1" });
  for (const step of c.after) pair(step === "X" ? X : Y, step === "X" ? "same" : "FAIL: 3 tests");
  return events;
}

/** The trace without the call at `at` and its outcome (the next event, by construction). */
const without = (events: readonly ToolEvent[], at: number): ToolEvent[] => events.filter((_, i) => i !== at && i !== at + 1);

const shape = (o: TargetOutput, shift: number): string => JSON.stringify({ ...o, index: o.index - shift });

export const vetoesNeverFillTheGuardWindow: Law<WindowCase> = {
  name: "vetoes-never-fill-the-guard-window",
  spec: ["G2", "E4", "G3"],
  needs: ["rollingDetectors", "guard", "honours:criticalThreshold", "honours:postCompactionGuard.windowSize"],
  arbitrary: fc.record({
    windowSize: fc.integer({ min: 2, max: 5 }),
    critical: fc.integer({ min: 3, max: 6 }),
    after: fc.array(fc.constantFrom<"X" | "Y">("X", "Y"), { minLength: 2, maxLength: 14 }),
  }),
  runs: 150,
  required: ["veto-in-window", "abort"],
  check(c, subject, coverage) {
    const config = configFrom(blockOf(c));
    const events = windowTrace(c);
    const outputs = runTarget(subject, config, events);
    tagOutputs(coverage, outputs);
    const compaction = events.findIndex((e) => e.type === "compaction");
    for (const b of callsOf(outputs)) {
      if (b.index < compaction || b.verdict !== "critical") continue;
      coverage.hit("veto-in-window");
      const later = outputs.filter((o) => o.index > b.index + 1).map((o) => shape(o, 2));
      const again = runTarget(subject, config, without(events, b.index)).filter((o) => o.index >= b.index).map((o) => shape(o, 0));
      const at = later.findIndex((line, i) => line !== again[i]);
      if (at !== -1 || later.length !== again.length) broken(`taking out the call blocked at event ${b.index} (and its veto) changed a later output: ${later[at] ?? "nothing"} became ${again[at] ?? "nothing"}`);
    }
  },
  scenario: (c) => ({ description: "Counterexample: a loop veto inside the post-compaction window changed what the guard did.", covers: ["G2", "E4"], config: { tools: { loopDetection: blockOf(c) } }, events: windowTrace(c) }),
};
