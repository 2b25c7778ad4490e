// Which recorded sessions a whole-trace target (a runtime's own CLI, seconds a session) runs in
// the real-outcomes figures: every session holding a mined stuck stretch, so its catch rate rests
// on every stretch as an in-process guard's does, and a seeded sample of `size` of the labelled
// (resolved or unresolved) sessions, on which alone its share of runs stopped rests. Sessions
// holding a stretch are NOT all counted there: they would over-weight runs that went wrong, and
// the stopped shares must estimate the share over every labelled run.
//
// The sample is a bottom-k draw: each labelled session gets a key drawn from the seed and its
// reference alone, and the `size` smallest keys are the sample. So the draw is the same whatever
// the order the sessions stream in, needs no count known in advance, and keeps at most `size`
// sessions besides those holding a stretch in memory while the stream runs.
import type { ToolEvent } from "../../models/events.js";
import { makeRng } from "../sim/rng.js";
import type { SessionLabel } from "../sessions/recorded.js";

/** The sample's size and the seed that draws it (compare's --seed). */
export interface WholeTraceSampling {
  readonly size: number;
  readonly seed: number;
}

/** A session kept for the whole-trace targets (S: a stretch as the caller mined it). */
export interface KeptSession<S> {
  /** Its position in the stream: the order it is run in. */
  readonly at: number;
  readonly id: string;
  readonly label: SessionLabel;
  readonly events: readonly ToolEvent[];
  readonly stretches: readonly S[];
}

interface Drawn {
  readonly key: number;
  readonly id: string;
  readonly at: number;
}

const before = (a: Drawn, b: Drawn): boolean => a.key < b.key || (a.key === b.key && a.id < b.id);

export class WholeTraceSample<S> {
  private readonly kept = new Map<number, KeptSession<S>>();
  /** The `size` smallest keys so far, smallest first. */
  private drawn: Drawn[] = [];
  private labelled = 0;

  constructor(private readonly sampling: WholeTraceSampling) {}

  offer(session: KeptSession<S>): void {
    const holdsStretch = session.stretches.length > 0;
    if (holdsStretch) this.kept.set(session.at, session);
    if (session.label !== "resolved" && session.label !== "unresolved") return;
    this.labelled++;
    if (this.sampling.size === 0) return;
    const mine: Drawn = { key: makeRng(`whole-trace-sample/${this.sampling.seed}/${session.id}`).next(), id: session.id, at: session.at };
    const last = this.drawn[this.drawn.length - 1];
    if (this.drawn.length === this.sampling.size && last !== undefined && !before(mine, last)) return;
    const place = this.drawn.findIndex((d) => before(mine, d));
    this.drawn.splice(place === -1 ? this.drawn.length : place, 0, mine);
    this.kept.set(session.at, session);
    if (this.drawn.length > this.sampling.size) {
      const out = this.drawn.pop() as Drawn;
      if ((this.kept.get(out.at)?.stretches.length ?? 0) === 0) this.kept.delete(out.at);
    }
  }

  /** The sessions to run, in stream order; the positions of the sampled ones; how many were labelled. */
  finish(): { sessions: KeptSession<S>[]; sampled: ReadonlySet<number>; labelled: number } {
    return { sessions: [...this.kept.values()].sort((a, b) => a.at - b.at), sampled: new Set(this.drawn.map((d) => d.at)), labelled: this.labelled };
  }
}
