// Real sessions as agents, and loops injected into them with known labels. The properties run on
// generated recordings (calls on a few tools and runs, answered at once, later or never, with
// compactions) sized so that loops and repeats happen; each failure prints its seed, path and a
// command that replays it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ToolEvent } from "../models/events.js";
import { configFrom } from "../models/configResolution.js";
import { SEED } from "../properties/support.js";
import { TraceOrphans } from "../src/import/orphans.js";
import { callUnits } from "../src/scenario/eventPairs.js";
import { INJECT_SHAPES, injectLoop, insertionPoints, parseInject, recordedScript } from "../src/grounded/injection.js";
import { DEFAULT_SESSION_REACTION, parseReaction, type SessionReaction } from "../src/grounded/reaction.js";
import { runSessionAgent, shapeKey } from "../src/grounded/sessionAgent.js";
import { sessionAgents } from "../src/grounded/groundedPopulation.js";
import { findBuiltInTarget } from "../src/targets/registry.js";
import { REFERENCE_TARGET } from "../src/targets/reference.js";
import type { Target, TargetOutput } from "../src/targets/target.js";

const NONE = findBuiltInTarget("none") as Target;
const FILE = "test/grounded.test.ts";

/** fast-check with the suite's seed; a failure names seed, path and the command that replays it. */
function holds<T>(name: string, arbitrary: fc.Arbitrary<T>, property: (value: T) => void, numRuns = 150): void {
  const path = process.env.FC_PATH;
  const details = fc.check(fc.property(arbitrary, property), { seed: SEED, numRuns, ...(path === undefined ? {} : { path }) });
  if (details.failed) {
    const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    // -t takes the test's own name (the property's is only for the message).
    const test = (expect.getState().currentTestName ?? name).split(" > ").at(-1) ?? name;
    throw new Error(`${name}: failed with seed ${details.seed}, path ${details.counterexamplePath}\nreplay: FC_SEED=${details.seed} FC_PATH=${details.counterexamplePath} npx vitest run ${FILE} -t "${test.replace(/"/g, '\\"')}"\ncounterexample: ${JSON.stringify(details.counterexample)}\n${error}`);
  }
}

/** A recorded session: calls on a few tools, in one or two runs, answered at once, later or never, some failing, some compactions. */
const recording = fc
  .array(
    fc.record({ tool: fc.constantFrom("read", "exec", "grep", "edit"), arg: fc.nat(5), run: fc.constantFrom("r1", "r1", "r2"), withId: fc.boolean(), answered: fc.nat(9), delay: fc.nat(2), fails: fc.nat(9), compaction: fc.nat(19) }),
    { minLength: 1, maxLength: 30 },
  )
  .map((specs) => {
    const slots: { at: number; event: ToolEvent }[] = [];
    specs.forEach((s, i) => {
      const id = s.withId ? { callId: `c${i}` } : {};
      const params = { path: `src/file${s.arg}.ts` };
      slots.push({ at: i, event: { type: "call", runId: s.run, ...id, tool: s.tool, params } });
      if (s.answered > 0) slots.push({ at: i + s.delay + 0.5, event: s.fails === 0 ? { type: "outcome", runId: s.run, ...id, tool: s.tool, params, error: `failed ${s.arg}` } : { type: "outcome", runId: s.run, ...id, tool: s.tool, params, result: { content: [{ type: "text", text: `contents of ${s.arg}` }] } } });
      if (s.compaction === 0) slots.push({ at: i + 0.25, event: { type: "compaction", runId: s.run } });
    });
    return slots.sort((a, b) => a.at - b.at).map((s) => s.event);
  });

const shape = fc.constantFrom(...INJECT_SHAPES);
const lengths = fc.record({ min: fc.integer({ min: 2, max: 12 }), extra: fc.nat(20) }).map(({ min, extra }) => ({ min, max: min + extra }));

describe("injected loops", () => {
  it("are the same events for the same seed, and another seed moves them", () => {
    holds("injection is deterministic per seed", fc.tuple(recording, shape, lengths, fc.nat(1000)), ([events, s, range, seed]) => {
      const a = injectLoop(events, s, range, seed, "session-a");
      const b = injectLoop(events, s, range, seed, "session-a");
      expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    });
    // Not a law (two seeds may agree by chance), but over many sessions the seed must matter.
    const events = recordedScript(Array.from({ length: 40 }, (_, i): ToolEvent[] => [{ type: "call", tool: "read", params: { i } }, { type: "outcome", tool: "read", params: { i }, result: `r${i}` }]).flat()).map((e) => e.event);
    const starts = new Set(Array.from({ length: 20 }, (_, seed) => injectLoop(events, "repeat", { min: 5, max: 30 }, seed, "s").start));
    expect(starts.size).toBeGreaterThan(5);
  });

  it("label exactly the injected stretch: taking it out gives the recording back, byte for byte", () => {
    holds("the injected stretch is labelled exactly", fc.tuple(recording, shape, lengths, fc.nat(1000)), ([events, s, range, seed]) => {
      const injected = injectLoop(events, s, range, seed, "session-b");
      const labels = injected.events.map((e) => e.inLoop);
      expect(labels.slice(0, injected.start).every((l) => !l)).toBe(true);
      expect(labels.slice(injected.start, injected.end).every((l) => l)).toBe(true);
      expect(labels.slice(injected.end).every((l) => !l)).toBe(true);
      const outside = [...injected.events.slice(0, injected.start), ...injected.events.slice(injected.end)].map((e) => e.event);
      expect(JSON.stringify(outside)).toBe(JSON.stringify(events));
      // As many injected calls (messages, for a text loop) as the drawn length, inside the stated range, each call with its outcome.
      const stretch = injected.events.slice(injected.start, injected.end).map((e) => e.event);
      const calls = stretch.filter((e) => e.type === "call").length;
      const turns = s === "text-loop" ? stretch.filter((e) => e.type === "message").length : calls;
      if (s === "text-loop") expect(stretch.every((e) => e.type === "message")).toBe(true);
      expect(turns).toBe(injected.length);
      expect(turns).toBeGreaterThanOrEqual(range.min);
      expect(turns).toBeLessThanOrEqual(range.max);
      expect(stretch.filter((e) => e.type === "outcome").length).toBe(calls);
      // Put in where no call was waiting for its outcome (no call before it answered after it), so the stretch adds no orphan.
      expect(insertionPoints(events)).toContain(injected.start);
      for (const unit of callUnits(events)) expect(unit[0] as number >= injected.start || (unit.at(-1) as number) < injected.start, `call ${unit[0]} answered at ${unit.at(-1)} is split by a stretch at ${injected.start}`).toBe(true);
      const orphans = (list: readonly ToolEvent[]) => {
        const o = new TraceOrphans();
        for (const e of list) o.see(e);
        return o.count;
      };
      expect(orphans(injected.events.map((e) => e.event))).toBe(orphans(events));
    });
  });

  it("take their calls from the session where the shape allows", () => {
    const events: ToolEvent[] = [
      { type: "call", runId: "r", callId: "1", tool: "bash", params: { command: "pytest -x" } },
      { type: "outcome", runId: "r", callId: "1", tool: "bash", params: { command: "pytest -x" }, result: "3 failed" },
      { type: "call", runId: "r", callId: "2", tool: "bash", params: { command: "cat setup.py" } },
      { type: "outcome", runId: "r", callId: "2", tool: "bash", params: { command: "cat setup.py" }, result: "from setuptools import setup" },
    ];
    const stretch = (s: (typeof INJECT_SHAPES)[number]) => {
      const inj = injectLoop(events, s, { min: 6, max: 6 }, 7, "own");
      return inj.events.slice(inj.start, inj.end).map((e) => e.event);
    };
    const repeat = stretch("repeat").filter((e) => e.type === "call");
    expect(new Set(repeat.map((e) => JSON.stringify([e.tool, e.params]))).size).toBe(1);
    expect(["pytest -x", "cat setup.py"]).toContain((repeat[0]?.type === "call" ? (repeat[0].params as { command: string }).command : ""));
    const pingPong = stretch("ping-pong").filter((e) => e.type === "call").map((e) => JSON.stringify(e.type === "call" ? e.params : null));
    expect(new Set(pingPong).size).toBe(2);
    expect(pingPong[0]).toBe(pingPong[2]);
    const unknown = stretch("unknown-tool").filter((e) => e.type === "call");
    expect(unknown.every((e) => e.tool === "bash_v2")).toBe(true);
    const near = stretch("near-duplicate").filter((e) => e.type === "call").map((e) => (e.type === "call" ? shapeKey(e) : ""));
    expect(new Set(near).size).toBe(1); // one shape, args differing only in the retry counter
    expect(stretch("overflow-relapse").filter((e) => e.type === "compaction")).toHaveLength(1);
    // A text loop repeats one message: the session's own when it has one of 50+ characters.
    const said = stretch("text-loop");
    expect(said.every((e) => e.type === "message") && new Set(said.map((e) => (e.type === "message" ? e.text : ""))).size === 1).toBe(true);
    const own = "I am going to read setup.py again and then run the tests once more.";
    const withText = injectLoop([{ type: "message", runId: "r", text: own }, ...events], "text-loop", { min: 6, max: 6 }, 7, "own");
    expect(withText.events.slice(withText.start, withText.end).map((e) => (e.event.type === "message" ? e.event.text : ""))).toEqual(Array.from({ length: 6 }, () => own));
  });

  it("parse their spec, and refuse a bad one with what is allowed", () => {
    expect(parseInject("default").shapes).toEqual(INJECT_SHAPES.filter((s) => s !== "text-loop" && s !== "changing-args"));
    expect(parseInject("text-loop").shapes).toEqual(["text-loop"]);
    expect(parseInject("none").shapes).toEqual([]);
    expect(parseInject("poll,repeat@5-9")).toMatchObject({ shapes: ["repeat", "poll"], lengths: { min: 5, max: 9 } });
    expect(() => parseInject("pong")).toThrow(/unknown shape "pong".*default, none/);
    expect(() => parseInject("repeat@9-5")).toThrow(/@MIN-MAX/);
  });
});

describe("a session run as an agent", () => {
  it("under the none guard replays its own events byte for byte", () => {
    holds("a session with nothing injected replays itself under none", fc.tuple(recording, fc.nat(1000)), ([events, seed]) => {
      const [agent] = sessionAgents({ id: "s", events }, parseInject("none"), seed);
      const run = runSessionAgent(agent as NonNullable<typeof agent>, configFrom({}), NONE, DEFAULT_SESSION_REACTION);
      expect(JSON.stringify(run.events)).toBe(JSON.stringify(events));
      expect(run.reactions).toEqual([]);
      expect(run.summary.attempts).toBe(events.filter((e) => e.type === "call").length);
    });
  });

  /** A guard that blocks every call of one tool and says nothing else. */
  const blocking = (tool: string): Target => ({
    ...NONE,
    name: `block-${tool}`,
    start: () => {
      let index = 0;
      return {
        step(event: ToolEvent): TargetOutput[] {
          const at = index++;
          if (event.type !== "call" || event.tool !== tool) return [];
          return [{ kind: "call", index: at, run: "", tool, argsHash: "", verdict: "critical", detector: "generic_repeat", count: 1, warningKey: "k", message: "blocked", emitted: true }];
        },
      };
    },
  });
  const react = (block: [number, number, number]): SessionReaction => parseReaction(`block=${block.join("/")}`);
  const session: ToolEvent[] = [
    { type: "call", callId: "1", tool: "read", params: { path: "a" } },
    { type: "outcome", callId: "1", tool: "read", params: { path: "a" }, result: "A" },
    { type: "call", callId: "2", tool: "flaky", params: { attempt: 1 } },
    { type: "outcome", callId: "2", tool: "flaky", params: { attempt: 1 }, error: "503" },
    { type: "call", callId: "3", tool: "flaky", params: { attempt: 2 } },
    { type: "outcome", callId: "3", tool: "flaky", params: { attempt: 2 }, error: "503" },
    { type: "call", callId: "4", tool: "read", params: { path: "a" } },
    { type: "outcome", callId: "4", tool: "read", params: { path: "a" }, result: "A" },
    { type: "call", callId: "5", tool: "grep", params: { pattern: "x" } },
    { type: "outcome", callId: "5", tool: "grep", params: { pattern: "x" }, result: "1 match" },
  ];
  const fed = (reaction: SessionReaction) => {
    const [agent] = sessionAgents({ id: "s", events: session }, parseInject("none"), 1);
    return runSessionAgent(agent as NonNullable<typeof agent>, configFrom({}), blocking("flaky"), reaction);
  };
  const callIds = (events: readonly ToolEvent[]) => events.filter((e) => e.type === "call").map((e) => (e.type === "call" ? e.callId : ""));

  it("that is blocked and skips jumps past the repeated stretch to its next different call", () => {
    const run = fed(react([0, 1, 0]));
    // Call 3 is the same shape as the blocked call 2 (a retry counter aside), and call 4 repeats
    // call 1, one of the last four: both are skipped; call 5 is the next different call.
    expect(callIds(run.events)).toEqual(["1", "2", "5"]);
    expect(run.reactions.map(({ signal, reaction, at }) => ({ signal, reaction, at }))).toEqual([{ signal: "block", reaction: "skip", at: 2 }]);
    expect(run.events.some((e) => e.type === "outcome" && e.callId === "2")).toBe(false); // a blocked call never runs
  });

  it("that is blocked and goes on carries on with its recording", () => {
    const run = fed(react([1, 0, 0]));
    expect(callIds(run.events)).toEqual(["1", "2", "3", "4", "5"]);
    expect(run.reactions.map((r) => r.reaction)).toEqual(["goOn", "goOn"]);
    expect(run.summary.blocks).toBe(2);
    expect(run.summary.executed).toBe(3);
  });

  it("that is blocked and ends stops there", () => {
    const run = fed(react([0, 0, 1]));
    expect(callIds(run.events)).toEqual(["1", "2"]);
  });

  it("draws its reactions in the stated proportions, from its own seeded stream", () => {
    const counts = { goOn: 0, skip: 0, end: 0 };
    for (let seed = 0; seed < 400; seed++) {
      const [agent] = sessionAgents({ id: `s${seed}`, events: session }, parseInject("none"), seed);
      const run = runSessionAgent(agent as NonNullable<typeof agent>, configFrom({}), blocking("flaky"), react([0.5, 0.3, 0.2]));
      counts[(run.reactions[0] as { reaction: keyof typeof counts }).reaction]++;
    }
    // 400 draws: each share within 0.08 of its chance (over 3 standard deviations).
    expect(Math.abs(counts.goOn / 400 - 0.5)).toBeLessThan(0.08);
    expect(Math.abs(counts.skip / 400 - 0.3)).toBeLessThan(0.08);
    expect(Math.abs(counts.end / 400 - 0.2)).toBeLessThan(0.08);
  });

  it("counts a block inside an injected loop as a catch, and one on recorded work as good work stopped", () => {
    holds("catches and false stops follow the labels", fc.tuple(recording, shape, fc.nat(1000)), ([events, s, seed]) => {
      const agents = sessionAgents({ id: "s", events }, parseInject(s), seed);
      for (const agent of agents) {
        const run = runSessionAgent(agent, configFrom({ enabled: true, warningThreshold: 3, criticalThreshold: 5, globalCircuitBreakerThreshold: 8 }), REFERENCE_TARGET, DEFAULT_SESSION_REACTION);
        if (agent.label === "progressing") expect(run.summary.caught).toBe(false);
        expect(run.summary.wastedCalls).toBeLessThanOrEqual(run.summary.loopCalls);
        expect(run.summary.falseBlocks).toBeLessThanOrEqual(run.summary.blocks);
      }
    }, 60);
  });

  it("refuses a reaction spec that does not add up, naming the signal", () => {
    expect(() => parseReaction("block=0.5/0.5/0.5")).toThrow(/block: go on, skip and end must add up to 1/);
    expect(() => parseReaction("warn=1/0/0")).toThrow(/SIGNAL=GO\/SKIP\/END/);
    expect(parseReaction("stop=0/1/0").stop).toEqual({ goOn: 0, skip: 1, end: 0 });
  });
});

