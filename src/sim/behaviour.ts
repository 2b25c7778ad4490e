// The contract between the simulator and a behaviour family: the agent proposes calls, the
// world answers the ones that run, and the agent is told when it heeded the guardrail, when the
// context was compacted and when its run was aborted.

export type FamilyLabel = "stuck" | "progressing" | "recovering";

export interface PlannedCall {
  readonly runId: string;
  readonly tool: string;
  readonly params: unknown;
  /** Ground truth for the tuning metrics: this call is part of a loop that makes no progress. */
  readonly inLoop: boolean;
  /** Model text the response streams before its call: message chunks, in order. */
  readonly says?: readonly string[];
  /** The response ends after its text: no call follows (tool and params are not used). */
  readonly callless?: boolean;
}

export interface ToolResponse {
  readonly result?: unknown;
  readonly error?: string;
}

export interface AgentBehaviour {
  /** The next call the agent makes, or undefined when it is done. */
  next(): PlannedCall | undefined;
  /** The world's answer to a call that ran. */
  respond(call: PlannedCall): ToolResponse;
  /** The agent changes approach: it heeded a warning, or gave up on a blocked call. */
  changeApproach(): void;
  /** The context was compacted; what the agent had learnt in it is gone. */
  compacted(): void;
  /** The run was aborted by the post-compaction guard. */
  runAborted(runId: string): void;
}

export interface Family {
  readonly name: string;
  readonly label: FamilyLabel;
  readonly summary: string;
  /** Left out of the preset populations and of tables that list every family (opt in by name). */
  readonly optIn?: boolean;
  create(world: import("./rng.js").Rng): AgentBehaviour;
}

export const text = (body: string, details?: Record<string, unknown>): Record<string, unknown> => ({
  content: [{ type: "text", text: body }],
  ...(details === undefined ? {} : { details }),
});
