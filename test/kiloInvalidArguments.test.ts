// Kilo's second guard, read from its 7.7.9 binary (malformedToolGuard): per user turn, 3 failed
// calls in a row whose args failed the tool's schema abort the turn; any other outcome clears the
// count. A trace says so with an error object {"kind": "invalid-arguments"} or Kilo's own text.
import { describe, expect, it } from "vitest";
import { configFrom } from "../models/configResolution.js";
import type { ToolEvent } from "../models/events.js";
import { runProbeOnTarget } from "../src/agreement/eventProbe.js";
import { PROBES } from "../src/agreement/probeSet.js";
import { findBuiltInTarget } from "../src/targets/registry.js";
import { opencodeToolCall } from "../src/targets/runtimes/opencodeCli.js";
import { runTarget, type Target } from "../src/targets/target.js";

const kilo = findBuiltInTarget("kilo") as Target;
const INVALID = { kind: "invalid-arguments", message: "filePath: is missing and is required" };
const KILO_TEXT = "The read tool was called with invalid arguments: filePath: is missing and is required.\nPlease rewrite the input so it satisfies the expected schema.";

/** One call and its outcome per entry: an error value, or a result when undefined. */
function judge(errors: readonly unknown[], runOf: (i: number) => string = () => "turn"): string[] {
  const events: ToolEvent[] = errors.flatMap((error, i): ToolEvent[] => [
    { type: "call", runId: runOf(i), callId: `c${i}`, tool: "read", params: {} },
    error === undefined ? { type: "outcome", runId: runOf(i), callId: `c${i}`, tool: "read", params: {}, result: "ok" } : { type: "outcome", runId: runOf(i), callId: `c${i}`, tool: "read", params: {}, error },
  ]);
  return runTarget(kilo, configFrom({}), events).flatMap((o) => (o.kind === "abort" ? [`${o.index} ${o.error} ${o.count}`] : []));
}

describe("kilo's invalid-arguments guard", () => {
  it("aborts the turn after the 3rd invalid-argument failure in a row (the call ran and failed)", () => {
    expect(judge([INVALID, INVALID, INVALID, INVALID])).toEqual(["5 kilo:invalid-arguments 3"]);
    expect(judge([KILO_TEXT, INVALID, KILO_TEXT])).toEqual(["5 kilo:invalid-arguments 3"]);
  });
  it("any other failure, and a completed call, clear the count", () => {
    expect(judge([INVALID, INVALID, "ENOENT: no such file", INVALID, INVALID])).toEqual([]);
    expect(judge([INVALID, INVALID, undefined, INVALID, INVALID])).toEqual([]);
  });
  it("counts per user turn: another run starts at 0", () => {
    expect(judge([INVALID, INVALID, INVALID, INVALID], (i) => (i < 2 ? "t1" : "t2"))).toEqual([]);
  });
  it("judges the two probes the real CLI stopped on: the 3rd failing read ends the prompt", () => {
    for (const [id, stoppedAtStep] of [["args-missing-null-empty-6", 2], ["args-missing-null-empty-parallel-3", 0]] as const) {
      const probe = PROBES.find((p) => p.id === id);
      const [obs] = runProbeOnTarget(kilo, { toolCall: opencodeToolCall }, probe?.script ?? { files: {}, prompts: [] });
      expect(obs?.stoppedAtStep, id).toBe(stoppedAtStep);
      expect(obs?.stopMessage, id).toContain('Stopped after 3 consecutive invalid-argument failures for the "read" tool');
    }
  });
});
