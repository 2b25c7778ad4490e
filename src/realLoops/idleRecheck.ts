// The miner's idle-recheck rule (see mine.ts), round 8: one answer to a look (a view of a region,
// a grep, a git diff, a check) heard three times or more, nothing having changed since the first,
// with only calls between that did nothing: attempts that never took effect (an awk or perl whose
// own program could not be parsed, an action the harness could not parse, a refused edit), looks
// that heard something again or zoomed into what was shown, and empty answers. The readers' misses
// of this shape: "nl -ba query.py | sed -n '688,706p' shown 3 times with the identical misindented
// raise; the only fix that ran between failed 'runaway string constant' and the python fixes were
// format-rejected, so the re-views could not show anything new"; "the agent re-checks the same
// non-result again and again: git diff empty, grep non_data empty, view unchanged" around perl
// and awk edits that failed on quoting; "#4 print_code_context (1,120) and #5 (60,90) return the
// same elided view". The agent's turns between were mostly never run (format errors: the record
// holds no call for them), so the looks sit nearly back to back, yet one or two failed attempts
// between them break the rules above: unchanged-recheck and no-new-fact let no call sit between
// a look and its first re-hearing (a failed attempt between a view and the same view again reads
// to them as a check after work), and no-new-fact lets only one call sit between two later ones.
// Why the evidence holds: nothing between the hearings took effect (writes.ts, facts.ts
// neverTookEffect: no write that may have landed), so the file the third look read is the file
// the first look read, and the answer says so; the third hearing of one answer is the readers'
// threshold (the same non-result three times, two calls after the first that add nothing).
// An elided view (a code viewer that hides lines: print_code_context shows 60, 61, then 64) zoomed
// into is heard again too when the zoom still hides lines: the agent asked for what was hidden
// and got the same hidden view, a non-result; a zoom that shows every line it asked for is a
// closer look (the readers' protocol: narrowing is not stuck) and is no hearing.
// What is not flagged, and why (the earlier precision readings): different facts each heard twice
// (a re-read once, a test re-run once: the round-3 reading judged such sums false alarms); a
// failure heard again (same-failure and no-new-fact read those); anything across a write that may
// have landed (an edit, a restore, a new script run: a check after it is work, even when it
// answers the same); more than MOST_BETWEEN calls between two hearings; a call between that read
// something new (a view of another region, a search that found something): that is work toward
// the next attempt; a run that touches a stretch the rules above found, save a shorter no-new-fact
// stretch that it holds whole (mine.ts: the run takes its place; no-new-fact, which lets no call
// sit between a look and its first re-hearing, had found the tail of the same run).
import { answerBody, type FactCall, failureFamily, hearsAgain, NEW_FACT_WINDOW, neverTookEffect, waitPaidOff } from "../import/facts.js";
import { perCall } from "../import/perCall.js";
import type { staleCalls } from "./noNewFact.js";

/** A call as this rule reads it: what it taught, and its position among the session's calls. */
export interface IdleRecheckCall extends FactCall {
  readonly index: number;
}

/**
 * How many calls may sit between two hearings of the answer: the readers' runs had a failed
 * attempt and a look or two between checks (the agent's format-rejected turns leave no call).
 */
const MOST_BETWEEN = 4;

/**
 * A short answer that says the thing asked for was not found (a code viewer's "enums.py: not
 * found"): a non-result, like an empty answer.
 */
const NOT_FOUND = /\bnot found\b/i;
const NOT_FOUND_MAX_CHARS = 200;
const notFound = (c: FactCall): boolean => {
  const body = answerBody(c.rawResult);
  return body.length <= NOT_FOUND_MAX_CHARS && NOT_FOUND.test(body);
};

/** A line a code viewer or nl prints: its number, then the code. */
const NUMBERED = /^\s*(\d+)(?:\s|$)/;

/**
 * The answer skips line numbers: a code viewer that elides lines (print_code_context hides a
 * method's body, shows 61 then 64). Read from the answer as recorded: the numbers are the evidence.
 * Only when three or more lines are numbered and they rise (a listing, not a grep's scattered hits
 * from several files, which carry a file name before the number).
 */
export const elides = perCall((c: FactCall): boolean => {
  let last: number | undefined;
  let numbered = 0;
  let gap = false;
  for (const line of c.rawResult.split("\n")) {
    const m = NUMBERED.exec(line);
    if (m === null) continue;
    const n = Number(m[1]);
    if (last !== undefined) {
      if (n <= last) return false;
      if (n > last + 1) gap = true;
    }
    last = n;
    numbered++;
  }
  return gap && numbered >= 3;
});

/**
 * Runs of calls in which one answer to a look is heard `need` times or more, nothing changed since
 * its first hearing, with at most MOST_BETWEEN idle calls between two hearings (see the header):
 * from the first hearing to the last, on the calls not yet taken.
 */
export function idleRecheckRuns(calls: readonly IdleRecheckCall[], taken: readonly boolean[], facts: ReturnType<typeof staleCalls>, need: number): [number, number][] {
  const { stale, source, zoom, changed } = facts;
  // The first hearing of what each call heard again (following the sources back).
  const root: number[] = [];
  for (let r = 0; r < calls.length; r++) {
    const src = source[r];
    root.push(stale[r] === true && src !== undefined ? (root[src] ?? src) : r);
  }
  // Where each zoom came from (staleCalls marks zooms, not their source): the nearest earlier call
  // since the last change that it zoomed into. Asked only of zooms that elide.
  let epoch = 0;
  const zoomSource: (number | undefined)[] = [];
  for (let k = 0; k < calls.length; k++) {
    let from: number | undefined;
    if (zoom[k] === true && elides(calls[k] as IdleRecheckCall)) {
      for (let i = k - 1; i >= Math.max(epoch, k - NEW_FACT_WINDOW); i--) {
        const p = calls[i] as IdleRecheckCall;
        if (p.outcome !== undefined && elides(p) && hearsAgain(p, calls[k] as IdleRecheckCall, i === k - 1) === "zoom") {
          from = i;
          break;
        }
      }
    }
    zoomSource.push(from);
    if (changed[k] === true) epoch = k + 1;
  }
  // Each hearing of a look's answer, by the call that first heard it.
  const hearings = new Map<number, number[]>();
  for (let k = 0; k < calls.length; k++) {
    const z = zoomSource[k];
    const fact = stale[k] === true ? root[k] : z !== undefined ? root[z] : undefined;
    // A failure heard again is no look's answer (the header): its family, or failed with none (an
    // awk whose program could not be parsed, exit 2, has no failure line to make a family of).
    if (fact === undefined) continue;
    const first = calls[fact] as IdleRecheckCall;
    if (first.failed || failureFamily(first) !== undefined) continue;
    const list = hearings.get(fact) ?? [fact];
    list.push(k);
    hearings.set(fact, list);
  }
  // A call between two hearings that did nothing: it changed nothing, and it never took effect,
  // heard something again, zoomed, or got an empty answer or a short "not found".
  const idle = (b: number): boolean => {
    const c = calls[b] as IdleRecheckCall;
    if (taken[b] === true || changed[b] === true || c.outcome === undefined) return false;
    return neverTookEffect(c) || stale[b] === true || zoom[b] === true || c.silent || notFound(c);
  };
  const spans: [number, number][] = [];
  for (const list of hearings.values()) {
    let start = 0;
    for (let h = 1; h <= list.length; h++) {
      const a = list[h - 1] as number;
      const b = list[h];
      let linked = b !== undefined && b - a - 1 <= MOST_BETWEEN && taken[a] !== true && taken[b] !== true;
      for (let x = a + 1; linked && b !== undefined && x < b; x++) linked = idle(x);
      if (linked) continue;
      // Three hearings or more, one of them after the first a whole one (zooms alone are a closer
      // look, however the viewer elides), and no wait that paid off (polls of a running build: the
      // next call, the same as the last, got news).
      const run = list.slice(start, h);
      if (run.length >= need && run.slice(1).some((k) => stale[k] === true) && !waitPaidOff(calls, a)) spans.push([list[start] as number, a]);
      start = h;
    }
  }
  // Overlapping runs of different answers (a diff and a grep, each heard three times, taking turns) are one stretch.
  spans.sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const [first, last] of spans) {
    const prev = out[out.length - 1];
    if (prev !== undefined && first <= prev[1]) prev[1] = Math.max(prev[1], last);
    else out.push([first, last]);
  }
  return out;
}
