// The text-loop family (issue 29): an agent that repeats model text is stopped by the gemini-cli
// model (its content-loop rule) and by the openhands model when it talks 3 times without acting;
// a guard that cannot see text (OpenClaw's) never stops it; seeded runs are byte-identical.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { configFrom } from "../models/configResolution.js";
import { simulate } from "../src/sim/simulate.js";
import { findBuiltInTarget } from "../src/targets/registry.js";
import { REFERENCE_TARGET } from "../src/targets/reference.js";
import { POPULATION_PRESETS } from "../src/evaluation/population.js";
import type { Target } from "../src/targets/target.js";

const SEED = Number(process.env.LOOPSIM_SEED ?? 20261203);
const config = configFrom({ enabled: true });
const target = (name: string): Target => {
  const t = findBuiltInTarget(name);
  if (t === undefined) throw new Error(`no target ${name}`);
  return t;
};
const run = (seed: number, t: Target, model: "small" | "flagship" = "small") => simulate({ family: "text-loop", seed, calls: 80, model }, config, t);

describe("text-loop family", () => {
  it("the gemini-cli model stops every text-loop agent; a guard blind to text never does", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.constantFrom("small" as const, "flagship" as const), (seed, model) => {
        const gemini = run(seed, target("gemini-cli"), model).summary;
        expect(gemini.caught, `seed ${seed} model ${model}: replay with loopsim simulate --family text-loop --seed ${seed} --target gemini-cli`).toBe(true);
        const blind = run(seed, REFERENCE_TARGET, model).summary;
        expect(blind.caught).toBe(false);
        expect(blind.blocks + blind.aborts + blind.warnings).toBe(0);
      }),
      { seed: SEED, numRuns: 25 },
    );
  });
  it("the openhands model stops it when a response follows 3 that only talk", () => {
    for (let seed = 1; seed <= 20; seed++) {
      // Replayed under a guard that never stops, the agent's responses in order: does one begin after 3 without a call?
      const responses = new Map<string, boolean>();
      for (const e of run(seed, target("none")).events) if ((e.type === "message" || e.type === "call") && e.step !== undefined) responses.set(e.step, (responses.get(e.step) ?? false) || e.type === "call");
      let talking = 0;
      let expected = false;
      for (const called of responses.values()) {
        if (talking >= 3) expected = true;
        talking = called ? 0 : talking + 1;
      }
      expect(run(seed, target("openhands")).summary.caught, `seed ${seed}`).toBe(expected);
    }
  });
  it("is deterministic and left out of the preset populations", () => {
    expect(JSON.stringify(run(7, target("gemini-cli")))).toBe(JSON.stringify(run(7, target("gemini-cli"))));
    for (const preset of Object.values(POPULATION_PRESETS)) expect(preset.members.some((m) => m.family === "text-loop")).toBe(false);
  });
});

describe("compare on a text loop", () => {
  it("says n/a with the reason for a guard blind to text, a number for one that reads it", async () => {
    const { familyNa, TEXT_BLIND_REASON } = await import("../src/compare/report.js");
    const { familyHeatmap } = await import("../src/reportParts/familyHeatmap.js");
    expect(familyNa({ blindToText: true }, "text-loop")).toBe(TEXT_BLIND_REASON);
    expect(familyNa({ blindToText: true }, "inject:text-loop")).toBe("cannot see model text");
    expect(familyNa({ blindToText: true }, "poller-stuck")).toBeUndefined();
    expect(familyNa({}, "text-loop")).toBeUndefined();
    const numbers = { agents: 1, caughtShare: 1, wronglyBlockedShare: 0 } as unknown as import("../src/evaluation/metrics.js").FamilyNumbers;
    const svg = familyHeatmap([{ name: "openclaw", byFamily: { "text-loop": numbers }, na: (f) => familyNa({ blindToText: true }, f) }, { name: "gemini-cli", byFamily: { "text-loop": numbers } }], "t");
    expect(svg).toContain("text-loop under openclaw: n/a, cannot see model text");
    expect(svg).toContain("text-loop under gemini-cli: 100% stopped");
  });
});
