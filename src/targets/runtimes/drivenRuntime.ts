// A runtime driven end to end: its own published CLI, started headless against loopsim's scripted
// model, running its own tools in a scratch folder. What a driven runtime is given (a script of
// prompts, model responses and file changes) and what is observed of it (which calls ran, which
// were refused, where the run stopped, what warnings reached the model) live here, so that the
// probes above can compare it with a model without knowing how each CLI is started.

/** A runtime-neutral action; each runtime names the tool and its args its own way. */
export type ProbeAction =
  | { readonly kind: "read"; readonly file: string; readonly offset?: number; readonly limit?: number; readonly keysReversed?: boolean }
  | { readonly kind: "shell"; readonly command: string };

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

/** What became of a scripted call. */
export type CallFate = "ran" | "refused" | "not-run";

export interface PromptObservation {
  readonly fates: Readonly<Record<string, CallFate>>;
  /** The 0-based step during which the guard stopped the prompt; null when it ran to the end. */
  readonly stoppedAtStep: number | null;
  readonly stopMessage?: string;
  /** Warnings the runtime put into the conversation, after which step. */
  readonly warnings: readonly { readonly afterStep: number; readonly text: string }[];
}

export type DrivenObservation = { readonly ok: true; readonly prompts: readonly PromptObservation[] } | { readonly ok: false; readonly error: string };

export interface ToolNaming {
  /** The runtime's tool call for an action, with absolute paths inside the scratch folder. */
  toolCall(action: ProbeAction, workDir: string): { readonly name: string; readonly args: Record<string, unknown> };
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
  /** Called with the runtime's process id once it runs, per prompt (tests kill it mid-run). */
  readonly onStarted?: (pid: number, prompt: number) => void;
}

/**
 * The tool call of a probe action in a runtime's own vocabulary: its read tool with the file's
 * absolute path under `pathKey` (plus offset and limit), and its shell tool with the command.
 */
export function namedToolCall(action: ProbeAction, work: string, names: { readonly read: string; readonly pathKey: string; readonly shell: string }): { name: string; args: Record<string, unknown> } {
  if (action.kind === "shell") return { name: names.shell, args: { command: action.command, description: "Run the scripted command" } };
  const args: Record<string, unknown> = { [names.pathKey]: `${work.replace(/\/+$/, "")}/${action.file}` };
  if (action.offset !== undefined) args.offset = action.offset;
  if (action.limit !== undefined) args.limit = action.limit;
  return { name: names.read, args: ordered(args, action.keysReversed) };
}

/** Args with keys in reverse order, for probes that ask whether key order matters. */
export function ordered(args: Record<string, unknown>, reversed: boolean | undefined): Record<string, unknown> {
  if (reversed !== true) return args;
  return Object.fromEntries(Object.entries(args).reverse());
}
