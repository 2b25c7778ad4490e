// Candidate rule `candidate:no-new-fact:N`: the miner's no-new-fact rule (src/realLoops/noNewFact.ts)
// run online. It stops the run when ONE fact has been heard N times since the last change that took
// effect: the same failure family, the same answer to the same command, search or viewer, a re-read
// of the same region, the same empty answer, or a write re-sent as before and answered as before.
// Each of those per-call decisions is the miner's own (src/import/facts.ts), made on the answers
// up to the current one only, so the verdict never depends on what comes after (a guard cannot see
// it) and the same trace always gives the same verdict. Why: the round-3 reading of issue 35 found
// agents re-sending one write, re-reading one region and meeting one failure, each heard three
// times with nothing changed between. A CANDIDATE, not a runtime's guard: no runtime is known to
// ship it; loopsim measures it as evidence for people who design guards.
import type { CallEvent, OutcomeEvent } from "../../../models/events.js";
import { correctedRefusal, factCallOf, type FactCall, hearsAgain, NEW_FACT_WINDOW, neverTookEffect, resendable, resends } from "../../import/facts.js";
import { changesWhatWasRead, createdFileOf, filesNamedIn, writeOf } from "../../import/writes.js";
import { asGiven } from "../peers/normalization/callView.js";
import { ALLOW, peerTarget, type PeerReducer } from "../peers/peerGuard.js";
import type { Target } from "../target.js";
import { acrossRuns } from "./windowedRepeat.js";

export const NO_NEW_FACT = "no-new-fact";

/** A call heard since the last change: what it taught, and which first hearing of a fact it repeats. */
interface Heard {
  readonly call: FactCall;
  /** The position (among the run's calls) of the first hearing of the fact this call heard. */
  readonly fact: number;
}

interface NoNewFactState {
  /** Calls since the last change, at most NEW_FACT_WINDOW: the miner looks no further back, so neither does this. */
  readonly recent: readonly Heard[];
  /** How many calls have been answered so far (the next call's position). */
  readonly calls: number;
  /** Files named so far (a write to a file never named before creates it: no change to what was read). */
  readonly named: ReadonlySet<string>;
  /** For each fact heard again since the last change, how many times it was heard (its first hearing included). */
  readonly heard: ReadonlyMap<number, number>;
}

/** The latest call among `recent` that `c` re-sends as it was, answered alike (the miner's redoneWrites). */
function resentFrom(recent: readonly Heard[], c: FactCall): Heard | undefined {
  for (let i = recent.length - 1; i >= 0; i--) if (resends(c, (recent[i] as Heard).call)) return recent[i];
  return undefined;
}

/** The earliest call among `recent` whose answer `c` hears again (the miner's staleCalls). */
function heardFrom(recent: readonly Heard[], c: FactCall): Heard | undefined {
  // Writing a new file (cat > fix2.patch <<EOF) asks nothing: its empty answer is no answer heard again.
  if (createdFileOf(c.rawArgs) !== undefined) return undefined;
  for (let i = 0; i < recent.length; i++) {
    const p = recent[i] as Heard;
    if (hearsAgain(p.call, c, i === recent.length - 1) !== "again") continue;
    // A refused edit that carries text the calls between showed for the first time learned something (the miner's staleCalls).
    if (correctedRefusal(p.call, c, recent.slice(0, i).map((h) => h.call), recent.slice(i + 1).map((h) => h.call))) continue;
    return p;
  }
  return undefined;
}

function noNewFactReducer(times: number): PeerReducer<NoNewFactState> {
  return {
    initial: () => ({ recent: [], calls: 0, named: new Set(), heard: new Map() }),
    onCall: (state) => ({ state, action: ALLOW }),
    onOutcome(state, outcome) {
      const call: CallEvent = { type: "call", tool: outcome.tool, params: outcome.params };
      const answer: OutcomeEvent = { type: "outcome", tool: outcome.tool, params: outcome.params, result: outcome.result, ...(outcome.error === undefined ? {} : { error: outcome.error }) };
      const c = factCallOf(call, answer);
      const write = writeOf(outcome.tool, c.rawArgs);
      const files = filesNamedIn(c.rawArgs);
      const named = files.every((f) => state.named.has(f)) ? state.named : new Set([...state.named, ...files]);
      const at = state.calls;
      // The miner's writes (writesOf) and re-sends (redoneWrites): a write re-sent as before
      // and answered alike makes the state already made, so it changes nothing and is heard again.
      const recorded = changesWhatWasRead(outcome.tool, c.rawArgs, (f) => state.named.has(f), write);
      const resent = (recorded || createdFileOf(c.rawArgs) !== undefined) && resendable(c) ? resentFrom(state.recent, c) : undefined;
      if (recorded && resent === undefined && !neverTookEffect(c)) return { state: { recent: [], calls: at + 1, named, heard: new Map() }, action: ALLOW };
      const from = resent ?? heardFrom(state.recent, c);
      const fact = from?.fact ?? at;
      const heard = new Map(state.heard);
      // ONE fact heard N times, as the miner counts it: its first hearing and each call that heard it again.
      if (from !== undefined) heard.set(fact, (heard.get(fact) ?? 1) + 1);
      const recent = [...state.recent, { call: c, fact }].slice(-NEW_FACT_WINDOW);
      // Facts whose every hearing left the window can no longer be heard again (the miner looks 10 calls back).
      for (const f of heard.keys()) if (!recent.some((h) => h.fact === f)) heard.delete(f);
      const next = { recent, calls: at + 1, named, heard };
      const count = heard.get(fact) ?? 0;
      // Where the miner, seeing the stretch's end, asks more (a run of N calls with at most one or
      // two quiet calls between hearings, and no wait that paid off: the very next call is the last
      // one again with a new answer), a guard cannot wait for the next call: it counts the
      // hearings within the miner's 10-call look-back, so it may stop a little later or earlier.
      if (count < times) return { state: next, action: ALLOW };
      return { state: next, action: { kind: "stop", detector: `candidate:${NO_NEW_FACT}`, count, message: `Stopped: the same thing was heard ${count} times with nothing changed between (the same failure, the same answer, or the same write again); another try like it cannot tell anything new.` } };
    },
  };
}

export function noNewFactTarget(times: number): Target {
  return acrossRuns(peerTarget({
    name: `candidate:${NO_NEW_FACT}:${times}`,
    summary: `candidate rule, shipped by no runtime: the miner's no-new-fact rule run online; stops the run when one fact (the same failure family, the same answer to the same question, a region re-read, or the same write re-sent) is heard ${times} times within ${NEW_FACT_WINDOW} calls with no change between`,
    notes: [
      "a candidate for guard designers, not a model of any runtime: no runtime is known to ship this rule",
      "the miner's no-new-fact rule online (src/import/facts.ts holds the decisions both make): each answer is judged on the answers before it only",
      "a write that took effect clears the count, except a write re-sent exactly as before and answered as before (it makes the state already made)",
    ],
    detectors: [`candidate:${NO_NEW_FACT}`],
    normalization: asGiven("candidate", "name and args as given (the rule reads the files the args name)", "loopsim src/targets/candidates"),
    warns: false,
    reducer: noNewFactReducer(times),
  }));
}
