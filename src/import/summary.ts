// One line that says what an import found, for stderr and for the scan report.
import { plural } from "../format/words.js";
import type { DetectedFormat } from "./detect.js";
import type { ImportStats } from "./types.js";

export function statsLine(file: string, format: DetectedFormat, s: ImportStats): string {
  const skipped = Object.entries(s.skipped).map(([k, v]) => `${k} x${v}`);
  return [
    `${file}: ${format}, ${plural(s.calls, "call")}, ${plural(s.outcomes, "outcome")} (${plural(s.errors, "error")}, ${s.orphanOutcomes} orphan), ${plural(s.compactions, "compaction")}, ${plural(s.runs, "run")}`,
    skipped.length > 0 ? `; skipped undocumented entries: ${skipped.join(", ")}` : "",
    s.formatErrors > 0 ? `; ${plural(s.formatErrors, "format error")} (steps without one parseable action: not calls)` : "",
    s.harnessSteps > 0 ? `; ${plural(s.harnessSteps, "harness step")} (not calls)` : "",
    s.truncatedLastLine ? "; last line cut short (left out)" : "",
    s.messages + s.thoughts > 0 ? `; model text: ${plural(s.messages, "message")}, ${plural(s.thoughts, "thought")}` : "",
  ].join("");
}
