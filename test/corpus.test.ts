// The seeded regression corpus: every scenario replays byte-for-byte, and the corpus covers every
// behaviour family, every SPEC section, every upstream behaviour K1-K7 and every known anomaly.
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { replayOne } from "../src/commands/replay.js";
import { scenarioFiles } from "../src/scenario/files.js";
import { loadScenario } from "../src/scenario/load.js";
import { FAMILY_NAMES } from "../src/sim/families.js";
import { KNOWN_ANOMALIES } from "../properties/laws/anomalies.js";

const CORPUS = join(import.meta.dirname, "..", "scenarios");
const files = scenarioFiles([CORPUS]);

describe("scenario corpus", () => {
  it.each(files.map((f) => [f.slice(CORPUS.length + 1), f]))("%s replays as expected", (_name, file) => {
    const outcome = replayOne(file, { json: false, update: false });
    expect(outcome.problems ?? []).toEqual([]);
    if (outcome.status !== "pass") throw new Error(`${file} no longer replays as expected:\n${(outcome.diff ?? []).join("\n")}`);
  });

  it("covers every family, SPEC section, upstream behaviour and known anomaly", () => {
    const covers = new Set<string>();
    const families = new Set<string>();
    for (const file of files) {
      const load = loadScenario(file, { requireExpected: true });
      if (!load.ok) throw new Error(load.problems.join("\n"));
      for (const c of load.loaded.scenario.covers) covers.add(c);
      const source = load.loaded.scenario.source;
      if ("simulation" in source) families.add(source.simulation.family);
    }
    expect([...FAMILY_NAMES].filter((f) => !families.has(f))).toEqual([]);
    const sections = ["C", "E", "H", "R", "S", "D", "W", "G"];
    expect(sections.filter((s) => ![...covers].some((c) => new RegExp(`^${s}\\d`).test(c)))).toEqual([]);
    expect(["K1", "K2", "K3", "K4", "K5", "K6", "K7"].filter((k) => !covers.has(k))).toEqual([]);
    expect(Object.keys(KNOWN_ANOMALIES).filter((a) => !covers.has(a))).toEqual([]);
  });
});
