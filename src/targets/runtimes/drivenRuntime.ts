// A runtime driven end to end: its own published CLI, started headless against loopsim's scripted
// model, running its own tools in a scratch folder. What a driven runtime is given (a script of
// prompts, model responses and file changes) and what is observed of it (which calls ran, which
// were refused, where the run stopped, what warnings reached the model) live here, so that the
// probes above can compare it with a model without knowing how each CLI is started.

import type { RuntimeRejection } from "../../../models/engineOutput.js";

/**
 * How a probe bends the runtime's own tool name: its first letters in upper case (`Read_File`,
 * `Read`), or padded with a space on each side. The runtime sees the bent name raw.
 */
export type NameVariant = "capitalized" | "padded";

/** Args replaced as the model might send them: none at all (an empty arguments string), null, or {}. */
export type ArgsVariant = "missing" | "null" | "empty";

/** A runtime-neutral action; each runtime names the tool and its args its own way. */
export type ProbeAction =
  | { readonly kind: "read"; readonly file: string; readonly offset?: number; readonly limit?: number; readonly keysReversed?: boolean; readonly name?: NameVariant; readonly args?: ArgsVariant }
  /** `tool` names the shell tool literally (`bash`, `exec`) instead of the runtime's own. */
  | { readonly kind: "shell"; readonly command: string; readonly tool?: string }
  /** A call from a user's trace: its name and args go to the runtime exactly as recorded. */
  | { readonly kind: "raw"; readonly name: string; readonly args: unknown };

/** A tool call as the model sends it: `args` undefined means no arguments at all. */
export interface RawToolCall {
  readonly name: string;
  readonly args: unknown;
}

export interface DrivenCall {
  readonly id: string;
  readonly action: ProbeAction;
}

/** Model text a response streams before its calls: a message chunk, or a thought. */
export interface DrivenText {
  readonly type: "message" | "thought";
  readonly text: string;
}

export interface DrivenStep {
  /** Model text the response streams first, piece by piece (content-loop probes). */
  readonly text?: readonly DrivenText[];
  /** One model response: its calls were proposed together (parallel calls). */
  readonly calls: readonly DrivenCall[];
  /** Files written (or deleted, with null) just before this response is served. */
  readonly writes?: Readonly<Record<string, string | null>>;
}

export interface DrivenScript {
  /** Files in the scratch folder before the first prompt. */
  readonly files: Readonly<Record<string, string>>;
  /** Each prompt is one user turn of the same conversation (one loopsim run). */
  readonly prompts: readonly (readonly DrivenStep[])[];
}

/**
 * What became of a scripted call: it ran; the loop guard refused it; the runtime rejected it before
 * running it (a tool it does not have, or args its schema does not accept) and the run went on,
 * which is no loop-guard decision; or the run ended before it.
 */
export type CallFate = "ran" | "refused" | "rejected" | "not-run";

/**
 * A fate as the loop guard decided it: a call the runtime rejected before running it was let
 * through by the guard, as a call that ran (the runtime's rejection is no guard decision, and no
 * peer model has a tool registry to reject anything with).
 */
export function guardFate(fate: CallFate): Exclude<CallFate, "rejected">;
export function guardFate(fate: CallFate | undefined): Exclude<CallFate, "rejected"> | undefined;
export function guardFate(fate: CallFate | undefined): Exclude<CallFate, "rejected"> | undefined {
  return fate === "rejected" ? "ran" : fate;
}

/** Why the runtime rejected a call: it has no tool of that name, or the tool does not accept its input. */
export type Rejection = RuntimeRejection;

export interface PromptObservation {
  readonly fates: Readonly<Record<string, CallFate>>;
  /** Why each call whose fate is "rejected" was rejected (absent when none was). */
  readonly rejections?: Readonly<Record<string, Rejection>>;
  /** The 0-based step during which the guard stopped the prompt; null when it ran to the end. */
  readonly stoppedAtStep: number | null;
  readonly stopMessage?: string;
  /** Warnings the runtime put into the conversation, after which step. */
  readonly warnings: readonly { readonly afterStep: number; readonly text: string }[];
}

export type DrivenObservation = { readonly ok: true; readonly prompts: readonly PromptObservation[] } | { readonly ok: false; readonly error: string };

export interface ToolNaming {
  /** The runtime's tool call for an action, with absolute paths inside the scratch folder. */
  toolCall(action: ProbeAction, workDir: string): RawToolCall;
}

export interface DrivenRuntime extends ToolNaming {
  /** `opencode@1.18.33`. */
  readonly name: string;
  readonly summary: string;
  readonly notes: readonly string[];
  drive(script: DrivenScript, options?: DriveOptions): Promise<DrivenObservation>;
}

export interface DriveOptions {
  /** Longest wait for the runtime's next model request or exit (default 60 s). */
  readonly stepTimeoutMs?: number;
  /** Longest wait for its first request, start-up included (default 180 s; with only
   * stepTimeoutMs given, that). */
  readonly startTimeoutMs?: number;
  /** Called with the runtime's process id once it runs, per prompt (tests kill it mid-run). */
  readonly onStarted?: (pid: number, prompt: number) => void;
  /** Bound of the memory each sandboxed process may write (RLIMIT_DATA; default the runtime's own,
   * drivenRuntimes.ts, and 4 GiB for an adapter driven directly). */
  readonly memoryBytes?: number;
  /** Bound of the resident memory of the whole sandboxed run, all its processes together (default 8 GiB; residentWatchdog.ts). */
  readonly residentBytes?: number;
}

/**
 * The tool call of a probe action in a runtime's own vocabulary: its read tool with the file's
 * absolute path under `pathKey` (plus offset and limit), and its shell tool with the command.
 */
export function namedToolCall(action: ProbeAction, work: string, names: { readonly read: string; readonly pathKey: string; readonly shell: string }): RawToolCall {
  if (action.kind === "raw") return { name: action.name, args: action.args };
  if (action.kind === "shell") return { name: action.tool ?? names.shell, args: { command: action.command, description: "Run the scripted command" } };
  const name = bentName(names.read, action.name);
  if (action.args !== undefined) return { name, args: VARIANT_ARGS[action.args] };
  const args: Record<string, unknown> = { [names.pathKey]: `${work.replace(/\/+$/, "")}/${action.file}` };
  if (action.offset !== undefined) args.offset = action.offset;
  if (action.limit !== undefined) args.limit = action.limit;
  return { name, args: ordered(args, action.keysReversed) };
}

const VARIANT_ARGS: Readonly<Record<ArgsVariant, unknown>> = { missing: undefined, null: null, empty: {} };

/** The runtime's tool name as a probe bends it. */
export function bentName(name: string, variant: NameVariant | undefined): string {
  if (variant === "padded") return ` ${name} `;
  if (variant === "capitalized") return name.replace(/(^|_)([a-z])/g, (_m, sep: string, c: string) => `${sep}${c.toUpperCase()}`);
  return name;
}

/** Args with keys in reverse order, for probes that ask whether key order matters. */
export function ordered(args: Record<string, unknown>, reversed: boolean | undefined): Record<string, unknown> {
  if (reversed !== true) return args;
  return Object.fromEntries(Object.entries(args).reverse());
}
