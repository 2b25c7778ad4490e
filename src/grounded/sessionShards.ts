// Shards by session (`--shard I/N --by sessions`): each shard runs its slice of the sessions
// (sessions/recorded.ts sliceOf) under every config or guard and writes what adds up across
// shards: for recorded sessions replayed open-loop, each guard's integer tally; for a grounded
// population, every agent's packed results with its session's place in the whole listing. The
// merge adds the tallies and puts the agents back in the listing's order, and only then computes
// shares, medians and intervals, so the merged report is the unsharded one byte for byte.
import { SessionTally, type SessionCounts, type SessionTotals } from "../sessions/openLoop.js";
import { addReads, type ReadCounts, type RecordedRead } from "../sessions/recorded.js";
import { UserError } from "../io/errors.js";
import type { Shard } from "../io/shardSpec.js";
import { GroundedTally, type GroundedEvaluation, type GroundedPacked } from "./groundedPopulation.js";

/** What one shard by session found; every field adds up across shards. */
export interface SessionEvidence {
  /** Recorded sessions replayed open-loop: what was read, and each guard's tally, in guard order. */
  readonly recorded?: { readonly read: ReadCounts; readonly perGuard: readonly SessionCounts[] };
  /** A grounded population: what was read, and every agent's packed results. */
  readonly grounded?: { readonly read: ReadCounts; readonly packed: GroundedPacked };
}

/** A read as a shard writes it: the parts that add up (labels matched are reported by each shard). */
export function readCounts(read: RecordedRead): ReadCounts {
  return { count: read.count, byLabel: read.byLabel, bad: read.bad };
}

/** The shards' evidence as one: totals per guard, and the grounded metrics per guard (by index). */
export function mergeEvidence(parts: readonly SessionEvidence[], guards: readonly { readonly index: number }[]): { recorded?: { read: RecordedRead; perGuard: SessionTotals[] }; grounded?: GroundedEvaluation } {
  const recorded = parts.flatMap((p) => (p.recorded === undefined ? [] : [p.recorded]));
  const grounded = parts.flatMap((p) => (p.grounded === undefined ? [] : [p.grounded]));
  const out: { recorded?: { read: RecordedRead; perGuard: SessionTotals[] }; grounded?: GroundedEvaluation } = {};
  if (recorded.length > 0) {
    const perGuard = guards.map((_, k) => {
      const tally = new SessionTally();
      for (const part of recorded) tally.addCounts(part.perGuard[k] as SessionCounts);
      return tally.totals();
    });
    out.recorded = { read: addReads(recorded.map((r) => r.read)), perGuard };
  }
  if (grounded.length > 0) {
    const tally = new GroundedTally(guards);
    tally.addPacked(grounded.map((g) => g.packed));
    out.grounded = tally.finish(addReads(grounded.map((g) => g.read)));
  }
  return out;
}

/** The shard's slice of the sessions when it is sharded by session (and there are sessions to slice). */
export function sessionSlice(by: string | undefined, shard: Shard | undefined, hasSessions: boolean): Shard | undefined {
  if (by === undefined || by === "configs") return undefined;
  if (by !== "sessions") throw new UserError(`--by ${by}: expected configs or sessions`);
  if (shard === undefined) throw new UserError("--by sessions goes with --shard I/N (or auto)");
  if (!hasSessions) throw new UserError("--by sessions needs sessions to slice: --sessions PATH or --population sessions:PATH");
  return shard;
}

/**
 * A shard by session carries each agent's packed results under the stated reaction only, not
 * under the grid's other reaction models, so its merge could not give the reaction-sensitivity
 * section: refused, before anything runs, rather than merged into a report without it.
 */
export function refuseGridBySession(slice: Shard | undefined, grounding: { readonly reactionGrid?: unknown } | undefined): void {
  if (slice !== undefined && grounding?.reactionGrid !== undefined) throw new UserError("--by sessions with --reaction-grid: not yet; pass --reaction-grid none");
}
