// One definition of a failed call, for every format and every command (import, scan, calibrate):
// the tool reported a failure. That is an error (an error flag, an exception, an unknown tool),
// a non-zero exit code, or a timeout. Importers put exit codes and timeouts into the result's
// details the way OpenClaw's exec tool does ({status, exitCode}), so this reads them back.
import type { ToolEvent } from "../../models/events.js";

const FAILED_STATUSES: ReadonlySet<string> = new Set(["failed", "error", "timeout", "timed_out"]);

export function outcomeFailed(event: ToolEvent): boolean {
  if (event.type !== "outcome") return false;
  if ("error" in event && event.error !== undefined) return true;
  const result = event.result;
  if (result === null || typeof result !== "object") return false;
  const details = (result as { details?: unknown }).details;
  if (details === null || typeof details !== "object") return false;
  const d = details as { status?: unknown; exitCode?: unknown; timedOut?: unknown };
  if (typeof d.status === "string" && FAILED_STATUSES.has(d.status)) return true;
  if (typeof d.exitCode === "number" && d.exitCode !== 0) return true;
  return d.timedOut === true;
}

/**
 * Whether a tool's text answer reports a failure, for formats with no error flag and no exit code
 * (OpenAI chat transcripts): it begins with "Error" and a colon, as tau-bench's tools answer an
 * exception ("Error: user not found") and as many function-calling frameworks wrap one. Only the
 * start counts: a result that quotes an error further on is still a result. Importers put the
 * verdict into the result's details ({status: "failed"}), where outcomeFailed reads it.
 */
export function toolErrorText(text: string): boolean {
  return /^\s*error\s*:/i.test(text);
}

/**
 * Whether an editing tool refused the edit and left the file as it was: SWE-agent's linting edit
 * command ("Your proposed edit has introduced new syntax error(s). ... Your changes have NOT been
 * applied", 0.x windowed edit) and its 1.x str_replace_editor ("No replacement was performed,
 * old_str ... did not appear verbatim"). The call ran and failed: an agent that retries the same
 * rejected edit is stuck on a failing call, not making progress. Anchored at the start, as the
 * tools answer: a command's output that merely quotes the words did not fail for it.
 */
export function rejectedEditText(text: string): boolean {
  return /^\s*(?:your proposed edit has introduced new syntax error\(s\)|no replacement was performed)/i.test(text);
}
