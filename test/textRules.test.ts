// The modelled text rules (issue 29): Roo's reasoning repetition and OpenHands' monologue at
// their source's thresholds, and every probe pinned from source agreeing with its model.
import { describe, expect, it } from "vitest";
import { checkSourcePins, SOURCE_PINS } from "../src/agreement/pinnedFromSource.js";
import { REASONING_LINE } from "../src/agreement/probeSet.js";
import { OPENHANDS_TARGET } from "../src/targets/peers/openhands.js";
import { MONOLOGUE_IDLE, monologueCall, monologueText, OPENHANDS_MONOLOGUE, type MonologueState } from "../src/targets/peers/openhandsMonologue.js";
import { ROO_CODE_TARGET } from "../src/targets/peers/rooCode.js";
import { QWEN_CODE_TARGET, QWEN_HEURISTICS_TARGET } from "../src/targets/peers/qwenCode.js";
import { REASONING_IDLE, reasoningChunk, reasoningEnd, ROO_REASONING_MIN_LINE, ROO_REASONING_REPEATS, type ReasoningState } from "../src/targets/peers/rooReasoning.js";
import { qwenToolCall } from "../src/targets/runtimes/qwenCli.js";

function feed(lines: readonly string[]): number | undefined {
  let state: ReasoningState = REASONING_IDLE;
  for (const [i, line] of lines.entries()) {
    const step = reasoningChunk(state, line);
    state = step.state;
    if (step.loop !== undefined) return i + 1;
  }
  return reasoningEnd(state).loop === undefined ? undefined : lines.length;
}

describe("Roo's reasoning repetition (source: threshold 5, lines of 20+ characters)", () => {
  it("fires at the 5th sighting of one line, not the 4th", () => {
    expect(ROO_REASONING_REPEATS).toBe(5);
    expect(feed(Array.from({ length: 4 }, () => REASONING_LINE))).toBeUndefined();
    expect(feed(Array.from({ length: 9 }, () => REASONING_LINE))).toBe(5);
  });
  it("counts sightings interleaved with other lines, normalised (case, spaces)", () => {
    const lines = ["I'll mention that I verified with tests.\n", "Something else entirely, long enough.\n", "  i'll MENTION that   I verified with tests.\n", "I'll mention that I verified with tests.\n", "Another different line of reasoning.\n", "I'll mention that I verified with tests.\n", "I'll mention that I verified with tests.\n"];
    expect(feed(lines)).toBe(7);
  });
  it("passes lines shorter than 20 characters over", () => {
    const short = `${"x".repeat(ROO_REASONING_MIN_LINE - 1)}\n`;
    expect(feed(Array.from({ length: 12 }, () => short))).toBeUndefined();
    expect(feed(Array.from({ length: 5 }, () => `${"x".repeat(ROO_REASONING_MIN_LINE)}\n`))).toBe(5);
  });
  it("holds an unfinished line until the stream ends", () => {
    const pieces = ["I'll mention that I verified ", "with tests.\nI'll mention that I verified with tests.\n".repeat(2), "I'll mention that I verified with tests.\nI'll mention that I verified with tests."];
    expect(feed(pieces)).toBe(3);
  });
});

describe("OpenHands' monologue (source: threshold 3 agent messages, no action between)", () => {
  type Piece = { type: "message" | "thought"; chunk: boolean; step?: string } | { call: string | undefined };
  const run = (pieces: readonly Piece[]): number | undefined => {
    let state: MonologueState = MONOLOGUE_IDLE;
    for (const [i, p] of pieces.entries()) {
      const r = "call" in p ? monologueCall(state, p.call) : monologueText(state, p);
      state = r.state;
      if (r.stuck) return i + 1;
    }
    return undefined;
  };
  const says = (step: string, chunks = 1): Piece[] => Array.from({ length: chunks }, () => ({ type: "message" as const, chunk: true, step }));
  it("is stuck as the response after the 3rd message begins, not after 2", () => {
    expect(OPENHANDS_MONOLOGUE).toBe(3);
    expect(run([...says("s1"), ...says("s2"), { call: "s3" }])).toBeUndefined();
    expect(run([...says("s1"), ...says("s2"), ...says("s3"), { call: "s4" }])).toBe(4);
    expect(run([{ type: "message", chunk: false }, { type: "message", chunk: false }, { type: "message", chunk: false }, { type: "message", chunk: false }])).toBe(4);
  });
  it("counts a response's chunks as one message, text beside a call as none, and thoughts as none", () => {
    expect(run([...says("s1", 5), { type: "thought", chunk: true, step: "s2" }, ...says("s2", 5), ...says("s3", 5), { call: "s3" }, ...says("s4")])).toBeUndefined();
    expect(run([...says("s1", 5), ...says("s2", 5), ...says("s3", 5), ...says("s4")])).toBe(16);
  });
});

describe("probes pinned from source (model-only)", () => {
  it.each([ROO_CODE_TARGET, OPENHANDS_TARGET, QWEN_HEURISTICS_TARGET])("$name stops where its source says on each pinned probe", (target) => {
    const checks = checkSourcePins(target, { toolCall: qwenToolCall });
    expect(checks.length).toBe(SOURCE_PINS.filter((p) => p.model === target.name).length);
    for (const check of checks) expect({ probe: check.pin.probe, stoppedAtStep: check.observed[0]?.stoppedAtStep }).toEqual({ probe: check.pin.probe, stoppedAtStep: check.pin.stoppedAtStep });
  });
  it("the models with a text rule say they read text", () => {
    expect(ROO_CODE_TARGET.capabilities.readsText).toBe(true);
    expect(OPENHANDS_TARGET.capabilities.readsText).toBe(true);
    expect(QWEN_HEURISTICS_TARGET.capabilities.readsText).toBe(true);
    // Qwen as shipped runs without its heuristic tier, where the thoughts rule lives.
    expect(QWEN_CODE_TARGET.capabilities.readsText).toBe(false);
  });
});
