// SPEC G1-G5: the post-compaction guard aborts exactly when a compaction of the run is followed
// by windowSize identical (tool, argsHash, result) observations: never without a compaction,
// never when a result changes inside the window, never past the window, always with
// count = windowSize.
import { configFrom } from "../../models/configResolution.js";
import { runTarget } from "../../src/targets/target.js";
import type { EngineOutput, OutcomeNote } from "../../models/engineOutput.js";
import { broken, type Law } from "./law.js";
import { configuredTrace, draft, tagOutputs, type ConfiguredTrace } from "./common.js";

function triple(o: OutcomeNote): string {
  return `${o.tool}|${o.argsHash}|${o.resultHash ?? ""}`;
}

export const guardExact: Law<ConfiguredTrace> = {
  name: "guard-aborts-exactly-on-identical-window",
  spec: ["G1", "G2", "G3", "G4", "G5", "E5"],
  needs: ["guard"],
  arbitrary: configuredTrace({ enabled: [true, undefined, undefined, false] }, { runs: 3 }),
  runs: 250,
  required: ["abort", "armed-no-abort", "compaction-then-change"],
  check(value, subject, coverage) {
    const config = configFrom(value.block);
    const windowSize = config.postCompactionGuard.windowSize;
    const outputs = runTarget(subject, config, value.events);
    tagOutputs(coverage, outputs);
    // Per run: observations since its latest armed compaction (undefined: not armed).
    const windows = new Map<string, OutcomeNote[] | undefined>();
    const aborted = new Set<string>();
    const expectAbortAt = new Map<string, number>();
    for (const o of outputs) {
      if (o.kind === "compaction") {
        if (o.armed) windows.set(o.run, []);
        continue;
      }
      if (o.kind === "outcome" && o.recorded) {
        const window = windows.get(o.run);
        if (window === undefined) continue;
        window.push(o);
        if (window.length === windowSize) {
          windows.set(o.run, undefined);
          if (window.every((w) => triple(w) === triple(o))) expectAbortAt.set(o.run, o.index);
          else coverage.hit("compaction-then-change");
        }
        continue;
      }
      if (o.kind === "abort") check(o, outputs);
    }
    function check(abort: EngineOutput<string, string> & { kind: "abort" }, all: readonly EngineOutput<string, string>[]): void {
      if (aborted.has(abort.run)) broken(`run ${abort.run} aborted twice`);
      aborted.add(abort.run);
      const expected = expectAbortAt.get(abort.run);
      if (expected === undefined) {
        const hadCompaction = all.some((o) => o.kind === "compaction" && o.run === abort.run && o.index < abort.index);
        broken(
          hadCompaction
            ? `run ${JSON.stringify(abort.run)} aborted at ${abort.index}, but the ${windowSize} observations after its latest compaction were not all identical`
            : `run ${JSON.stringify(abort.run)} aborted at ${abort.index} without any compaction`,
        );
      }
      if (expected !== abort.index) broken(`abort at ${abort.index}, expected at ${expected}`);
      if (abort.count !== windowSize) broken(`abort count ${abort.count} is not windowSize ${windowSize}`);
      expectAbortAt.delete(abort.run);
    }
    for (const [run, index] of expectAbortAt) broken(`run ${JSON.stringify(run)}: ${windowSize} identical observations after a compaction ended at ${index}, but no abort`);
    if (outputs.some((o) => o.kind === "compaction" && o.armed) && !outputs.some((o) => o.kind === "abort")) coverage.hit("armed-no-abort");
  },
  scenario: (value) => draft(value, ["G1", "G3", "G5"], "Counterexample to the post-compaction guard's exactness."),
};
