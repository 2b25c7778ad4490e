// What a guard would have done to a recorded session. It is open-loop and counterfactual: the
// recorded agent never saw our verdicts, so everything after the first block or stop of a run is
// counted as "would have been cut" (those calls and their tokens, with the simulator's token
// model), and nothing after it is judged as if the agent had reacted.
import type { ResolvedConfig } from "../../models/config.js";
import type { ToolEvent } from "../../models/events.js";
import { normalizeRunId } from "../../models/normalize.js";
import { tokensOf } from "../sim/tokens.js";
import { share } from "../tune/metrics.js";
import { runTarget, type Target } from "../targets/target.js";
import type { RecordedSession } from "./recorded.js";

export interface SessionVerdicts {
  readonly id: string;
  readonly label: RecordedSession["label"];
  readonly calls: number;
  readonly tokens: number;
  readonly warned: boolean;
  readonly blocked: boolean;
  readonly aborted: boolean;
  /** Calls (and their results' tokens) from the first block or stop of a run to that run's end. */
  readonly cutCalls: number;
  readonly cutTokens: number;
}

export function replayOpenLoop(target: Target, config: ResolvedConfig, session: RecordedSession): SessionVerdicts {
  const outputs = runTarget(target, config, session.events);
  const cutFrom = new Map<string, number>(); // run -> index of its first block or stop
  let warned = false;
  let blocked = false;
  let aborted = false;
  for (const o of outputs) {
    if (o.kind === "call" && o.verdict === "warning") warned = true;
    const stops = (o.kind === "call" && o.verdict === "critical") || o.kind === "abort";
    if (o.kind === "call" && o.verdict === "critical") blocked = true;
    if (o.kind === "abort") aborted = true;
    if (stops && !cutFrom.has(o.run)) cutFrom.set(o.run, o.index);
  }
  let calls = 0;
  let tokens = 0;
  let cutCalls = 0;
  let cutTokens = 0;
  session.events.forEach((event: ToolEvent, index) => {
    if (event.type === "compaction") return;
    const cost = event.type === "call" ? tokensOf(event.params) : tokensOf("error" in event && event.error !== undefined ? event.error : event.result);
    if (event.type === "call") calls++;
    tokens += cost;
    const from = cutFrom.get(normalizeRunId(event.runId));
    if (from !== undefined && index >= from) {
      if (event.type === "call") cutCalls++;
      cutTokens += cost;
    }
  });
  return { id: session.id, label: session.label, calls, tokens, warned, blocked, aborted, cutCalls, cutTokens };
}

export interface SessionTotals {
  readonly sessions: number;
  readonly warnedShare: number;
  /** Warned, blocked or stopped. */
  readonly flaggedShare: number;
  readonly blockedShare: number;
  readonly abortedShare: number;
  /** Blocked or stopped. */
  readonly stoppedShare: number;
  readonly cutCalls: number;
  readonly cutTokens: number;
  readonly cutCallsShare: number;
  readonly cutTokensShare: number;
  readonly byLabel: Readonly<Record<string, { readonly sessions: number; readonly flagged: number; readonly stopped: number }>>;
}


export function sessionTotals(verdicts: readonly SessionVerdicts[]): SessionTotals {
  const n = verdicts.length;
  const calls = verdicts.reduce((a, v) => a + v.calls, 0);
  const tokens = verdicts.reduce((a, v) => a + v.tokens, 0);
  const byLabel: Record<string, { sessions: number; flagged: number; stopped: number }> = {};
  for (const v of verdicts) {
    const entry = (byLabel[v.label] ??= { sessions: 0, flagged: 0, stopped: 0 });
    entry.sessions++;
    if (v.warned || v.blocked || v.aborted) entry.flagged++;
    if (v.blocked || v.aborted) entry.stopped++;
  }
  return {
    sessions: n,
    warnedShare: share(verdicts.filter((v) => v.warned).length, n),
    flaggedShare: share(verdicts.filter((v) => v.warned || v.blocked || v.aborted).length, n),
    blockedShare: share(verdicts.filter((v) => v.blocked).length, n),
    abortedShare: share(verdicts.filter((v) => v.aborted).length, n),
    stoppedShare: share(verdicts.filter((v) => v.blocked || v.aborted).length, n),
    cutCalls: verdicts.reduce((a, v) => a + v.cutCalls, 0),
    cutTokens: verdicts.reduce((a, v) => a + v.cutTokens, 0),
    cutCallsShare: share(verdicts.reduce((a, v) => a + v.cutCalls, 0), calls),
    cutTokensShare: share(verdicts.reduce((a, v) => a + v.cutTokens, 0), tokens),
    byLabel,
  };
}
