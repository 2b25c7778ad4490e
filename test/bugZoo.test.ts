// Every bug-zoo variant is caught: by the scenario corpus (the replay differs from the
// reference's expectation) or by a property, with the law that caught it and the size of its
// shrunk counterexample. Among them the four broken engines of the property-suite issue: a guard
// that ignores enabled:false, a streak that resets on interleaving, run scoping removed, a loop
// veto recorded as progress.
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { BUG_VARIANTS } from "../models/bugZoo.js";
import { replayOne, scenarioFiles } from "../src/commands/replay.js";
import { SEMANTIC_LAWS } from "../properties/laws/index.js";
import { subject } from "../properties/laws/law.js";
import { runLaw } from "../properties/support.js";

const files = scenarioFiles([join(import.meta.dirname, "..", "scenarios")]);

describe.each(BUG_VARIANTS.map((v) => [v.name, v] as const))("bug zoo: %s", (_name, variant) => {
  it("is caught by the corpus and by a property", () => {
    const differing = files.filter((file) => replayOne(file, { json: false, update: false, variant }).status === "fail");
    const engine = subject(variant.name, variant.hooks);
    let caughtBy: { law: string; events: number } | undefined;
    for (const law of SEMANTIC_LAWS) {
      const failure = runLaw(law, engine, { runs: Math.min(law.runs, 120), capture: false });
      if (failure !== undefined) {
        caughtBy = { law: failure.law, events: failure.events };
        break;
      }
    }
    console.log(`zoo ${variant.name}: ${differing.length} corpus scenarios differ; property ${caughtBy === undefined ? "none" : `${caughtBy.law} (shrunk to ${caughtBy.events} events)`}`);
    expect(differing.length).toBeGreaterThan(0);
    expect(caughtBy).toBeDefined();
  });
});
