// Loops where the failure repeats while the args change (issue 35, item 6): the simulator family
// changing-args-stuck, the injected shape changing-args, and the fit they draw from. One seed gives
// one trace; every call's args differ from the last; the failure mostly recurs.
import { describe, expect, it } from "vitest";
import { configFrom } from "../models/configResolution.js";
import type { CallEvent, ToolEvent } from "../models/events.js";
import { simulate } from "../src/sim/simulate.js";
import { POPULATION_PRESETS } from "../src/evaluation/population.js";
import { CHANGING_ARGS_PARAMS, parseChangingArgsParams } from "../src/sim/changingArgsParams.js";
import { changingArgsMeasures, wordDistance } from "../src/sim/changingArgsFit.js";
import { DEFAULT_INJECT_SHAPES, DEFAULT_LENGTHS, injectLoop, parseInject } from "../src/grounded/injection.js";
import { findBuiltInTarget } from "../src/targets/registry.js";
import type { Target } from "../src/targets/target.js";

const config = configFrom({ enabled: true });
const run = (seed: number, target?: Target) => simulate({ family: "changing-args-stuck", seed, calls: 80, model: "small" }, config, target);
const calls = (events: readonly ToolEvent[]) => events.filter((e): e is CallEvent => e.type === "call");

describe("the changing-args-stuck family", () => {
  it("is deterministic: the same seed gives the same trace, byte for byte", () => {
    expect(JSON.stringify(run(7))).toBe(JSON.stringify(run(7)));
    expect(JSON.stringify(run(7).events)).not.toBe(JSON.stringify(run(8).events));
  });
  it("changes the args on every loop call and meets the same failure again; a failure-signature rule stops it", () => {
    let stopped = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const r = run(seed);
      const loop = calls(r.events).slice(0, r.summary.loopCalls);
      for (let k = 1; k < loop.length; k++) expect(JSON.stringify(loop[k]?.params), `seed ${seed} call ${k}`).not.toBe(JSON.stringify(loop[k - 1]?.params));
      expect(r.summary.label).toBe("stuck");
      if (run(seed, findBuiltInTarget("candidate:failure-signature:3")).summary.caught) stopped++;
    }
    expect(stopped).toBeGreaterThan(10);
  });
  it("is left out of the preset populations (opt in by name), as is the injected shape from `default`", () => {
    for (const preset of Object.values(POPULATION_PRESETS)) expect(preset.members.some((m) => m.family === "changing-args-stuck")).toBe(false);
    expect(DEFAULT_INJECT_SHAPES).not.toContain("changing-args");
    expect(parseInject("changing-args").shapes).toEqual(["changing-args"]);
  });
});

describe("the changing-args fit", () => {
  it("parses the committed file, and names the JSON path of a bad one", () => {
    expect(CHANGING_ARGS_PARAMS.schema).toBe("loopsim/changing-args-params@1");
    expect(() => parseChangingArgsParams({ schema: "loopsim/changing-args-params@1", derivation: "", command: "", systems: { a: { stretches: 2, lengths: [3, 3, 4, 5, 2], argChange: 0.5, recurrence: 1, textVaries: 0 } } }, "f.json")).toThrow('f.json: $.systems["a"].lengths: must be 5 whole numbers');
    expect(() => parseChangingArgsParams({ schema: "loopsim/changing-args-params@1", derivation: "", command: "", systems: { a: { stretches: 2, lengths: [3, 3, 4, 5, 6], argChange: 1.5, recurrence: 1, textVaries: 0 } } }, "f.json")).toThrow('$.systems["a"].argChange: must be a share');
  });
  it("measures a mined changing-args stretch: length, how much the args vary, how often the failure recurs", () => {
    const attempt = (i: number, command: string, line: number): ToolEvent[] => [
      { type: "call", runId: "r", callId: `c${i}`, tool: "bash", params: { command } },
      { type: "outcome", runId: "r", callId: `c${i}`, tool: "bash", params: { command }, result: { content: [{ type: "text", text: `Traceback\n  line ${line}\nModuleNotFoundError: No module named 'zed'` }], details: { status: "failed", exitCode: 1 } } },
    ];
    const events = [attempt(0, "python a.py", 3), attempt(1, "python b.py --x", 4), attempt(2, "python3 b.py --x", 4)].flat();
    const [m] = changingArgsMeasures(events);
    expect(m).toMatchObject({ length: 3, recurrence: 1, textVaries: 0.5 });
    const args = (command: string) => JSON.stringify({ command });
    expect(m?.argChange).toBeCloseTo((wordDistance(args("python a.py"), args("python b.py --x")) + wordDistance(args("python b.py --x"), args("python3 b.py --x"))) / 2, 3);
  });
});

describe("the injected changing-args shape", () => {
  const session: ToolEvent[] = [
    { type: "call", runId: "r", callId: "a", tool: "bash", params: { command: "ls src" } },
    { type: "outcome", runId: "r", callId: "a", tool: "bash", params: { command: "ls src" }, result: { content: [{ type: "text", text: "app.py" }], details: { status: "completed", exitCode: 0 } } },
    { type: "call", runId: "r", callId: "b", tool: "bash", params: { command: "python app.py --run" } },
    { type: "outcome", runId: "r", callId: "b", tool: "bash", params: { command: "python app.py --run" }, result: { content: [{ type: "text", text: "  File \"app.py\", line 12\nNameError: name 'cfg' is not defined" }], details: { status: "failed", exitCode: 1 } } },
  ];
  it("retries the session's failed call with changing args, labelled stuck, the same for the same seed", () => {
    const a = injectLoop(session, "changing-args", DEFAULT_LENGTHS, 3, "mini-swe-agent-gemini-3-pro/x.traj.json");
    expect(JSON.stringify(a)).toBe(JSON.stringify(injectLoop(session, "changing-args", DEFAULT_LENGTHS, 3, "mini-swe-agent-gemini-3-pro/x.traj.json")));
    const injected = a.events.slice(a.start, a.end);
    expect(injected.every((e) => e.inLoop)).toBe(true);
    const loop = calls(injected.map((e) => e.event));
    expect(loop.length).toBeGreaterThanOrEqual(2);
    for (const c of loop) expect(c.tool).toBe("bash");
    for (let k = 1; k < loop.length; k++) expect(JSON.stringify(loop[k]?.params)).not.toBe(JSON.stringify(loop[k - 1]?.params));
    // An explicit range sets the length instead of the fit.
    expect(injectLoop(session, "changing-args", { min: 7, max: 7 }, 3, "x").length).toBe(7);
    expect(calls(injectLoop(session, "changing-args", { min: 7, max: 7 }, 3, "x").events.map((e) => e.event)).length).toBe(9);
  });
});
