// The miner's no-new-fact rule (see mine.ts, "no new fact"): runs of calls that each add no new fact
// to what was heard since the last write that took effect. Offline, on a whole session: a run is
// taken once its end is known (the next stale call too far, or a change). The per-call decisions
// (a failure family, a write that never took effect, a write re-sent, an answer heard again) live
// in src/import/facts.ts, which the candidate guard `candidate:no-new-fact:N` shares, so the two
// cannot drift apart.
import { createdFileOf } from "../import/writes.js";
import { asksSomething, correctedRefusal, type FactCall, failureFamily, hearsAgain, knownOnlyByVariable, NEW_FACT_WINDOW, neverTookEffect, resendable, resends, waitPaidOff } from "../import/facts.js";

/** A call as this rule reads it: what it taught, and its position among the session's calls. */
export interface NoNewFactCall extends FactCall {
  readonly index: number;
}

/** How many calls that wrote nothing may sit between two calls that meet the same failure (see noNewFactRuns). */
const BRIDGE_FAILURE = 2;
/** How far a run looks ahead for its next stale call, zooms included. */
const BRIDGE_WINDOW = 5;

/**
 * For each call, whether it adds no new fact to what the calls since the last change (a write
 * that took effect) heard, within NEW_FACT_WINDOW calls, and the earliest such call whose answer
 * it repeats:
 *  - the same failure family again;
 *  - the same masked answer again (a substantial one, or one to the same files or terms);
 *  - an answer whose every line (3 or more characters of text each) was heard before;
 *  - the same empty answer to the same files or quoted terms.
 */
export function staleCalls(calls: readonly NoNewFactCall[], recorded: readonly boolean[]): { stale: boolean[]; source: (number | undefined)[]; zoom: boolean[]; changed: boolean[] } {
  // A write sent again as it was, answered as before, makes the state it made before: it is no
  // change (see redoneWrites), and it adds no fact.
  const { redone, changed } = redoneWrites(calls, recorded);
  const stale: boolean[] = [];
  const zooms: boolean[] = [];
  const source: (number | undefined)[] = [];
  let epoch = 0;
  for (const c of calls) {
    const k = c.index;
    let from: number | undefined;
    let zoomed = false;
    // A call that asks nothing (asksSomething: writing a new file) hears nothing again, whatever its
    // answer (a creation that failed again, into a folder that is not there, is the failure rules'
    // to read: same-failure chains it whatever the file's name).
    if (redone[k] !== undefined) from = redone[k];
    else if (changed[k] !== true && asksSomething(c)) {
      const start = Math.max(epoch, k - NEW_FACT_WINDOW);
      for (let i = start; i < k; i++) {
        const p = calls[i] as NoNewFactCall;
        if (p.outcome === undefined) continue;
        let heard = hearsAgain(p, c, i === k - 1);
        // A refused edit that carries text the calls between showed for the first time learned something.
        if (heard === "again" && correctedRefusal(p, c, calls.slice(start, i), calls.slice(i + 1, k))) heard = undefined;
        // A zoom breaks no run either (see noNewFactRuns).
        if (heard === "zoom") zoomed = true;
        if (heard === "again") {
          from = i;
          break;
        }
      }
    }
    if (changed[k] === true) epoch = k + 1;
    stale.push(from !== undefined);
    source.push(from);
    zooms.push(zoomed && from === undefined);
  }
  return { stale, source, zoom: zooms, changed };
}

/**
 * For each call, the earlier call it re-sends when it is a write sent again exactly as recorded
 * (the same tool, the same args) within NEW_FACT_WINDOW calls, answered with the same masked
 * text, with no write between that is not itself such a re-send (a revert and the same re-apply,
 * again). It makes the state the first one made: the same patch file written again byte for
 * byte, the same `git checkout f && sed -i ...` sent again. The readers mark such re-sends stuck
 * ("the same rejected action re-sent", "an edit that did not apply, re-applied the same way").
 * An append (>>) adds again, so it is never one; nor is a command known only by a variable.
 * With it, for each call, whether it changed something: a write that is no such re-send and that
 * took effect (not refused, never parsed, nor an install that failed): what ends a run.
 */
function redoneWrites(calls: readonly NoNewFactCall[], wrote: readonly boolean[]): { redone: (number | undefined)[]; changed: boolean[] } {
  const redone: (number | undefined)[] = [];
  const changed: boolean[] = [];
  for (const c of calls) {
    const k = c.index;
    let from: number | undefined;
    const writes = wrote[k] === true || createdFileOf(c.rawArgs) !== undefined;
    if (writes && c.outcome !== undefined && resendable(c)) {
      for (let p = k - 1; p >= Math.max(0, k - NEW_FACT_WINDOW); p--) {
        const q = calls[p] as NoNewFactCall;
        if (resends(c, q)) {
          from = p;
          break;
        }
        // Another write between that is no re-send: the state may differ, the same write is work.
        if (changed[p] === true) break;
      }
    }
    redone.push(from);
    changed.push(wrote[k] === true && from === undefined && !neverTookEffect(c));
  }
  return { redone, changed };
}

/**
 * Runs of calls that add no new fact (staleCalls), not yet taken: a first call, the one whose
 * answer the run hears again, and at least `need - 1` calls after it that each add nothing.
 */
export function noNewFactRuns(calls: readonly NoNewFactCall[], taken: readonly boolean[], facts: ReturnType<typeof staleCalls>, need: number): [number, number][] {
  const { stale, source, zoom, changed } = facts;
  // The fact a stale call heard again: the first hearing of it (following the sources back).
  const root: (number | undefined)[] = [];
  const heardAgain = new Set<number>();
  for (let r = 0; r < calls.length; r++) {
    const src = source[r];
    root.push(stale[r] === true && src !== undefined ? (root[src] ?? src) : r);
    if (stale[r] === true && src !== undefined) heardAgain.add(root[src] ?? src);
  }
  const walk = runWalk(calls, taken, changed, stale, zoom);
  const quiet = walk.quiet;
  const out: [number, number][] = [];
  let k = 0;
  while (k < calls.length) {
    if (stale[k] !== true || taken[k] === true) {
      k++;
      continue;
    }
    const last = walk.extend(k);
    // The first call is the earliest one whose answer the run hears again, when it comes just
    // before the run (or, for a failure, with calls between that taught nothing, as above).
    let first = k;
    for (let r = k; r <= last; r++) {
      const src = source[r];
      if (stale[r] !== true || src === undefined || src >= first || taken[src] === true || k - src - 1 > BRIDGE_WINDOW) continue;
      if (quiet(src + 1, k, failureFamily(calls[src] as NoNewFactCall) !== undefined ? BRIDGE_FAILURE : 0)) first = src;
    }
    // What counts: ONE fact heard `need` times inside the run (its first hearing and the calls
    // that heard it again), not stale calls of different facts added up. The readers' protocol
    // asks for the same failure or non-result at least three times; the precision reading judged
    // the runs that added up different facts heard twice each (a view re-read once, then a test
    // re-run once) false alarms.
    // Its first hearing counts too when it came before the run (since the last change, within
    // NEW_FACT_WINDOW calls: a failure seen, a look at the code, the same failure twice more).
    const heard = new Map<number, number>();
    for (let r = first; r <= last; r++) {
      const fact = stale[r] === true ? root[r] : r;
      if (fact === undefined || (stale[r] !== true && !heardAgain.has(r))) continue;
      heard.set(fact, (heard.get(fact) ?? (fact < first ? 1 : 0)) + 1);
    }
    // And the run itself is `need` calls or more: a fact heard once before and twice in a run of
    // two is a retry after a look (the readers mark the repeating calls, three or more).
    // Not a wait that paid off: the very next call is the last one again, as recorded, with a new
    // answer (polls of a running build until it finished; the first reading judged one a false
    // alarm). A command known only by a variable ({"expr":"cmd"}) is no same call.
    const waited = waitPaidOff(calls, last) && !knownOnlyByVariable(calls[last] as NoNewFactCall);
    if (Math.max(0, ...heard.values()) >= need && last - first + 1 >= need && !waited) out.push([first, last]);
    k = last + 1;
  }
  return out;
}

/**
 * How a run of calls that add no new fact walks on (see noNewFactRuns): from its last call to the
 * next stale call, over calls between that taught nothing.
 */
export function runWalk(calls: readonly NoNewFactCall[], taken: readonly boolean[], changed: readonly boolean[], stale: readonly boolean[], zoom: readonly boolean[]): { quiet: (from: number, to: number, most: number) => boolean; extend: (from: number) => number } {
  // Calls between two stale ones that wrote nothing (a look at the code between two refused
  // patches, a check that the package is still missing between two installs that timed out) are
  // inside the run but not counted: up to BRIDGE_FAILURE before the same failure again, one
  // before any other stale call.
  // A zoom (a closer look at what an earlier answer showed) is no news either and does not count
  // as a call between. At most one call between may have read something new (a look at the
  // code between two refused patches); the others must have taught nothing: a failure, an
  // empty answer, or a short one ("3.9.1", "numpy not available") when the same failure comes
  // back after it. A short success before anything else may be the attempt that worked (the
  // heredoc that finally ran), after which a re-read is work again. Reads of new content
  // between refusals are work toward the next attempt (the precision reading judged such
  // chains false alarms).
  const quiet = (from: number, to: number, most: number): boolean => {
    const failureAfter = failureFamily(calls[to] as NoNewFactCall) !== undefined;
    let between = 0;
    let reads = 0;
    for (let b = from; b < to; b++) {
      const c = calls[b] as NoNewFactCall;
      if (taken[b] === true || changed[b] === true) return false;
      if (zoom[b] === true) continue;
      const succeeded = !c.failed && c.rejected === undefined && stale[b] !== true && !c.silent;
      // Substantial last: the miner masks an answer when a rule first reads it (mine.ts maskedAnswer).
      if (succeeded && (!failureAfter || c.substantial)) reads++;
      between++;
    }
    return between <= most && reads <= Math.min(1, most);
  };
  const reach = (at: number) => (failureFamily(calls[at] as NoNewFactCall) !== undefined ? BRIDGE_FAILURE : 1);
  const extend = (from: number): number => {
    let last = from;
    for (;;) {
      let next = -1;
      for (let n = last + 1; n < calls.length && n <= last + 1 + BRIDGE_WINDOW; n++) {
        if (taken[n] === true) break;
        if (stale[n] === true) {
          if (quiet(last + 1, n, reach(n))) next = n;
          break;
        }
      }
      if (next < 0) break;
      last = next;
    }
    return last;
  };
  return { quiet, extend };
}
