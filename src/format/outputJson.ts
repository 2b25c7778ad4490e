// The machine-readable form of the engine's outputs: one JSON object per line, keys in a fixed
// order so the same trace always prints the same bytes (README "trace --json").
import type { EngineOutput } from "../../models/engineOutput.js";
import { displayRunId } from "../../models/normalize.js";

export type OutputRecord = Record<string, string | number | boolean | null>;

export function outputRecord(output: EngineOutput<string, string>): OutputRecord {
  const runId = displayRunId(output.run);
  switch (output.kind) {
    case "call":
      if (output.verdict === "allow") return { index: output.index, type: "call", runId, tool: output.tool, verdict: "allow" };
      return {
        index: output.index,
        type: "call",
        runId,
        tool: output.tool,
        verdict: output.verdict,
        detector: output.detector,
        count: output.count,
        warningKey: output.warningKey,
        message: output.message,
        emitted: output.emitted,
      };
    case "outcome": {
      const record: OutputRecord = { index: output.index, type: "outcome", runId, tool: output.tool, recorded: output.recorded };
      if (output.vetoed) record.vetoed = true;
      // A driven runtime's rejection (not run, no veto), with the tool it said it lacks.
      if (output.rejected !== undefined) {
        record.rejected = output.rejected;
        if (output.unknownTool !== undefined) record.unknownTool = output.unknownTool;
      }
      return record;
    }
    case "compaction":
      return { index: output.index, type: "compaction", runId, armed: output.armed };
    case "abort":
      return {
        index: output.index,
        type: "abort",
        error: output.error,
        runId,
        tool: output.tool,
        count: output.count,
        message: output.message,
      };
    case "ignored":
      return { index: output.index, type: output.eventType, runId, ignored: true };
    case "text":
      return { index: output.index, type: output.textType, runId, verdict: output.verdict, detector: output.detector, count: output.count, message: output.message };
  }
}

export function outputJsonLine(output: EngineOutput<string, string>): string {
  return JSON.stringify(outputRecord(output));
}
