// Every bug-zoo variant is caught: by the scenario corpus (the replay differs from the
// reference's expectation) and by a property, with the law that caught it and the size of its
// shrunk counterexample. Among them the four broken engines of the property-suite issue: a guard
// that ignores enabled:false, a streak that resets on interleaving, run scoping removed, a loop
// veto recorded as progress.
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { replayOne } from "../src/commands/replay.js";
import { scenarioFiles } from "../src/scenario/files.js";
import { ZOO_TARGETS } from "../src/targets/zoo/variants.js";
import { SEMANTIC_LAWS } from "../properties/laws/index.js";
import { runLaw } from "../properties/support.js";

const files = scenarioFiles([join(import.meta.dirname, "..", "scenarios")]);

describe.each(ZOO_TARGETS.map((t) => [t.name, t] as const))("bug zoo: %s", (_name, target) => {
  it("is caught by the corpus and by a property", () => {
    const differing = files.filter((file) => replayOne(file, { json: false, update: false, target }).status === "fail");
    let caughtBy: { law: string; events: number } | undefined;
    for (const law of SEMANTIC_LAWS) {
      const failure = runLaw(law, target, { runs: Math.min(law.runs, 120), capture: false });
      if (failure !== undefined) {
        caughtBy = { law: failure.law, events: failure.events };
        break;
      }
    }
    console.log(`zoo ${target.name}: ${differing.length} corpus scenarios differ; property ${caughtBy === undefined ? "none" : `${caughtBy.law} (shrunk to ${caughtBy.events} events)`}`);
    expect(differing.length).toBeGreaterThan(0);
    expect(caughtBy).toBeDefined();
  });
});
