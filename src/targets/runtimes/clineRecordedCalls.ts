// A recorded session's call as Cline 3.0 can run it. Cline has none of the recorded agents' tools
// (mini-swe-agent's `bash`, the code-act agents' file tools): sent raw, such a call is rejected
// before it runs (AI_NoSuchToolError), a turn whose every call was rejected counts as a mistake,
// and its CLI ends the run at 3 mistakes in a row (`--retries`, default 3; read from
// cline@3.0.65's binary), so a recorded mini-swe-agent session ended after 3 responses and said
// nothing of Cline's loop guard. So the calls whose meaning is plain (recordedCalls.ts: exactly
// the recorded tool's args, read one to one) go to Cline's own tool for the same work: the same
// command, the same file, the same lines or text. Each mapping below is one to one too, so the
// streaks of identical calls Cline's loop tracker counts (name and key-sorted args) are the
// recorded ones, as its model counts them. Anything else goes as recorded: Cline rejects it.
import type { RawToolCall } from "./drivenRuntime.js";
import { recordedWork, type RecordedWork } from "./recordedCalls.js";

function clineCall(work: RecordedWork): RawToolCall {
  switch (work.kind) {
    // A failed command is no mistake in Cline (its result says success false, the tool result is
    // no error), so commands that fail in the empty scratch folder run on.
    case "shell":
      return { name: "run_commands", args: { commands: [work.command] } };
    case "read-lines":
      return { name: "read_files", args: { files: [{ path: work.file, start_line: work.lines[0], end_line: work.lines[1] }] } };
    case "replace":
      return { name: "editor", args: { path: work.file, old_text: work.oldCode, new_text: work.newCode } };
    case "insert":
      return { name: "editor", args: { path: work.file, insert_line: work.line, new_text: work.code } };
    case "save":
      return { name: "editor", args: { path: work.file, new_text: work.code } };
    default: {
      const unhandled: never = work;
      throw new Error(`unhandled recorded work ${JSON.stringify(unhandled)}`);
    }
  }
}

/** Cline's call for a recorded one: its own tool for the same work, or the call as recorded. */
export function clineRecordedCall(name: string, args: unknown): RawToolCall {
  const work = recordedWork(name, args);
  return work === undefined ? { name, args } : clineCall(work);
}
