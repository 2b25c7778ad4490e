// The expectation of a scenario: a digest of the whole timeline, plus the facts a person reads.
import { sha256Text } from "../../models/digest.js";
import type { EngineOutput } from "../../models/engineOutput.js";
import { outputJsonLine } from "../format/outputJson.js";
import type { ScenarioExpected, ScenarioFacts } from "./scenario.js";

export function timelineText(outputs: readonly EngineOutput<string, string>[]): string {
  return outputs.map(outputJsonLine).join("\n") + "\n";
}

/** A short, stable line per output: what a diff shows. */
export function compactLine(o: EngineOutput<string, string>): string {
  const run = o.run === "" ? "-" : o.run;
  switch (o.kind) {
    case "call":
      return o.verdict === "allow" ? `${o.index} call ${run} ${o.tool} allow` : `${o.index} call ${run} ${o.tool} ${o.verdict} ${o.detector} ${o.count}${o.emitted ? "" : " suppressed"}`;
    case "outcome":
      return `${o.index} outcome ${run} ${o.tool} ${o.vetoed ? "vetoed" : o.recorded ? "recorded" : "not-recorded"}`;
    case "compaction":
      return `${o.index} compaction ${run} ${o.armed ? "armed" : "off"}`;
    case "abort":
      return `${o.index} ABORT ${run} ${o.tool} ${o.count}`;
    case "ignored":
      return `${o.index} ${o.eventType} ${run} ignored`;
    case "text":
      return `${o.index} ${o.textType} ${run} ${o.verdict} ${o.detector} ${o.count}`;
  }
}

export function expectationOf(outputs: readonly EngineOutput<string, string>[], eventCount: number): ScenarioExpected {
  let calls = 0;
  let warnings = 0;
  let emittedWarnings = 0;
  let blocks = 0;
  let ignored = 0;
  let firstWarning: ScenarioFacts["firstWarning"] = null;
  let firstBlock: ScenarioFacts["firstBlock"] = null;
  let abort: ScenarioFacts["abort"] = null;
  for (const o of outputs) {
    if (o.kind === "ignored") ignored++;
    if (o.kind === "abort" && abort === null) abort = { index: o.index, tool: o.tool, count: o.count };
    if (o.kind !== "call") continue;
    calls++;
    if (o.verdict === "warning") {
      warnings++;
      if (o.emitted) emittedWarnings++;
      if (firstWarning === null) firstWarning = { index: o.index, detector: o.detector, count: o.count };
    } else if (o.verdict === "critical") {
      blocks++;
      if (firstBlock === null) firstBlock = { index: o.index, detector: o.detector, count: o.count };
    }
  }
  return {
    digest: sha256Text(timelineText(outputs)),
    facts: { events: eventCount, calls, firstWarning, firstBlock, emittedWarnings, warnings, blocks, abort, ignored },
    timeline: outputs.map(compactLine),
  };
}
