// Where the real-outcomes figures take their stuck stretches from (`--stretches`): the miner
// (src/realLoops/mine.ts, the default), or the stretches people marked reading sessions whole
// (a judgements file's `sessions` and `heldOut.sessions`, or its held-out readings alone: the
// sessions held out from the rules, which shaped no rule and so judge a rule built from the
// miner's, a candidate, fairly). The miner finds mostly repeated
// failures and misses most of what readers mark on sessions it was not fitted to, so a catch rate
// on mined stretches says little about the loops agents really get into; one on read stretches
// does, on the sessions read. Parsed once, here, at the edge.
import type { ToolEvent } from "../../models/events.js";
import { minedCalls } from "../realLoops/mine.js";
import { loadJudgements, type SessionReading } from "../realLoops/judgements.js";
import { eventTokens } from "../sim/tokens.js";
import { UserError } from "../io/errors.js";
import type { KnownStretch } from "./knownStretch.js";

export type StretchSource =
  | { readonly kind: "mined" }
  | {
      readonly kind: "read";
      readonly file: string;
      /** all: every reading (`sessions` and `heldOut.sessions`); held-out: `heldOut.sessions` alone. */
      readonly readings: "all" | "held-out";
      readonly sessions: ReadonlyMap<string, SessionReading>;
    };

export const STRETCHES_HELP = "with --loops real: where the real-outcomes figures take the stuck stretches from: mined (the miner's, the default), read:FILE (the stretches people marked reading whole sessions: a judgements file's sessions and heldOut.sessions; only those sessions run), or held-out:FILE (its heldOut.sessions alone: sessions held out from the rules, which shaped no rule)";

/** `--stretches VALUE` as a typed source; a user error names the problem. */
export function parseStretchSource(value: string | undefined): StretchSource {
  if (value === undefined || value === "mined") return { kind: "mined" };
  const form = (["read", "held-out"] as const).find((f) => value.startsWith(`${f}:`) && value.length > f.length + 1);
  if (form === undefined) throw new UserError(`--stretches ${value}: use mined (the miner's stretches, the default), read:FILE (a judgements file's readings of whole sessions) or held-out:FILE (its held-out readings alone)`);
  const file = value.slice(form.length + 1);
  const j = loadJudgements(file);
  if (form === "held-out") {
    const sessions = new Map<string, SessionReading>(j.heldOut?.sessions ?? []);
    if (sessions.size === 0) throw new UserError(`--stretches held-out:${file}: the file holds no held-out readings of whole sessions ($.heldOut.sessions, each {calls, stuck: [{from, to, reason}]})`);
    return { kind: "read", file, readings: "held-out", sessions };
  }
  // Both readings: the sessions that shaped the miner's rules and those read after them (no session is in both).
  const sessions = new Map<string, SessionReading>([...j.sessions, ...(j.heldOut?.sessions ?? [])]);
  if (sessions.size === 0) throw new UserError(`--stretches read:${file}: the file holds no readings of whole sessions ($.sessions or $.heldOut.sessions, each {calls, stuck: [{from, to, reason}]})`);
  return { kind: "read", file, readings: "all", sessions };
}

/**
 * A reading's stuck ranges as stretches, calls numbered as the miner numbers them; undefined when
 * the session's call count differs from the reading's (the numbering cannot be trusted then).
 * A stretch is identical when all its calls share one masked call shape, else changing-args.
 */
export function readStretches(events: readonly ToolEvent[], reading: SessionReading): KnownStretch[] | undefined {
  const calls = minedCalls(events);
  if (calls.length !== reading.calls) return undefined;
  return [...reading.stuck]
    .sort((a, b) => a.from - b.from)
    .map((r) => {
      const inside = calls.slice(r.from, r.to + 1);
      const positions = inside.flatMap((c) => c.events);
      return {
        kind: new Set(inside.map((c) => c.shape)).size === 1 ? "identical" : "changing-args",
        firstEvent: Math.min(...positions),
        lastEvent: Math.max(...positions),
        calls: inside.map((c) => ({ at: c.events[0] as number, tokens: c.events.reduce((sum, p) => sum + eventTokens(events[p] as ToolEvent), 0) })),
      };
    });
}
