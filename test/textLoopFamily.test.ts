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
  it("the openhands model stops it when 3 responses in a row only talk", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const result = run(seed, target("openhands"));
      const talksThrice = result.events.some((_, i, all) => {
        const runOf = all.slice(i, i + 40).filter((e) => e.type !== "outcome");
        let messages = 0;
        let lastStep: string | undefined;
        for (const e of runOf) {
          if (e.type === "call") return false;
          if (e.type === "message" && e.step !== lastStep) messages++;
          if (e.type === "message") lastStep = e.step;
          if (messages >= 3) return true;
        }
        return false;
      });
      expect(result.summary.caught, `seed ${seed}`).toBe(talksThrice);
    }
  });
  it("is deterministic and left out of the preset populations", () => {
    expect(JSON.stringify(run(7, target("gemini-cli")))).toBe(JSON.stringify(run(7, target("gemini-cli"))));
    for (const preset of Object.values(POPULATION_PRESETS)) expect(preset.members.some((m) => m.family === "text-loop")).toBe(false);
  });
});
