// Engine = oracle (all of SPEC S1-S4, R1-R3): the incremental engine and the rescanning oracle
// give identical outputs on every trace, compared after every event, so a difference shrinks to
// the shortest trace that shows it.
import { createEngine, engineStep } from "../../models/engine.js";
import { configFrom } from "../../models/configResolution.js";
import { outputJsonLine } from "../../src/format/outputJson.js";
import { broken, type Law } from "./law.js";
import { configuredTrace, draft, tagOutputs, type ConfiguredTrace } from "./common.js";

export const engineEqualsOracle: Law<ConfiguredTrace> = {
  name: "engine-equals-oracle",
  spec: ["R1", "R2", "R3", "S1", "S2", "S3", "S4", "D2"],
  needs: ["stateSize"],
  arbitrary: configuredTrace({ enabled: [true, true, true, undefined, false] }, { cyclic: true, huge: true }),
  runs: 300,
  required: [
    "generic_repeat:warning",
    "generic_repeat:critical",
    "known_poll_no_progress:warning",
    "known_poll_no_progress:critical",
    "ping_pong:warning",
    "ping_pong:critical",
    "unknown_tool_repeat:critical",
    "global_circuit_breaker:critical",
    "abort",
    "ignored",
    "vetoed",
    "suppressed",
  ],
  check(value, target, coverage) {
    const config = configFrom(value.block);
    const engine = target.start(config);
    const oracle = createEngine(config, { history: "scanning" });
    for (const event of value.events) {
      const a = engine.step(event);
      const b = engineStep(oracle, event).outputs;
      tagOutputs(coverage, b);
      const left = a.map(outputJsonLine).join("\n");
      const right = b.map(outputJsonLine).join("\n");
      if (left !== right) broken(`event ${b[0]?.index ?? "?"}: engine said ${left} but the oracle said ${right}`);
      for (let i = 0; i < a.length; i++) {
        const x = a[i];
        const y = b[i];
        if (x?.kind === "outcome" && y?.kind === "outcome" && (x.resultHash !== y.resultHash || x.unknownTool !== y.unknownTool)) {
          broken(`event ${x.index}: outcome hashes differ`);
        }
      }
    }
  },
  scenario: (value) => draft(value, ["R1", "S1", "S2", "S3", "S4"], "Counterexample: the incremental engine and the scanning oracle disagree."),
};
