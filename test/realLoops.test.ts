// The real-loop miner's laws, on generated sessions sized so that repeats happen: masking makes
// renumbered sessions the same, a planted repeat or failing run is always found, work that asks
// and hears something new each time is never flagged, and stretches are ordered, disjoint and
// inside the session. Each failure prints its seed, path and a command that replays it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ToolEvent } from "../models/events.js";
import { SEED } from "../properties/support.js";
import { maskText } from "../src/realLoops/mask.js";
import { DEFAULT_MINE_PARAMETERS, kindOfRule, minedCalls, mineStretches, minimumLength, type MineParameters } from "../src/realLoops/mine.js";
import { realLoopsOf } from "../src/grounded/realLoopAgents.js";

const FILE = "test/realLoops.test.ts";

/** Checks a property with the suite's seed; on failure, the error names the seed, the path and the replay command. */
function check<T>(law: string, input: fc.Arbitrary<T>, body: (value: T) => void, numRuns = 120): void {
  const out = fc.check(fc.property(input, body), { seed: SEED, numRuns, ...(process.env.FC_PATH === undefined ? {} : { path: process.env.FC_PATH }) });
  if (!out.failed) return;
  const title = (expect.getState().currentTestName ?? law).split(" > ").at(-1) ?? law;
  const why = out.errorInstance instanceof Error ? out.errorInstance.message : String(out.errorInstance);
  throw new Error(`${law}: failed with seed ${out.seed}, path ${out.counterexamplePath}\nreplay: FC_SEED=${out.seed} FC_PATH=${out.counterexamplePath} npx vitest run ${FILE} -t "${title}"\ncounterexample: ${JSON.stringify(out.counterexample)}\n${why}`);
}

const pair = (i: number, tool: string, params: unknown, answer: { result?: unknown; error?: unknown }): ToolEvent[] => [
  { type: "call", runId: "r", callId: `c${i}`, tool, params },
  { type: "outcome", runId: "r", callId: `c${i}`, tool, params, ...(answer.error !== undefined ? { error: answer.error } : { result: answer.result }) },
];

/** A session from few tools, paths and answers, some failing: repeats, failures and alternations happen by themselves. */
const anySession = fc.array(fc.record({ tool: fc.constantFrom("read", "exec"), arg: fc.nat(2), answer: fc.nat(2), fails: fc.boolean(), stamp: fc.nat(99) }), { minLength: 0, maxLength: 40 }).map((specs) =>
  specs.flatMap((s, i) => pair(i, s.tool, { path: `src/f${s.arg}.ts` }, s.fails ? { error: `exit ${s.answer} at ${s.stamp}` } : { result: `answer ${s.answer} line ${s.stamp}` })),
);

/** Progressing work: each call asks about another thing and hears about that thing; nothing fails. */
const progressing = fc.array(fc.record({ tool: fc.constantFrom("read", "grep", "exec"), stamp: fc.nat(99) }), { minLength: 0, maxLength: 40 }).map((specs) =>
  specs.flatMap((s, i) => pair(i, s.tool, { path: `src/module${i}.ts` }, { result: `contents of module${i} at ${s.stamp}` })),
);

/** Every digit run made longer by a leading 9: one-to-one, so equal text stays equal and unequal stays unequal. */
const renumbered = (events: readonly ToolEvent[]): ToolEvent[] => events.map((e) => JSON.parse(JSON.stringify(e).replace(/\d+/g, (d) => `9${d}`)) as ToolEvent);

const callCount = (events: readonly ToolEvent[]) => events.filter((e) => e.type === "call").length;

describe("the real-loop miner", () => {
  it("finds the same stretches in a session whose numbers, ids and times are renumbered", () => {
    check("masking invariance", anySession, (events) => {
      expect(JSON.stringify(mineStretches(renumbered(events)))).toBe(JSON.stringify(mineStretches(events)));
    });
    expect(maskText("2026-12-03T10:00:01Z pid 4411 at /tmp/tmpab12cd/x.py 0x7ffd9a3c commit 3f9a1c7e")).toBe("<time> pid # at <tmp> <id> commit <id>");
  });

  it("always finds a planted repeat, volatile repeat or failing run of k calls or more", () => {
    const planted = fc.record({ before: progressing, after: progressing, k: fc.integer({ min: DEFAULT_MINE_PARAMETERS.repeat, max: 12 }), kind: fc.constantFrom("repeat", "volatile", "failing") });
    check("a planted loop is found", planted, ({ before, after, k, kind }) => {
      const loop = Array.from({ length: k }, (_, i) =>
        pair(1000 + i, "loop_tool", { command: "javac A.java" }, kind === "repeat" ? { result: "error: cannot find symbol" } : kind === "volatile" ? { result: `[10:00:${String(i).padStart(2, "0")}] line ${40 + i}: error` } : { error: `failed: ${["timeout", "404", "reset"][i % 3]} ${i}` }),
      ).flat();
      const events = [...before, ...loop, ...after];
      const first = callCount(before);
      const found = mineStretches(events);
      expect(found.some((s) => s.firstCall <= first && s.lastCall >= first + k - 1)).toBe(true);
    });
  });

  it("never flags work that asks and hears something new each time", () => {
    check("progressing work is never flagged", progressing, (events) => {
      expect(mineStretches(events)).toEqual([]);
    });
  });

  it("gives ordered, disjoint stretches inside the session, each at least as long as its rule needs", () => {
    const parameters = fc.record({ repeat: fc.integer({ min: 2, max: 5 }), failing: fc.integer({ min: 2, max: 5 }), alternation: fc.integer({ min: 4, max: 8 }), sameFailure: fc.integer({ min: 2, max: 5 }), recheck: fc.integer({ min: 2, max: 5 }), noEffect: fc.integer({ min: 2, max: 5 }), noNewFact: fc.integer({ min: 2, max: 5 }), unlandedEdits: fc.integer({ min: 2, max: 5 }) });
    check("stretches are disjoint and inside", fc.tuple(anySession, parameters), ([events, p]: [ToolEvent[], MineParameters]) => {
      const calls = minedCalls(events).length;
      const found = mineStretches(events, p);
      let end = -1;
      for (const s of found) {
        expect(s.firstCall).toBeGreaterThan(end);
        expect(s.lastCall).toBeLessThan(calls);
        expect(s.length).toBe(s.lastCall - s.firstCall + 1);
        expect(s.length).toBeGreaterThanOrEqual(minimumLength(s.rule, p));
        expect(s.kind).toBe(kindOfRule(s.rule));
        expect(s.firstEvent).toBeLessThanOrEqual(s.lastEvent);
        end = s.lastCall;
      }
    });
  });

  it("labels exactly the mined stretches stuck when sessions run as agents with --loops real", () => {
    check("real-loop agents label their stretch", anySession, (events) => {
      const stretches = mineStretches(events);
      const { script: whole, agents, mined } = realLoopsOf({ id: "s", events }, 1);
      expect(mined).toBe(stretches.length);
      expect(agents.length).toBe(Math.min(stretches.length, 8));
      agents.forEach((agent, k) => {
        const s = stretches[k];
        expect(s).toBeDefined();
        // The script is the session up to the stretch's end, and its stuck events are the stretch's own.
        expect(JSON.stringify(agent.script.map((e) => e.event))).toBe(JSON.stringify(events.slice(0, (s?.lastEvent ?? 0) + 1)));
        const stuckCalls = agent.script.filter((e) => e.inLoop && e.event.type === "call").length;
        expect(stuckCalls).toBe(s?.length);
      });
      expect(whole.filter((e) => e.inLoop && e.event.type === "call").length).toBe(stretches.reduce((n, s) => n + s.length, 0));
    });
  });
});
