// Determinism (issue: the product): the simulator with the same seed gives the identical event
// stream and verdicts; different seeds give different streams. Checked for every family and
// both model presets, with seeds drawn by fast-check.
import fc from "fast-check";
import { expect, it } from "vitest";
import { configFrom } from "../models/configResolution.js";
import { FAMILY_NAMES } from "../src/sim/families.js";
import { MODEL_PRESETS } from "../src/sim/agentModel.js";
import { simulate } from "../src/sim/simulate.js";
import { timelineText } from "../src/scenario/facts.js";
import { eventsJsonl } from "../src/commands/simulate.js";
import { Coverage } from "./laws/coverage.js";
import { DEEP, SEED } from "./support.js";

it("simulator-is-deterministic", () => {
  const coverage = new Coverage("simulator-is-deterministic", FAMILY_NAMES.map((f) => `family:${f}`));
  const details = fc.check(
    fc.property(fc.constantFrom(...FAMILY_NAMES), fc.constantFrom(...MODEL_PRESETS), fc.nat({ max: 1_000_000 }), fc.constantFrom(true, undefined), (family, model, seed, enabled) => {
      coverage.hit(`family:${family}`);
      const config = configFrom({ enabled });
      const spec = { family, seed, calls: 60, model };
      const a = simulate(spec, config);
      const b = simulate(spec, config);
      expect(eventsJsonl(b.events)).toBe(eventsJsonl(a.events));
      expect(timelineText(b.outputs)).toBe(timelineText(a.outputs));
      expect(b.summary).toEqual(a.summary);
      const other = simulate({ ...spec, seed: seed + 1 }, config);
      expect(eventsJsonl(other.events)).not.toBe(eventsJsonl(a.events));
    }),
    // Runs grow with the families, so every family is drawn (a new family must not starve another).
    { seed: SEED, numRuns: Math.max(60, 5 * FAMILY_NAMES.length) * DEEP, ...(process.env.FC_PATH !== undefined ? { path: process.env.FC_PATH } : {}) },
  );
  if (details.failed) {
    const [family, model, seed] = details.counterexample ?? [];
    throw new Error(
      [
        `property simulator-is-deterministic failed for family ${String(family)}, model ${String(model)}, seed ${String(seed)}: ${details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)}`,
        `  seed ${details.seed}, path ${details.counterexamplePath ?? ""}`,
        `  see it: node bin/loopsim.js simulate --family ${String(family)} --model ${String(model)} --seed ${String(seed)} --calls 60 --json`,
        `  replay the property: FC_SEED=${details.seed} FC_PATH=${details.counterexamplePath ?? ""} npx vitest run properties/determinism.test.ts`,
      ].join("\n"),
    );
  }
  if (process.env.FC_PATH === undefined) coverage.assertReached();
});
