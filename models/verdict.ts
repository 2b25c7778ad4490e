// SPEC E3 and D3: what a call is told before it runs.

export type Detector =
  | "unknown_tool_repeat"
  | "global_circuit_breaker"
  | "known_poll_no_progress"
  | "ping_pong"
  | "generic_repeat";

export type Level = "warning" | "critical";

export interface Finding {
  readonly level: Level;
  readonly detector: Detector;
  readonly count: number;
  readonly warningKey: string;
  readonly message: string;
}

/** SPEC E4: the result a blocked call gets instead of running. */
export function loopVetoResult(message: string): {
  content: { type: "text"; text: string }[];
  details: { status: "blocked"; deniedReason: "tool-loop"; reason: string };
} {
  return {
    content: [{ type: "text", text: message }],
    details: { status: "blocked", deniedReason: "tool-loop", reason: message },
  };
}
