// The miner's re-asked rule (see mine.ts), round 6: the agent asks again, exactly, questions it
// already asked, possibly long before, with nothing written since, and hears exactly what it heard
// then; three or more such re-asks close together. The readers' misses of this shape (gemini-3-pro,
// deepseek and tau-bench agents, 0% held-out recall for those models): "search_direct_flight re-sent
// with exactly the same arguments as #6, #8, #14, #15, each returning the identical result already
// seen", "the same bin/test as #106 (same tally), check_eq_return.py identical to #111", "fields.py
// lines 340-355 re-read three times, each the same as #50/#74". unchanged-recheck looks back 8
// calls and no-new-fact 10, so a question first asked 13 or 40 calls before is news to both; yet
// with nothing changed since, the same question cannot be answered differently, and it was not.
// What keeps it narrow (the precision readings that cut the first wide unchanged-recheck): only the
// SAME question (the same command, or the same search terms in the same files, or the same file
// read with the same substantial answer), never a narrower view or a different search; only with
// no write that took effect since (a test re-run after an edit asks something new, even when it
// fails the same way); and three re-asks close together (one re-read, then a new query, or one
// re-query of two legs after the customer changed the criteria, are deliberate checks).
import { commandOf, type FactCall, filesOf, knownOnlyByVariable, quotedTerms, waitPaidOff } from "../import/facts.js";
import { lastAnswerLines } from "../import/mask.js";
import { perCall } from "../import/perCall.js";
import { createdFileOf, SHELL_TOOLS } from "../import/writes.js";

/** A call as this rule reads it: what it taught, and its position among the session's calls. */
export interface ReAskCall extends FactCall {
  readonly index: number;
}

/**
 * How many calls back a re-ask may find the question it repeats. Wider than the other rules'
 * windows on purpose (the readers' re-asks came 13 to 40 calls after the first asking), bounded so
 * each call costs a fixed number of comparisons; a write that took effect ends the look back sooner.
 */
export const RE_ASK_WINDOW = 50;
/** Calls of something else (no write that took effect) that may sit between two re-asks of a stretch. */
const BETWEEN = 1;

/**
 * Whether `c` asks again what `p` asked and hears what `p` heard, as recorded once masked: the same
 * command (a leading cd and 2>&1 aside) or the same named tool with the same args, with the same
 * masked answer; or the same tool, the same files and the same quoted search terms with the same
 * answer, empty included (grep "def __ne__" a.py, then cat a.py | grep "def __ne__"); or the same
 * tool on the same files with the same substantial answer (the same region printed again). Never a
 * narrower view, never another search that also finds nothing: those ask something new.
 */
export function asksAgain(p: FactCall, c: FactCall): boolean {
  if (p.outcome === undefined || c.outcome === undefined) return false;
  // The same command: the same verdict (the answer's last lines, masked) is the same answer, since
  // a long output is elided at a point that moves with a clock (unchanged-recheck does the same).
  if (commandOf(p) === commandOf(c)) return p.result === c.result || verdictOf(p) === verdictOf(c);
  if (p.result !== c.result) return false;
  if (p.call.tool !== c.call.tool) return false;
  const files = filesOf(c);
  if (files === "" || files !== filesOf(p)) return false;
  if (c.substantial) return true;
  const terms = quotedTerms(c);
  return terms !== "" && terms === quotedTerms(p);
}

/** The last lines of a masked answer: where a test run, a script or a build says how it ended. */
// lastAnswerLines reads from the end: a test run's output can run to megabytes.
const verdictOf = perCall((c: FactCall): string => lastAnswerLines(c.result, VERDICT_LINES).join("\n"));
const VERDICT_LINES = 5;

/** The values a named tool's args hold (reservation ids, dates, airports), as text: what records the call names. */
const argValues = perCall((c: FactCall): ReadonlySet<string> => {
  const values = new Set<string>();
  const collect = (v: unknown): void => {
    if (Array.isArray(v)) for (const x of v) collect(x);
    else if (v !== null && typeof v === "object") for (const x of Object.values(v)) collect(x);
    else if (typeof v === "string" || typeof v === "number") values.add(String(v));
  };
  try {
    collect(JSON.parse(c.rawArgs));
  } catch {
    // Args recorded as something JSON.parse rejects name nothing we can read: treated as naming everything (see mayChange).
    values.add("\u0000any");
  }
  return values;
});

/**
 * Whether write `w` (one that took effect) may have changed what `c` asks about. A shell write or
 * a file editor: always (a test re-run after any edit is a new question). A chat runtime's named
 * tool (cancel_reservation) changes the records its args name; a lookup by a named tool whose args
 * name none of the write's values (a flight search by origin, destination and date, after a
 * reservation id was cancelled) asks about other records. The answer heard again, the same as
 * before, is what shows the write did not reach it; a write that did would have changed it.
 */
function mayChange(w: FactCall, c: FactCall): boolean {
  if (SHELL_TOOLS.has(w.call.tool) || SHELL_TOOLS.has(c.call.tool)) return true;
  const named = argValues(w);
  if (named.has("\u0000any")) return true;
  for (const v of argValues(c)) if (named.has(v)) return true;
  return false;
}

/**
 * For each call, the nearest earlier call (within RE_ASK_WINDOW, after the last write that took
 * effect and may have changed it) that it asks again (asksAgain), or undefined. A call that writes
 * (`wrote`: it may have changed something, whether or not it took effect) is no question, nor is
 * one that creates a file, nor one the record names only by a variable (no two are the same call).
 * `changed`: the calls that wrote and took effect (noNewFact.ts staleCalls: not refused, not a
 * failed install, not a write re-sent as before).
 */
export function reAskSources(calls: readonly ReAskCall[], wrote: readonly boolean[], changed: readonly boolean[]): (number | undefined)[] {
  return calls.map((c) => {
    const k = c.index;
    if (c.outcome === undefined || wrote[k] === true || createdFileOf(c.rawArgs) !== undefined || knownOnlyByVariable(c)) return undefined;
    for (let p = k - 1; p >= Math.max(0, k - RE_ASK_WINDOW); p--) {
      const q = calls[p] as ReAskCall;
      if (changed[p] === true && mayChange(q, c)) return undefined;
      if (wrote[p] !== true && asksAgain(q, c)) return p;
    }
    return undefined;
  });
}

/**
 * Stretches of re-asks, on the calls not yet taken: `need` or more calls that each ask again an
 * earlier question (reAskSources), with at most BETWEEN calls of something else between two of
 * them (free, and no write that took effect), from the first re-ask to the last; the question the
 * first re-ask repeats joins when it comes just before. Not a wait that paid off (the very next
 * call is the last one again, as recorded, with a new answer: a poll that ended).
 */
export function reAskedRuns(calls: readonly ReAskCall[], taken: readonly boolean[], wrote: readonly boolean[], changed: readonly boolean[], need: number): [number, number][] {
  const source = reAskSources(calls, wrote, changed);
  const reAsk = (k: number) => source[k] !== undefined && taken[k] !== true;
  const out: [number, number][] = [];
  let k = 0;
  while (k < calls.length) {
    if (!reAsk(k)) {
      k++;
      continue;
    }
    let last = k;
    let count = 1;
    for (;;) {
      let next = -1;
      for (let n = last + 1; n <= last + 1 + BETWEEN && n < calls.length; n++) {
        if (reAsk(n)) {
          next = n;
          break;
        }
        if (taken[n] === true || changed[n] === true) break;
      }
      if (next < 0) break;
      last = next;
      count++;
    }
    const src = source[k] as number;
    const first = src === k - 1 && taken[src] !== true ? src : k;
    if (count >= need && !waitPaidOff(calls, last)) out.push([first, last]);
    k = last + 1;
  }
  return out;
}
