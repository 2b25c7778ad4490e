// C1 and C5 probes: for every documented config field, a small trace on which the field changes
// what the reference does, ending at the call that decides (nothing after a block, so a block
// that does not stick is not mistaken for an ignored field). A target that honours the field answers like the reference under the
// probe config; one that ignores it answers like the defaults, and the probe is its counterexample.
import type { ToolEvent } from "../../models/events.js";
import { text } from "../sim/behaviour.js";
import type { ConfigField, Need } from "../targets/target.js";

export interface Probe {
  readonly field: ConfigField;
  readonly rules: readonly string[];
  readonly needs: readonly Need[];
  readonly block: Record<string, unknown>;
  readonly events: ToolEvent[];
  readonly what: string;
}

function pairs(n: number, tool: string, params: unknown, result: (i: number) => unknown, runId = "r1"): ToolEvent[] {
  const events: ToolEvent[] = [];
  for (let i = 0; i < n; i++) {
    events.push({ type: "call", runId, callId: `${tool}-${i}`, tool, params });
    events.push({ type: "outcome", runId, callId: `${tool}-${i}`, tool, params, result: result(i) });
  }
  return events;
}

const same = () => text("same output");
const changing = (i: number) => text(`line ${i}`);
const poll = { action: "poll", sessionId: "s1" };
const pollResult = () => text("", { status: "running", aggregated: "still waiting" });

function alternating(n: number): ToolEvent[] {
  const events: ToolEvent[] = [];
  for (let i = 0; i < n; i++) {
    const params = { path: i % 2 === 0 ? "a.txt" : "b.txt" };
    events.push({ type: "call", runId: "r1", callId: `pp-${i}`, tool: "read", params }, { type: "outcome", runId: "r1", callId: `pp-${i}`, tool: "read", params, result: text(`content of ${params.path}`) });
  }
  return events;
}

function unknownTool(n: number): ToolEvent[] {
  const events: ToolEvent[] = [];
  for (let i = 0; i < n; i++) {
    const params = { query: `q${i}` };
    events.push({ type: "call", runId: "r1", callId: `u-${i}`, tool: "browserx", params }, { type: "outcome", runId: "r1", callId: `u-${i}`, tool: "browserx", params, error: "Unknown tool: browserx" });
  }
  return events;
}

export const PROBES: readonly Probe[] = [
  { field: "enabled", rules: ["C5", "C1"], needs: [], block: { enabled: true }, events: pairs(21, "read", { path: "same.txt" }, same), what: "enabled: true switches the rolling detectors on (a 21st identical no-progress call is blocked)" },
  { field: "enabled", rules: ["C5", "K6"], needs: ["guard"], block: {}, events: [{ type: "compaction", runId: "r1" }, ...pairs(3, "read", { path: "huge.log" }, same)], what: "enabled unset keeps the guard on (3 identical outcomes after a compaction abort)" },
  { field: "enabled", rules: ["C5"], needs: ["guard"], block: { enabled: false }, events: [{ type: "compaction", runId: "r1" }, ...pairs(3, "read", { path: "huge.log" }, same)], what: "enabled: false turns the guard off too" },
  { field: "criticalThreshold", rules: ["C3"], needs: ["honours:warningThreshold", "honours:criticalThreshold"], block: { enabled: true, warningThreshold: 6, criticalThreshold: 4 }, events: pairs(8, "read", { path: "same.txt" }, same), what: "criticalThreshold 4 under warningThreshold 6 is repaired to 7: the 8th identical no-progress call is blocked" },
  { field: "historySize", rules: ["C1", "R1", "K7"], needs: [], block: { enabled: true, historySize: 5 }, events: pairs(15, "read", { path: "log" }, changing), what: "historySize 5: a window of 5 never holds 10 repeats, so no warning" },
  { field: "warningThreshold", rules: ["C1", "D2", "K7"], needs: [], block: { enabled: true, warningThreshold: 5 }, events: pairs(8, "read", { path: "log" }, changing), what: "warningThreshold 5: the 6th identical call warns" },
  { field: "criticalThreshold", rules: ["C1", "D2", "K7"], needs: [], block: { enabled: true, warningThreshold: 4, criticalThreshold: 8 }, events: pairs(9, "read", { path: "same.txt" }, same), what: "criticalThreshold 8: the 9th identical no-progress call is blocked" },
  { field: "globalCircuitBreakerThreshold", rules: ["C1", "D2", "K7"], needs: [], block: { enabled: true, warningThreshold: 5, criticalThreshold: 8, globalCircuitBreakerThreshold: 12, detectors: { genericRepeat: false } }, events: pairs(13, "read", { path: "same.txt" }, same), what: "globalCircuitBreakerThreshold 12 with genericRepeat off: the 13th identical call is blocked by the breaker" },
  { field: "unknownToolThreshold", rules: ["C1", "S3", "K7"], needs: [], block: { enabled: true, unknownToolThreshold: 3 }, events: unknownTool(4), what: "unknownToolThreshold 3: the 4th call to a missing tool is blocked" },
  { field: "detectors.genericRepeat", rules: ["C1", "D2", "K7"], needs: [], block: { enabled: true, detectors: { genericRepeat: false } }, events: pairs(25, "read", { path: "same.txt" }, same), what: "genericRepeat off: 25 identical calls are never warned nor blocked by it" },
  { field: "detectors.knownPollNoProgress", rules: ["C1", "D1", "K7"], needs: [], block: { enabled: true, detectors: { knownPollNoProgress: false } }, events: pairs(25, "process", poll, pollResult), what: "knownPollNoProgress off: 25 identical polls are not flagged as a polling loop" },
  { field: "detectors.pingPong", rules: ["C1", "S4", "K7"], needs: [], block: { enabled: true, detectors: { pingPong: false } }, events: alternating(24), what: "pingPong off: an A/B alternation is not flagged as ping-pong" },
  { field: "postCompactionGuard.windowSize", rules: ["C1", "G3", "K7"], needs: ["guard"], block: { postCompactionGuard: { windowSize: 2 } }, events: [{ type: "compaction", runId: "r1" }, ...pairs(2, "read", { path: "huge.log" }, same)], what: "windowSize 2: two identical outcomes after a compaction abort" },
];
