// The readable form: one line per event, like a flight recorder. Columns: input index, run,
// event, tool, verdict and what the engine said.
import type { EngineOutput, OutcomeNote } from "../../models/engineOutput.js";
import { displayRunId } from "../../models/normalize.js";

/**
 * Control characters (NUL, escape sequences) and bidirectional overrides (U+202E) in a tool name,
 * run id or message are shown as \u{...}: printed raw they would move the terminal's cursor or
 * reverse the line, so the timeline would not say what the trace holds.
 */
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function visible(text: string): string {
  return text.replace(INVISIBLE, (c) => `\\u{${(c.codePointAt(0) as number).toString(16).padStart(4, "0")}}`);
}

function pad(raw: string, width: number): string {
  const text = visible(raw);
  return text.length >= width ? text : text + " ".repeat(width - text.length);
}

/** What became of an outcome: a driven runtime's rejection is said as such, not as a missing hash. */
function outcomeText(output: OutcomeNote): string {
  if (output.vetoed) return "veto (blocked call)";
  if (output.recorded) return "recorded";
  switch (output.rejected) {
    case "unknown-tool":
      return `rejected by the runtime: unknown tool ${visible(output.unknownTool ?? output.tool)} (not run, not recorded)`;
    case "invalid-input":
      return "rejected by the runtime: invalid input for its tool (not run, not recorded)";
    case undefined:
      return "not recorded (no hash)";
  }
}

export function timelineLine(output: EngineOutput<string, string>): string {
  const head = `#${String(output.index).padStart(5, "0")}  ${pad(displayRunId(output.run) ?? "-", 10)} `;
  switch (output.kind) {
    case "call":
      if (output.verdict === "allow") return `${head}call     ${pad(output.tool, 16)} allow`;
      // A suppressed warning never reached the agent; its message would only repeat the last one.
      return `${head}call     ${pad(output.tool, 16)} ${pad(output.verdict.toUpperCase(), 8)} ${output.detector} x${output.count}${
        output.emitted ? `  ${visible(output.message)}` : " (suppressed: the agent does not see it)"
      }`;
    case "outcome":
      return `${head}outcome  ${pad(output.tool, 16)} ${outcomeText(output)}`;
    case "compaction":
      return `${head}compact  ${pad("", 16)} ${output.armed ? "guard armed" : "guard off"}`;
    case "abort":
      return `${head}ABORT    ${pad(output.tool, 16)} ${visible(output.error)} x${output.count}  ${visible(output.message)}`;
    case "ignored":
      return `${head}${pad(output.eventType, 8)} ${pad("", 16)} ignored (run aborted)`;
    case "text":
      return `${head}${pad(output.textType, 8)} ${pad("", 16)} ${pad(output.verdict.toUpperCase(), 8)} ${output.detector} x${output.count}  ${output.message}`;
  }
}
