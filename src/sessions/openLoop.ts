// What a guard would have done to a recorded session. It is open-loop and counterfactual: the
// recorded agent never saw our verdicts, so everything after the first block or stop of a run is
// counted as "would have been cut" (those calls and their tokens, with the simulator's token
// model), and nothing after it is judged as if the agent had reacted.
import { wilson, type Interval } from "../stats/interval.js";
import type { ResolvedConfig } from "../../models/config.js";
import type { ToolEvent } from "../../models/events.js";
import { normalizeRunId } from "../../models/normalize.js";
import { eventTokens } from "../sim/tokens.js";
import { share } from "../evaluation/metrics.js";
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
    const cost = eventTokens(event);
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
  /** 95% Wilson intervals of the session shares, with the number of sessions. */
  readonly intervals: { readonly flaggedShare: Interval; readonly stoppedShare: Interval };
}


/** A tally's integer sums, as a shard by session writes them. */
export interface SessionCounts {
  readonly n: number;
  readonly calls: number;
  readonly tokens: number;
  readonly warned: number;
  readonly flagged: number;
  readonly blocked: number;
  readonly aborted: number;
  readonly stopped: number;
  readonly cutCalls: number;
  readonly cutTokens: number;
  readonly byLabel: Readonly<Record<string, { readonly sessions: number; readonly flagged: number; readonly stopped: number }>>;
}

/**
 * The totals of many sessions' verdicts, added one session at a time: a replay over any number of
 * sessions keeps one tally per guard, never the sessions' verdicts. Every sum is an integer, so
 * the order sessions are added in does not change a byte.
 */
export class SessionTally {
  private n = 0;
  private calls = 0;
  private tokens = 0;
  private warned = 0;
  private flagged = 0;
  private blocked = 0;
  private aborted = 0;
  private stopped = 0;
  private cutCalls = 0;
  private cutTokens = 0;
  private readonly byLabel: Record<string, { sessions: number; flagged: number; stopped: number }> = {};

  add(v: SessionVerdicts): void {
    this.n++;
    this.calls += v.calls;
    this.tokens += v.tokens;
    const flagged = v.warned || v.blocked || v.aborted;
    const stopped = v.blocked || v.aborted;
    if (v.warned) this.warned++;
    if (flagged) this.flagged++;
    if (v.blocked) this.blocked++;
    if (v.aborted) this.aborted++;
    if (stopped) this.stopped++;
    this.cutCalls += v.cutCalls;
    this.cutTokens += v.cutTokens;
    const entry = (this.byLabel[v.label] ??= { sessions: 0, flagged: 0, stopped: 0 });
    entry.sessions++;
    if (flagged) entry.flagged++;
    if (stopped) entry.stopped++;
  }

  /** The integer sums themselves, which a shard by session writes and the merge adds. */
  counts(): SessionCounts {
    const { n, calls, tokens, warned, flagged, blocked, aborted, stopped, cutCalls, cutTokens } = this;
    return { n, calls, tokens, warned, flagged, blocked, aborted, stopped, cutCalls, cutTokens, byLabel: Object.fromEntries(Object.keys(this.byLabel).sort().map((k) => [k, { ...(this.byLabel[k] as { sessions: number; flagged: number; stopped: number }) }])) };
  }

  /** Adds the sums of another tally (a shard's): the same as adding its sessions one by one. */
  addCounts(c: SessionCounts): void {
    this.n += c.n;
    this.calls += c.calls;
    this.tokens += c.tokens;
    this.warned += c.warned;
    this.flagged += c.flagged;
    this.blocked += c.blocked;
    this.aborted += c.aborted;
    this.stopped += c.stopped;
    this.cutCalls += c.cutCalls;
    this.cutTokens += c.cutTokens;
    for (const [label, l] of Object.entries(c.byLabel)) {
      const entry = (this.byLabel[label] ??= { sessions: 0, flagged: 0, stopped: 0 });
      entry.sessions += l.sessions;
      entry.flagged += l.flagged;
      entry.stopped += l.stopped;
    }
  }

  totals(): SessionTotals {
    const n = this.n;
    // Labels in a fixed order, whatever order the sessions came in.
    const byLabel = Object.fromEntries(Object.keys(this.byLabel).sort().map((k) => [k, this.byLabel[k] as { sessions: number; flagged: number; stopped: number }]));
    return {
      sessions: n,
      warnedShare: share(this.warned, n),
      flaggedShare: share(this.flagged, n),
      blockedShare: share(this.blocked, n),
      abortedShare: share(this.aborted, n),
      stoppedShare: share(this.stopped, n),
      cutCalls: this.cutCalls,
      cutTokens: this.cutTokens,
      cutCallsShare: share(this.cutCalls, this.calls),
      cutTokensShare: share(this.cutTokens, this.tokens),
      byLabel,
      intervals: { flaggedShare: wilson(this.flagged, n), stoppedShare: wilson(this.stopped, n) },
    };
  }
}
