// A recorded session's call as Cline 3.0 can run it. Cline has none of the recorded agents' tools
// (mini-swe-agent's `bash`, the code-act agents' file tools): sent raw, such a call is rejected
// before it runs (AI_NoSuchToolError), a turn whose every call was rejected counts as a mistake,
// and its CLI ends the run at 3 mistakes in a row (`--retries`, default 3; read from
// cline@3.0.65's binary), so a recorded mini-swe-agent session ended after 3 responses and said
// nothing of Cline's loop guard. So the calls whose meaning is plain go to Cline's own tool for the
// same work: the same command, the same file, the same lines or text. Only calls whose args are
// exactly the recorded tool's (every key there, each of its type) are mapped, and each mapping is
// one to one: equal recorded calls stay equal and different ones stay different, so the streaks
// of identical calls Cline's loop tracker counts (name and key-sorted args) are the recorded ones,
// as its model counts them. Anything else goes as recorded (a Python expression standing for the
// command, a bundle of calls, a tool with no counterpart such as tau-bench's): Cline rejects it,
// which is the runtime's own mismatch with that agent, reported, never replaced by invented work.
import type { RawToolCall } from "./drivenRuntime.js";

type Field = "string" | "integer" | "line-range";
type FieldValue<F extends Field> = F extends "string" ? string : F extends "integer" ? number : readonly [number, number];

/** A recorded tool: its args' keys and types, and Cline's call for the same work. */
interface Mapping<K extends string> {
  readonly fields: Readonly<Record<K, Field>>;
  readonly toCline: (args: { readonly [P in K]: FieldValue<Field> }) => RawToolCall;
}

function mapping<const T extends Readonly<Record<string, Field>>>(fields: T, toCline: (args: { readonly [P in keyof T]: FieldValue<T[P]> }) => RawToolCall): Mapping<string> {
  return { fields, toCline: toCline as Mapping<string>["toCline"] };
}

const MAPPINGS: Readonly<Record<string, Mapping<string>>> = {
  // mini-swe-agent's shell (and the SWE-agent and OpenHands sessions of the ADP corpus, which name
  // theirs the same): a failed command is no mistake in Cline (its result says success false, the
  // tool result is no error), so commands that fail in the empty scratch folder run on.
  bash: mapping({ command: "string" }, (a) => ({ name: "run_commands", args: { commands: [a.command] } })),
  // The code-act agents of mini-swe-agent-gpt-5-cam call file tools from Python.
  print_code_context: mapping({ file_path: "string", lines: "line-range" }, (a) => ({ name: "read_files", args: { files: [{ path: a.file_path, start_line: a.lines[0], end_line: a.lines[1] }] } })),
  code_replace: mapping({ file_path: "string", old_code: "string", new_code: "string" }, (a) => ({ name: "editor", args: { path: a.file_path, old_text: a.old_code, new_text: a.new_code } })),
  code_insert: mapping({ file_path: "string", line_number: "integer", new_code: "string" }, (a) => ({ name: "editor", args: { path: a.file_path, insert_line: a.line_number, new_text: a.new_code } })),
  save_code_to_file: mapping({ file_path: "string", code: "string" }, (a) => ({ name: "editor", args: { path: a.file_path, new_text: a.code } })),
};

function fieldOf(kind: Field, value: unknown): FieldValue<Field> | undefined {
  switch (kind) {
    case "string":
      return typeof value === "string" ? value : undefined;
    case "integer":
      return Number.isSafeInteger(value) ? (value as number) : undefined;
    case "line-range":
      return Array.isArray(value) && value.length === 2 && value.every((n) => Number.isSafeInteger(n)) ? [value[0] as number, value[1] as number] : undefined;
    default: {
      const unhandled: never = kind;
      throw new Error(`unhandled field kind ${String(unhandled)}`);
    }
  }
}

/** The recorded args as the mapping's fields, when they are exactly those (no key more or less). */
function parsedArgs(fields: Readonly<Record<string, Field>>, args: unknown): Record<string, FieldValue<Field>> | undefined {
  if (args === null || typeof args !== "object" || Array.isArray(args)) return undefined;
  const entries = Object.entries(args);
  if (entries.length !== Object.keys(fields).length) return undefined;
  const parsed: Record<string, FieldValue<Field>> = {};
  for (const [key, value] of entries) {
    const kind = Object.hasOwn(fields, key) ? fields[key] : undefined;
    const field = kind === undefined ? undefined : fieldOf(kind, value);
    if (field === undefined) return undefined;
    parsed[key] = field;
  }
  return parsed;
}

/** Cline's call for a recorded one: its own tool for the same work, or the call as recorded. */
export function clineRecordedCall(name: string, args: unknown): RawToolCall {
  const known = Object.hasOwn(MAPPINGS, name) ? MAPPINGS[name] : undefined;
  const parsed = known === undefined ? undefined : parsedArgs(known.fields, args);
  return known === undefined || parsed === undefined ? { name, args } : known.toCline(parsed);
}
