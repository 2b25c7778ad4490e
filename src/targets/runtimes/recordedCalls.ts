// What a recorded session's call is, when its meaning is plain: the recorded agents' tools (mini-
// swe-agent's `bash`, the code-act agents' file tools) exist in none of the driven runtimes by
// those names, and a runtime rejects a call to a tool it lacks before it runs (Cline 3.0 ends the
// run after 3 such turns; Qwen Code answers "not found in registry" and goes on, its loop guard
// counting the rejected calls by name and args, so nothing of the recorded work ran). Each driven
// runtime maps the work named here to its own tool for it (clineRecordedCalls.ts,
// qwenRecordedCalls.ts); the decision of what a recorded call is lives here once.
//
// Only calls whose args are exactly the recorded tool's (every key there, each of its type, no
// key more) are read, and each reading is one to one: one recorded tool name per kind, every arg
// kept, so equal recorded calls read equal and different ones read different. The streaks of
// identical calls the runtimes' guards count (name and key-sorted args) are then the recorded
// ones, as their models count them. Anything else (a Python expression standing for the command,
// a bundle of calls, a tool with no counterpart such as tau-bench's) is no RecordedWork: the
// runtime gets it as recorded and rejects it, which is its own mismatch with that agent, reported,
// never replaced by invented work.

/** The work a recorded call names, in the recorded agent's own terms. */
export type RecordedWork =
  /** mini-swe-agent's shell (and the SWE-agent and OpenHands sessions of the ADP corpus). */
  | { readonly kind: "shell"; readonly command: string }
  /** gpt-5-cam's print_code_context: a file's lines, first and last as recorded. */
  | { readonly kind: "read-lines"; readonly file: string; readonly lines: readonly [number, number] }
  /** gpt-5-cam's code_replace: a text replaced by another in a file. */
  | { readonly kind: "replace"; readonly file: string; readonly oldCode: string; readonly newCode: string }
  /** gpt-5-cam's code_insert: code inserted at a line of a file. */
  | { readonly kind: "insert"; readonly file: string; readonly line: number; readonly code: string }
  /** gpt-5-cam's save_code_to_file: a file's whole content. */
  | { readonly kind: "save"; readonly file: string; readonly code: string };

type Field = "string" | "integer" | "line-range";
type FieldValue<F extends Field> = F extends "string" ? string : F extends "integer" ? number : readonly [number, number];

/** A recorded tool: its args' keys and types, and the work they name. */
interface Reading<K extends string> {
  readonly fields: Readonly<Record<K, Field>>;
  readonly work: (args: { readonly [P in K]: FieldValue<Field> }) => RecordedWork;
}

function reading<const T extends Readonly<Record<string, Field>>>(fields: T, work: (args: { readonly [P in keyof T]: FieldValue<T[P]> }) => RecordedWork): Reading<string> {
  return { fields, work: work as Reading<string>["work"] };
}

const READINGS: Readonly<Record<string, Reading<string>>> = {
  bash: reading({ command: "string" }, (a) => ({ kind: "shell", command: a.command })),
  // The code-act agents of mini-swe-agent-gpt-5-cam call file tools from Python.
  print_code_context: reading({ file_path: "string", lines: "line-range" }, (a) => ({ kind: "read-lines", file: a.file_path, lines: a.lines })),
  code_replace: reading({ file_path: "string", old_code: "string", new_code: "string" }, (a) => ({ kind: "replace", file: a.file_path, oldCode: a.old_code, newCode: a.new_code })),
  code_insert: reading({ file_path: "string", line_number: "integer", new_code: "string" }, (a) => ({ kind: "insert", file: a.file_path, line: a.line_number, code: a.new_code })),
  save_code_to_file: reading({ file_path: "string", code: "string" }, (a) => ({ kind: "save", file: a.file_path, code: a.code })),
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

/** The recorded args as the reading's fields, when they are exactly those (no key more or less). */
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

/** The work a recorded call names, or undefined when it is not exactly one of the known tools'. */
export function recordedWork(name: string, args: unknown): RecordedWork | undefined {
  const known = Object.hasOwn(READINGS, name) ? READINGS[name] : undefined;
  const parsed = known === undefined ? undefined : parsedArgs(known.fields, args);
  return known === undefined || parsed === undefined ? undefined : known.work(parsed);
}
