// Shards by session (`--shard I/N --by sessions`): each shard runs its slice of the sessions
// (sessions/recorded.ts sliceOf) under every config or guard and writes what adds up across
// shards: for recorded sessions replayed open-loop, each guard's integer tally; for a grounded
// population, every agent's packed results with its session's place in the whole listing. The
// merge adds the tallies and puts the agents back in the listing's order, and only then computes
// shares, medians and intervals, so the merged report is the unsharded one byte for byte.
import { SessionTally, type SessionCounts, type SessionTotals } from "../sessions/openLoop.js";
import { addReads, type ReadCounts, type RecordedRead } from "../sessions/recorded.js";
import { UserError } from "../io/errors.js";
import { finishGrid, GroundedTally, type GroundedEvaluation, type GroundedPacked, type GroundedPopulation } from "./groundedPopulation.js";
import { gridPoints } from "./reactionGrid.js";

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
export function mergeEvidence(parts: readonly SessionEvidence[], guards: readonly { readonly index: number }[], grounding?: GroundedPopulation): { recorded?: { read: RecordedRead; perGuard: SessionTotals[] }; grounded?: GroundedEvaluation } {
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
    const read = addReads(grounded.map((g) => g.read));
    const grid = grounding?.reactionGrid === undefined ? undefined : gridPoints(grounding.reaction, grounding.reactionGrid);
    if (grid === undefined) {
      const tally = new GroundedTally(guards);
      tally.addPacked(grounded.map((g) => g.packed));
      out.grounded = tally.finish(read);
    } else {
      // Each point of the reaction grid is a tally of its own, added up as point 0's is.
      const tallies = grid.map((_, p) => {
        const tally = new GroundedTally(guards);
        tally.addPacked(grounded.map((g) => (p === 0 ? g.packed : { ...g.packed, perGuard: gridPart(g.packed, p) })));
        return tally;
      });
      const runs = guards.map((_, k) => ({
        made: grounded.reduce((sum, g) => sum + ((g.packed.grid?.runs[k])?.made ?? 0), 0),
        reused: grounded.reduce((sum, g) => sum + ((g.packed.grid?.runs[k])?.reused ?? 0), 0),
      }));
      out.grounded = finishGrid(tallies, grid, read, runs);
    }
  }
  return out;
}

/** A part's packed results at grid point `p` (> 0); a part written without the grid is refused. */
function gridPart(packed: GroundedPacked, p: number): GroundedPacked["perGuard"] {
  const at = packed.grid?.points[p - 1];
  if (at === undefined) throw new UserError(`a part has no results at reaction grid point ${p}: its shards were run with another --reaction-grid`);
  return at;
}
