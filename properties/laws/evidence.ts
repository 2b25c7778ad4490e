// No block without evidence (SPEC D2, S1, S3, S4): every block is backed by the records in the
// window, rebuilt here from the engine's own outputs and the input, independently of both
// history implementations.
import { configFrom } from "../../models/configResolution.js";
import { runTarget } from "../../src/targets/target.js";
import type { FlaggedCall } from "../../models/engineOutput.js";
import type { ToolEvent } from "../../models/events.js";
import { knownAnomaly } from "./anomalies.js";
import { broken, type Law } from "./law.js";
import { configuredTrace, draft, tagOutputs, type ConfiguredTrace } from "./common.js";

interface WindowRecord {
  readonly run: string;
  readonly tool: string;
  readonly argsHash: string;
  readonly callId: string | undefined;
  resultHash: string | undefined;
  unknownTool: string | undefined;
}

export const noBlockWithoutEvidence: Law<ConfiguredTrace> = {
  name: "no-block-without-evidence",
  spec: ["D2", "S1", "S3", "S4", "R1", "R3"],
  needs: ["rollingDetectors"],
  arbitrary: configuredTrace({ enabled: [true] }),
  runs: 250,
  required: ["generic_repeat:critical", "known_poll_no_progress:critical", "ping_pong:critical", "unknown_tool_repeat:critical", "global_circuit_breaker:critical"],
  check(value, subject, coverage) {
    const config = configFrom(value.block);
    const outputs = runTarget(subject, config, value.events);
    tagOutputs(coverage, outputs);
    let window: WindowRecord[] = [];
    const append = (r: WindowRecord) => {
      window.push(r);
      if (window.length > config.historySize) window = window.slice(window.length - config.historySize);
    };
    const callIdOf = (index: number): string | undefined => {
      const e = value.events[index] as ToolEvent | undefined;
      return e !== undefined && (e.type === "call" || e.type === "outcome") ? e.callId : undefined;
    };
    for (const o of outputs) {
      if (o.kind === "call") {
        if (o.verdict === "critical") checkBlock(o, window.filter((r) => r.run === o.run).reverse());
        else append({ run: o.run, tool: o.tool, argsHash: o.argsHash, callId: callIdOf(o.index), resultHash: undefined, unknownTool: undefined });
      } else if (o.kind === "outcome" && o.recorded) {
        const callId = callIdOf(o.index);
        const pending = [...window].reverse().find((r) => r.resultHash === undefined && r.run === o.run && r.argsHash === o.argsHash && (callId === undefined || r.callId === callId));
        if (pending !== undefined) {
          pending.resultHash = o.resultHash;
          pending.unknownTool = o.unknownTool;
        } else append({ run: o.run, tool: o.tool, argsHash: o.argsHash, callId, resultHash: o.resultHash, unknownTool: o.unknownTool });
      }
    }

    function checkBlock(v: FlaggedCall<string>, newestFirst: WindowRecord[]): void {
      switch (v.detector) {
        case "generic_repeat":
        case "known_poll_no_progress":
        case "global_circuit_breaker": {
          const prefix = { generic_repeat: "generic", known_poll_no_progress: "poll", global_circuit_breaker: "global" }[v.detector];
          const result = v.warningKey.slice(`${prefix}:${v.tool}:${v.argsHash}:`.length);
          const identical = newestFirst.filter((r) => r.argsHash === v.argsHash && r.resultHash === result).length;
          const needed = v.detector === "global_circuit_breaker" ? config.globalCircuitBreakerThreshold : config.criticalThreshold;
          if (identical < needed) broken(`call ${v.index}: ${v.detector} block with only ${identical} identical outcomes in the window (needs ${needed})`);
          return;
        }
        case "ping_pong": {
          const tail = newestFirst.slice(0, v.count - 1);
          const [last, other] = tail;
          const sides = [last, other].map((side) => tail.filter((r) => r.argsHash === side?.argsHash));
          const alternates = tail.length === v.count - 1 && tail.every((r, i) => r.argsHash === (i % 2 === 0 ? last : other)?.argsHash) && other?.argsHash === v.argsHash;
          const uniform = sides.every((side) => side.length > 0 && side.every((r) => r.resultHash !== undefined && r.resultHash === side[0]?.resultHash));
          if (!alternates || !uniform) broken(`call ${v.index}: ping-pong block without an alternating, completed, uniform tail of ${v.count - 1}`);
          if (tail.length < config.criticalThreshold) {
            // Known anomaly A2 (README): the count includes the current call, so a ping-pong
            // blocks on criticalThreshold - 1 identical outcomes. Nothing less is accepted.
            if (!(tail.length === config.criticalThreshold - 1 && knownAnomaly("A2", coverage, "ping-pong-count"))) broken(`call ${v.index}: ping-pong block on ${tail.length} outcomes (critical ${config.criticalThreshold})`);
          }
          return;
        }
        case "unknown_tool_repeat": {
          const streak = newestFirst.slice(0, v.count);
          const name = streak[0]?.unknownTool;
          const ok = streak.length === v.count && name !== undefined && streak.every((r) => r.resultHash !== undefined && r.tool === v.tool && r.unknownTool === name);
          if (!ok || v.count < config.unknownToolThreshold) broken(`call ${v.index}: unknown-tool block without ${config.unknownToolThreshold} consecutive misses of one tool`);
          return;
        }
      }
    }
  },
  scenario: (value) => draft(value, ["D2", "S4"], "Counterexample: a block without the evidence its detector requires."),
};
