// A recorded call re-expressed in opencode's (and Kilo's) own tool schema, where the recorded
// call says the same thing in another agent's spelling. A trace's calls go to a driven CLI as
// recorded, and the CLI's own turn normalises them; but opencode's tools decode their args
// against a schema, and args spelled for another agent's tools fail it: opencode then runs
// nothing (its `invalid` tool answers), and Kilo counts the failure towards its second guard
// (3 calls in a row whose args fail the schema abort the turn). Replayed as recorded, such a
// session stops Kilo where the recorded agent was not looping at all: the stop measures the
// spelling, not the loop. So a call whose meaning is plain (the same command, the same file) is
// spelled as the CLI's tool expects, and only then:
// - read, write, edit: the file under `filePath` (Claude Code's `file_path`, pi's `path`), and
//   edit's texts under `oldString`, `newString`, `replaceAll` (Claude Code's `old_string` ...,
//   pi's `oldText` ...). Keys are renamed in place (order kept, values untouched), and only
//   when the object does not already hold the key it would get, so two recorded calls are
//   the same call after renaming exactly when they were before (the doom-loop check compares
//   JSON.stringify of the input, key order included).
// - bash: an action of several shell commands that loopsim's mini-swe-agent importer records as
//   one call ({calls: [{tool: "bash", params: {command}}, ...]}, src/import/miniSweAgent.ts: the
//   CaM harness's Python body calling exec_bash_cmd more than once) becomes one `command` that
//   runs each of them in order, each in its own subshell (the harness ran each in a process of
//   its own: a `cd` in one does not reach the next). Only when every call is a shell command
//   with its text: a command recorded as an expression ({expr: "cmd"}: a Python variable whose
//   value the record does not hold) or another tool among them cannot be said in opencode's
//   schema without inventing it, and goes as recorded.
// Anything else goes exactly as recorded. Nothing is added that the record does not hold (no
// `description` is made up: opencode 1.18.33's and Kilo 7.7.9's bash take none as required).
import { isPlainObject } from "../peers/normalization/callView.js";
import { OPENCODE_TOOLS } from "../peers/normalization/opencode.js";

/** Other agents' spellings of the file tools' keys, by opencode's key. */
const FILE_KEYS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  read: { file_path: "filePath", path: "filePath" },
  write: { file_path: "filePath", path: "filePath" },
  edit: { file_path: "filePath", path: "filePath", old_string: "oldString", oldText: "oldString", new_string: "newString", newText: "newString", replace_all: "replaceAll" },
};

/** The built-in tool a name reaches after opencode's (Kilo's: trimmed too) repair, if any. */
function builtInTool(name: string): string | undefined {
  const repaired = name.trim().toLowerCase();
  return OPENCODE_TOOLS.has(repaired) ? repaired : undefined;
}

/** Keys renamed in place; the args as given when a renamed key would meet one already there. */
function renamed(args: Readonly<Record<string, unknown>>, names: Readonly<Record<string, string>>): Readonly<Record<string, unknown>> {
  const keys = Object.keys(args);
  const targets = keys.map((k) => names[k] ?? k);
  if (new Set(targets).size !== targets.length) return args;
  if (targets.every((t, i) => t === keys[i])) return args;
  return Object.fromEntries(keys.map((k, i) => [targets[i] as string, args[k]]));
}

/** The commands of a several-command action, when each is a shell command with its text. */
function shellCommands(args: Readonly<Record<string, unknown>>): string[] | undefined {
  if (Object.keys(args).length !== 1 || !Array.isArray(args.calls) || args.calls.length === 0) return undefined;
  const commands: string[] = [];
  for (const call of args.calls as unknown[]) {
    if (!isPlainObject(call) || call.tool !== "bash" || !isPlainObject(call.params)) return undefined;
    const command = call.params.command;
    if (typeof command !== "string") return undefined;
    commands.push(command);
  }
  return commands;
}

/** The args to send for a recorded call to opencode's or Kilo's tool `name` (see the header). */
export function opencodeArgs(name: string, args: unknown): unknown {
  if (!isPlainObject(args)) return args;
  const tool = builtInTool(name);
  if (tool === undefined) return args;
  const keys = FILE_KEYS[tool];
  if (keys !== undefined) return renamed(args, keys);
  if (tool === "bash" && args.command === undefined) {
    const commands = shellCommands(args);
    // The closing parenthesis on a line of its own: a command ending in a heredoc keeps its
    // terminator line alone, as the shell needs it.
    if (commands !== undefined) return { command: commands.map((c) => `(\n${c}\n)`).join("\n") };
  }
  return args;
}
