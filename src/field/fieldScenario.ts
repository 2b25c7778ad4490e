// A field scenario: one failure a user reported in a public thread, as a trace that replays on
// every target, with the thread's metadata and what a correct guard would have done, written as a
// predicate on the outputs (so "has the reported failure" and "fixed" are computed, not claimed).

export const FIELD_SCHEMA = "loopsim/field@1";

/** What the thread reports: a loop the guard let run, a stop it should not have made, a count that
 * restarted after a block, or an intervention the model never saw. */
export const FIELD_KINDS = ["missed-loop", "wrong-stop", "counter-reset", "silent-to-model"] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];

/** One tool call of the trace: its outcome is a result, an error text, or none at all. */
export interface FieldCall {
  readonly tool: string;
  readonly args?: unknown;
  readonly result?: unknown;
  readonly error?: unknown;
  /** false: the call's outcome never reaches the guard (a harness-run tool, an interrupted call). */
  readonly outcome?: boolean;
}

/**
 * One item of the trace. `{i}` in any string of a call is replaced by the index (1-based) of the
 * nearest repeat around it, so a changing argument or result is written once, deterministically.
 */
export type FieldStep =
  | (FieldCall & { readonly repeat?: number })
  | { readonly parallel: readonly FieldCall[]; readonly repeat?: number }
  | { readonly group: readonly FieldStep[]; readonly repeat?: number }
  | { readonly compaction: true }
  | { readonly prompt: true };

/** What a correct guard does on the trace; every key given must hold. Calls are numbered from 1. */
export interface FieldExpectation {
  /** The guard stops the loop (blocks a call or ends the run) at or before this call. */
  readonly stopsBy?: number;
  /** No call after this one runs (each is blocked, or the run has ended): no count restarts. */
  readonly runsNothingAfter?: number;
  /** The run is ended (not only the call blocked) at or before this call. */
  readonly endsRunBy?: number;
  /** The guard never blocks a call nor ends the run (warnings are allowed). */
  readonly neverStops?: boolean;
  /** The guard never flags anything: no warning (seen or not), no block, no stop. */
  readonly neverFlags?: boolean;
  /** The model is told (a warning it sees, or a block's message) at or before this call. */
  readonly tellsModelBy?: number;
}

/** What a target must be able to show for the scenario to be judged on it. */
export const FIELD_NEEDS = ["warning-delivery", "model-text", "runtime-tools"] as const;
export type FieldNeed = (typeof FIELD_NEEDS)[number];

export interface FieldScenario {
  readonly schema: typeof FIELD_SCHEMA;
  readonly id: string;
  readonly title: string;
  readonly url: string;
  /** The runtime the thread is about: openclaw, gemini-cli, qwen-code, opencode, roo-code, ... */
  readonly runtime: string;
  /** The version reported against (or assumed, see reportedAs); null when nothing fits. */
  readonly reportedVersion: string | null;
  /** What the thread says about the version, in its words. */
  readonly reportedAs: string;
  /** The release that fixed it, when the thread or the release notes say; null otherwise. */
  readonly fixedIn: string | null;
  /** What the thread or the release notes say of a fix (a PR, a release), in their words. */
  readonly fixedAs?: string;
  readonly kind: FieldKind;
  /** The reported behaviour, in short. */
  readonly reported: string;
  readonly config: unknown;
  /** What the thread says of its config, in its words, when it says anything (whether loop
   * detection was on, which thresholds). Absent: `config` is assumed, and an OpenClaw report is
   * judged with the default config and with loop detection enabled as well. */
  readonly configStated?: string;
  /** The product the thread reports, when it is not the runtime's CLI or package (e.g. "Cline VS
   * Code extension 3.75"): a CLI run in its place is labelled as standing in for it. */
  readonly reportedProduct?: string;
  /** Where the predicate's bounds come from when they are a rule a fix PR introduced rather than
   * what the runtime's own guard does (e.g. "PR cline/cline#9933: warn at 3, stop at 5"). */
  readonly ruleFrom?: string;
  readonly trace: { readonly description: string; readonly steps: readonly FieldStep[] };
  readonly expected: FieldExpectation & { readonly text: string };
  readonly needs?: readonly FieldNeed[];
  /** Where loopsim's trace differs from the thread's account, and why. */
  readonly adjusted?: string;
  readonly confidence: string;
}
