// SPEC E2: runIds and tool names are normalised before anything else looks at them.

/** Internal key of "no run": an empty or missing runId. Never a valid trimmed runId. */
export const NO_RUN = "";

export function normalizeRunId(runId: string | undefined): string {
  return runId === undefined ? NO_RUN : runId.trim();
}

/**
 * How a runtime tells its runs apart. Trimming is OpenClaw's rule (E2) alone: the peers take an
 * id as an id (Gemini CLI compares prompt ids with `!==`, so "p1" and " p1" are two prompts).
 */
export type RunIdRule = "trimmed" | "exact";

/** A run's internal key under a runtime's rule; a missing id is "no run" under both. */
export function runKeyOf(runId: string | undefined, rule: RunIdRule): string {
  return rule === "trimmed" ? normalizeRunId(runId) : (runId ?? NO_RUN);
}

// A Map, not an object literal: a tool named "constructor" or "__proto__" must stay itself, not
// pick up Object.prototype's members.
const TOOL_ALIASES: ReadonlyMap<string, string> = new Map([
  ["bash", "exec"],
  ["apply-patch", "apply_patch"],
]);

export function normalizeToolName(tool: string): string {
  const name = tool.trim().toLowerCase();
  return TOOL_ALIASES.get(name) ?? name;
}

/** How a normalised runId is shown to people and in JSON output. */
export function displayRunId(run: string): string | null {
  return run === NO_RUN ? null : run;
}
