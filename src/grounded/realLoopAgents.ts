// `--loops real`: the stuck stretches mined from the sessions themselves (src/realLoops/mine.ts),
// beside or instead of injected ones. Each mined stretch is one stuck agent: its session replayed
// up to the stretch's last event, with only that stretch's calls and outcomes labelled stuck, so
// a block or stop inside it is a catch, the loop calls run before it are the delay, and their
// tokens the waste. The session's own agent keeps running whole, with every mined stretch
// labelled stuck, so that a block inside a real loop is not counted as good work stopped.
import type { ToolEvent } from "../../models/events.js";
import { UserError } from "../io/errors.js";
import { minedCalls, stretchesOf, type MinedCall } from "../realLoops/mine.js";
import type { LabelledEvent } from "./injection.js";
import type { SessionAgentSpec } from "./sessionAgent.js";

export const LOOPS_CHOICES = ["injected", "real"] as const;
export type LoopsChoice = (typeof LOOPS_CHOICES)[number];

/** The family every mined stretch's agent is counted under. */
export const REAL_FAMILY = "real";

/**
 * Stretches of one session run as agents, at most: worker threads deal a fixed number of agents
 * per session. Stretches past it are left out of the closed-loop rows, as the report says ("at
 * most 8 a session"): one session of the public datasets holds 9 (nano-cam sphinx-8551, a run
 * of <format_example> actions), so those rows run 1 fewer stretch than the catalogue holds, and
 * their header says both (stretchesRunText); the real-outcomes rows (realOutcomes.ts) grade every
 * stretch.
 */
export const MAX_REAL_PER_SESSION = 8;

export const REAL_LOOPS_SUMMARY =
  "stretches mined from the sessions by `loopsim loops` (a definition of no guard's: repeats with nothing new, runs of one failing command, alternations; see reports/real-loops/); each runs as its session replayed up to the stretch's end, only that stretch labelled stuck";

/**
 * The stretches run as agents, said with the catalogue they come from when the run counted it:
 * "106 of the catalogue's 107 stretches (at most 8 a session)". A session holding more than the cap
 * runs only its first ones, so the two differ, and a report that gave only the first would read as
 * a smaller catalogue.
 */
export function stretchesRunText(run: number, loops: { readonly maxPerSession: number; readonly catalogue?: number }, noun = "stretch"): string {
  const of = loops.catalogue === undefined ? "" : ` of the catalogue's ${loops.catalogue}`;
  const last = loops.catalogue ?? run;
  return `${run}${of} ${last === 1 ? noun : `${noun}es`} (at most ${loops.maxPerSession} a session)`;
}

export function parseLoops(value: string): LoopsChoice {
  if (!(LOOPS_CHOICES as readonly string[]).includes(value)) throw new UserError(`--loops ${value}: use real (the stuck stretches mined from the sessions) or injected (only --inject's, the default)`);
  return value as LoopsChoice;
}

/** Each mined stretch of the session: the positions of its events, and its last event. */
function stretchEvents(events: readonly ToolEvent[]): { positions: Set<number>; last: number }[] {
  const calls = minedCalls(events);
  return stretchesOf(calls).map((s) => {
    const positions = new Set<number>();
    for (let c = s.firstCall; c <= s.lastCall; c++) for (const p of (calls[c] as MinedCall).events) positions.add(p);
    return { positions, last: s.lastEvent };
  });
}

type Span = ReturnType<typeof stretchEvents>[number];

/** The session's own script with every mined stretch labelled stuck (the rest progressing). */
function labelled(events: readonly ToolEvent[], spans: readonly Span[]): LabelledEvent[] {
  const inside = new Set<number>();
  for (const span of spans) for (const p of span.positions) inside.add(p);
  return events.map((event, i) => ({ event, inLoop: inside.has(i) }));
}

/** One stuck agent per mined stretch (the first MAX_REAL_PER_SESSION of them). */
function stuckAgents(session: { readonly id: string; readonly events: readonly ToolEvent[] }, spans: readonly Span[], seed: number): SessionAgentSpec[] {
  return spans.slice(0, MAX_REAL_PER_SESSION).map((span, k) => ({
    family: REAL_FAMILY,
    label: "stuck",
    name: `${session.id}:real:${k}`,
    seed,
    script: session.events.slice(0, span.last + 1).map((event, i) => ({ event, inLoop: span.positions.has(i) })),
  }));
}

/**
 * What `--loops real` makes of one session, from one mining of it: its own script with every
 * mined stretch labelled stuck, one stuck agent per stretch (the first MAX_REAL_PER_SESSION), and
 * how many stretches the miner found (the catalogue's share of the session, those past the cap
 * included). Mining is most of the work, so it is done once for the three.
 */
export function realLoopsOf(session: { readonly id: string; readonly events: readonly ToolEvent[] }, seed: number): { readonly script: LabelledEvent[]; readonly agents: SessionAgentSpec[]; readonly mined: number } {
  const spans = stretchEvents(session.events);
  return { script: labelled(session.events, spans), agents: stuckAgents(session, spans, seed), mined: spans.length };
}
