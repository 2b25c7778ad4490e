// One line that says what an import found, for stderr and for the scan report.
import type { DetectedFormat } from "./detect.js";
import type { ImportStats } from "./types.js";

export function statsLine(file: string, format: DetectedFormat, s: ImportStats): string {
  const skipped = Object.entries(s.skipped).map(([k, v]) => `${k} x${v}`);
  return [
    `${file}: ${format}, ${s.calls} calls, ${s.outcomes} outcomes (${s.errors} errors, ${s.orphanOutcomes} orphan), ${s.compactions} compactions, ${s.runs} runs`,
    skipped.length > 0 ? `; skipped undocumented entries: ${skipped.join(", ")}` : "",
    s.formatErrors > 0 ? `; ${s.formatErrors} format errors (steps without one parseable action: not calls)` : "",
    s.harnessSteps > 0 ? `; ${s.harnessSteps} harness steps (not calls)` : "",
    s.truncatedLastLine ? "; last line cut short (left out)" : "",
  ].join("");
}
