// The reaction odds, fitted to what recorded agents did when a real guard spoke to them. Where a
// session holds a guard's own intervention (an OpenClaw loop warning or block in a tool result, a
// Gemini CLI "loop detected" message, ...), the agent's next call says how it reacted: the same
// call again (its tool and args, digits aside: sessionAgent's shapeKey) is going on, another call
// is skipping past (changing course), no further call is ending. The odds per signal are the
// shares, with Wilson intervals over the interventions seen. Too few interventions fit nothing:
// `--reaction fitted` then refuses and says how many there were, instead of inventing odds.
import type { CallEvent, ToolEvent } from "../../models/events.js";
import { UserError } from "../io/errors.js";
import { forEachRecordedSession, type ReadOptions } from "../sessions/recorded.js";
import { wilson, type Interval } from "../stats/interval.js";
import { DEFAULT_SESSION_REACTION, REACTIONS, SIGNALS, reactionSpec, type Reaction, type SessionReaction, type Signal } from "./reaction.js";
import { shapeKey } from "./sessionAgent.js";

/** How each runtime's guard words its interventions, as its source writes them (../shared/targets). */
export const INTERVENTION_TEXTS: readonly { readonly runtime: string; readonly signal: Signal; readonly pattern: RegExp }[] = [
  { runtime: "openclaw", signal: "stop", pattern: /CRITICAL: compaction did not break the loop|compaction_loop_persisted|global circuit breaker tripped/ },
  { runtime: "openclaw", signal: "block", pattern: /CRITICAL: .{0,200}(This call is blocked|no progress|identical outcomes)/ },
  { runtime: "openclaw", signal: "warning", pattern: /WARNING: .{0,200}(repeating it risks identical outcomes|Change approach before it is blocked|polling loop|ping-pong loop)/ },
  { runtime: "gemini-cli", signal: "stop", pattern: /Loop detected, stopping execution/ },
  { runtime: "gemini-cli", signal: "block", pattern: /Potential loop detected\. Details:/ },
];

/** Enough interventions of a signal to fit its odds (a Wilson interval of about +-20 points at worst). */
export const MIN_INTERVENTIONS = 20;

export interface Intervention {
  readonly session: string;
  readonly runtime: string;
  readonly signal: Signal;
  readonly reaction: Reaction;
}

const textOf = (e: ToolEvent): string => (e.type === "outcome" ? (JSON.stringify(e.result ?? e.error ?? "") ?? "") : "");

/** Each intervention in a session's events, with what the agent did next. */
export function interventionsIn(session: string, events: readonly ToolEvent[]): Intervention[] {
  const found: Intervention[] = [];
  let lastCall: CallEvent | undefined;
  events.forEach((e, i) => {
    if (e.type === "call") lastCall = e;
    if (e.type !== "outcome" || lastCall === undefined) return;
    const text = textOf(e);
    const known = INTERVENTION_TEXTS.find((t) => t.pattern.test(text));
    if (known === undefined) return;
    const next = events.slice(i + 1).find((x): x is CallEvent => x.type === "call");
    const reaction: Reaction = next === undefined ? "end" : shapeKey(next) === shapeKey(lastCall) ? "goOn" : "skip";
    found.push({ session, runtime: known.runtime, signal: known.signal, reaction });
  });
  return found;
}

export interface SignalFit {
  readonly n: number;
  readonly counts: Readonly<Record<Reaction, number>>;
  /** Shares with 95% Wilson intervals; absent when n is 0. */
  readonly odds?: Readonly<Record<Reaction, { readonly share: number; readonly interval: Interval }>>;
  /** n >= MIN_INTERVENTIONS. */
  readonly usable: boolean;
}

/** The reaction odds fitted to what recorded agents did after a real guard's warning, block or stop, with what they rest on. */
export interface ReactionFit {
  readonly paths: readonly string[];
  readonly sessions: number;
  readonly sessionsWithInterventions: number;
  readonly interventions: number;
  readonly bySignal: Readonly<Record<Signal, SignalFit>>;
  readonly minimum: number;
  readonly patterns: readonly string[];
}

export async function fitReaction(paths: readonly string[], options: ReadOptions = {}): Promise<ReactionFit> {
  const all: Intervention[] = [];
  const sessionsWith = new Set<string>();
  const read = await forEachRecordedSession(paths, options, (session) => {
    const found = interventionsIn(session.id, session.events);
    if (found.length > 0) sessionsWith.add(session.id);
    all.push(...found);
  });
  const bySignal = Object.fromEntries(
    SIGNALS.map((signal): [Signal, SignalFit] => {
      const mine = all.filter((x) => x.signal === signal);
      const counts = Object.fromEntries(REACTIONS.map((r) => [r, mine.filter((x) => x.reaction === r).length])) as Record<Reaction, number>;
      const n = mine.length;
      const odds = n === 0 ? undefined : (Object.fromEntries(REACTIONS.map((r) => [r, { share: Math.round((counts[r] / n) * 10_000) / 10_000, interval: wilson(counts[r], n) }])) as Record<Reaction, { share: number; interval: Interval }>);
      return [signal, { n, counts, ...(odds === undefined ? {} : { odds }), usable: n >= MIN_INTERVENTIONS }];
    }),
  ) as Record<Signal, SignalFit>;
  return { paths, sessions: read.count, sessionsWithInterventions: sessionsWith.size, interventions: all.length, bySignal, minimum: MIN_INTERVENTIONS, patterns: INTERVENTION_TEXTS.map((t) => `${t.runtime} ${t.signal}: ${t.pattern.source}`) };
}

/** The odds to run with: fitted for warnings and blocks (stops end, as stated), or a user error saying how many interventions there were. */
export function fittedReaction(fit: ReactionFit): SessionReaction {
  const short = (["warning", "block"] as const).filter((s) => !fit.bySignal[s].usable);
  if (short.length > 0) {
    throw new UserError(
      `--reaction fitted: ${fit.sessions} sessions under ${fit.paths.join(" ")} hold ${fit.interventions} guard interventions (${short.map((s) => `${fit.bySignal[s].n} ${s}s`).join(", ")}); fitting needs at least ${fit.minimum} of each, so nothing is fitted. Use the stated odds (leave out --reaction) or state them: --reaction ${reactionSpec(DEFAULT_SESSION_REACTION)}`,
    );
  }
  const odds = (s: Signal) => {
    const o = fit.bySignal[s].odds;
    return o === undefined ? DEFAULT_SESSION_REACTION[s] : { goOn: o.goOn.share, skip: o.skip.share, end: Math.round((1 - o.goOn.share - o.skip.share) * 10_000) / 10_000 };
  };
  return { warning: odds("warning"), block: odds("block"), stop: DEFAULT_SESSION_REACTION.stop };
}

export function reactionFitMarkdown(fit: ReactionFit): string {
  const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;
  const lines = [
    "# loopsim calibrate --fit-reaction: how recorded agents reacted to a guard",
    "",
    `${fit.sessions} sessions read from ${fit.paths.map((p) => `\`${p}\``).join(", ")}; ${fit.interventions} guard interventions found, in ${fit.sessionsWithInterventions} sessions.`,
    "",
    fit.interventions === 0
      ? "No recorded session holds a guard's own intervention, so no reaction odds can be fitted from these sessions: the reaction model stays an assumption (see the reaction-sensitivity sections of the tune and compare reports for what depends on it)."
      : `What the agent did next: the same call again (tool and args, digits aside) is going on, another call is skipping past, no further call is ending. Odds are fitted for a signal seen at least ${fit.minimum} times.`,
    "",
    "| signal | interventions (n) | go on [95%] | skip [95%] | end [95%] | fitted |",
    "|---|---|---|---|---|---|",
    ...SIGNALS.map((s) => {
      const f = fit.bySignal[s];
      const cell = (r: Reaction) => (f.odds === undefined ? "-" : `${pct(f.odds[r].share)} [${pct(f.odds[r].interval.low)}-${pct(f.odds[r].interval.high)}]`);
      return `| ${s} | ${f.n} | ${cell("goOn")} | ${cell("skip")} | ${cell("end")} | ${f.usable ? "yes" : `no (fewer than ${fit.minimum})`} |`;
    }),
    "",
    "Texts recognised as interventions:",
    "",
    ...fit.patterns.map((p) => `- \`${p}\``),
    "",
  ];
  return lines.join("\n");
}
