// A recorded session's call as Qwen Code can run it. Qwen Code has none of the recorded agents'
// tools by their names (its shell is run_shell_command, its file tools read_file, edit and
// write_file): sent raw, a recorded `bash` call is answered "Tool "bash" not found in registry"
// and nothing runs (read from qwen-code@0.24.4's stream-json). Its loop guard still counts such a
// call (LoopDetectionService sees the model's tool-call request, name and args, before the
// registry is asked), so its identical-call stops matched its model's; but nothing of the
// recorded work ran, and its git-overview guard, which looks only at run_shell_command, never saw
// the recorded commands. So the calls whose meaning is plain (recordedCalls.ts: exactly the
// recorded tool's args, read one to one) go to Qwen's own tool for the same work, each mapping
// one to one so that the streaks of identical calls its guard counts are the recorded ones.
// Anything else goes as recorded, and Qwen rejects it.
import type { RawToolCall } from "./drivenRuntime.js";
import { recordedWork, type RecordedWork } from "./recordedCalls.js";

/**
 * Qwen's file tools take absolute paths only (a relative one fails validation), so a recorded
 * relative path is read inside the scratch folder, where the session's commands run. The path is
 * joined as text, never normalized, so different recorded paths stay different (`a/../b.py` is not
 * `b.py`); a recorded absolute path goes as it is (none names the fresh scratch folder).
 */
function inScratch(file: string, work: string): string {
  return file.startsWith("/") ? file : `${work.replace(/\/+$/, "")}/${file}`;
}

function qwenCall(recorded: RecordedWork, work: string): RawToolCall | undefined {
  switch (recorded.kind) {
    // run_shell_command requires only the command (description and directory are optional).
    case "shell":
      return { name: "run_shell_command", args: { command: recorded.command } };
    // print_code_context's (start, end) are 1-based and inclusive; read_file's offset is 0-based
    // and its limit a count of lines. A range with no such reading (start below 1, end before
    // start) goes as recorded.
    case "read-lines": {
      const [first, last] = recorded.lines;
      if (first < 1 || last < first) return undefined;
      return { name: "read_file", args: { file_path: inScratch(recorded.file, work), offset: first - 1, limit: last - first + 1 } };
    }
    case "replace":
      return { name: "edit", args: { file_path: inScratch(recorded.file, work), old_string: recorded.oldCode, new_string: recorded.newCode } };
    // Qwen has no insert-at-line tool: its edit needs the text around the line, which the
    // recorded call does not give, so the call goes as recorded.
    case "insert":
      return undefined;
    case "save":
      return { name: "write_file", args: { file_path: inScratch(recorded.file, work), content: recorded.code } };
    default: {
      const unhandled: never = recorded;
      throw new Error(`unhandled recorded work ${JSON.stringify(unhandled)}`);
    }
  }
}

/** Qwen Code's call for a recorded one: its own tool for the same work, or the call as recorded. */
export function qwenRecordedCall(name: string, args: unknown, work: string): RawToolCall {
  const recorded = recordedWork(name, args);
  return (recorded === undefined ? undefined : qwenCall(recorded, work)) ?? { name, args };
}
