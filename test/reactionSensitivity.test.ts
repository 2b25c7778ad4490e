// The reaction grid and what the reports conclude from it: a run reused at a grid point is the run
// that point would have made (common random numbers make this exact); the stated model's point
// gives the report's own picks; a pick declared to hold is the pick at every point; odds fitted to
// recorded interventions classify what the agent did next. In-process and small, so cheap.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ToolEvent } from "../models/events.js";
import { configFrom } from "../models/configResolution.js";
import { SEED } from "../properties/support.js";
import type { ConfigRow } from "../src/evaluation/evaluate.js";
import { injectLoop, INJECT_SHAPES, recordedScript } from "../src/grounded/injection.js";
import { DEFAULT_SESSION_REACTION, SIGNALS } from "../src/grounded/reaction.js";
import { gridPoints, gridSummary, parseReactionGrid, reactionAt, summariesAcrossGrid, type GridRunCount } from "../src/grounded/reactionGrid.js";
import { fittedReaction, interventionsIn, MIN_INTERVENTIONS, type ReactionFit } from "../src/grounded/reactionFit.js";
import { runSessionAgent } from "../src/grounded/sessionAgent.js";
import { REFERENCE_TARGET } from "../src/targets/reference.js";
import { picksAt, pickingMetrics, tuneReactionSensitivity } from "../src/tune/reactionSensitivity.js";
import { pickAll } from "../src/tune/recommend.js";
import type { GroundedSummary } from "../src/grounded/groundedPopulation.js";

const FILE = "test/reactionSensitivity.test.ts";

/** fast-check with the suite's seed; a failure names seed, path and the command that replays it. */
function holds<T>(name: string, arbitrary: fc.Arbitrary<T>, property: (value: T) => void, numRuns = 60): void {
  const path = process.env.FC_PATH;
  const details = fc.check(fc.property(arbitrary, property), { seed: SEED, numRuns, ...(path === undefined ? {} : { path }) });
  if (details.failed) {
    const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    const test = (expect.getState().currentTestName ?? name).split(" > ").at(-1) ?? name;
    throw new Error(`${name}: failed with seed ${details.seed}, path ${details.counterexamplePath}\nreplay: FC_SEED=${details.seed} FC_PATH=${details.counterexamplePath} npx vitest run ${FILE} -t "${test.replace(/"/g, '\\"')}"\ncounterexample: ${JSON.stringify(details.counterexample)}\n${error}`);
  }
}

const SMALL_GRID = parseReactionGrid("0,0.5,1x0,0.5,1") ?? { spec: "", heed: [], skip: [] };

describe("the reaction grid", () => {
  it("parses default, none and HEEDxSKIP, and refuses the rest in words", () => {
    expect(parseReactionGrid("default")).toMatchObject({ heed: [0, 0.25, 0.5, 0.75, 1], skip: [0, 0.25, 0.5, 0.75, 1] });
    expect(parseReactionGrid("none")).toBeUndefined();
    expect(parseReactionGrid("3x2")).toMatchObject({ heed: [0, 0.5, 1], skip: [0, 1] });
    for (const bad of ["5", "1x5", "0,2x1", "ax1", "12x2"]) expect(() => parseReactionGrid(bad)).toThrow(/--reaction-grid/);
  });

  it("keeps the stated model as point 0, and its own heed and skip shares give back its odds", () => {
    const points = gridPoints(DEFAULT_SESSION_REACTION, parseReactionGrid("default") ?? SMALL_GRID);
    expect(points).toHaveLength(26);
    expect(points[0]).toMatchObject({ heed: 0.4, skip: 0.6, stated: true, reaction: DEFAULT_SESSION_REACTION });
    const again = reactionAt(DEFAULT_SESSION_REACTION, 0.4, 0.6);
    for (const s of SIGNALS) for (const r of ["goOn", "skip", "end"] as const) expect(again[s][r]).toBeCloseTo(DEFAULT_SESSION_REACTION[s][r], 9);
    for (const p of points) for (const s of SIGNALS) expect(p.reaction[s].goOn + p.reaction[s].skip + p.reaction[s].end).toBeCloseTo(1, 9);
  });

  it("reuses a run only where it is the run the point would make (common random numbers)", () => {
    const sessions = fc.array(fc.record({ tool: fc.constantFrom("read", "exec", "grep"), arg: fc.nat(3) }), { minLength: 3, maxLength: 15 }).map((specs) =>
      specs.flatMap((s, i): ToolEvent[] => [
        { type: "call", tool: s.tool, params: { path: `f${s.arg}` } },
        { type: "outcome", tool: s.tool, params: { path: `f${s.arg}` }, result: `out ${s.arg} ${i % 2}` },
      ]),
    );
    const config = configFrom({ enabled: true, warningThreshold: 3, criticalThreshold: 6, globalCircuitBreakerThreshold: 12 });
    holds("grid runs equal direct runs", fc.tuple(sessions, fc.constantFrom(...INJECT_SHAPES), fc.nat(1000)), ([events, shape, seed]) => {
      const injected = injectLoop(events, shape, { min: 5, max: 20 }, seed, "s");
      for (const script of [recordedScript(events), injected.events]) {
        const agent = { family: "f", label: "stuck" as const, name: `s:${shape}`, seed, script };
        const points = gridPoints(DEFAULT_SESSION_REACTION, SMALL_GRID);
        const count: GridRunCount = { made: 0, reused: 0 };
        const grid = summariesAcrossGrid(agent, config, REFERENCE_TARGET, points, count);
        points.forEach((p, k) => expect(grid[k]).toEqual(runSessionAgent(agent, config, REFERENCE_TARGET, p.reaction).summary));
        expect(count.made + count.reused).toBe(points.length);
        // Never heeding a warning: no stuck agent escapes after one.
        points.forEach((p, k) => {
          if (p.heed === 0) expect(grid[k]?.escapedAfterWarning).toBe(false);
        });
      }
    }, 20);
  });
});

describe("picks across the grid", () => {
  const grounded = (points: number): GroundedSummary => {
    const summary = gridSummary(DEFAULT_SESSION_REACTION, SMALL_GRID);
    return { population: "p", primary: true, paths: [], sessions: 1, unreadable: 0, inject: { spec: "none", shapes: [], lengths: { min: 1, max: 1, distribution: "" }, what: {} }, reaction: DEFAULT_SESSION_REACTION, reactionText: "", agents: { session: 1 }, reactionGrid: { ...summary, points: summary.points.slice(0, points) } };
  };
  const share = fc.integer({ min: 0, max: 20 }).map((x) => x / 20);
  const numbers = fc.tuple(share, share, share, fc.integer({ min: 0, max: 5000 }), share, share, fc.nat(5000), fc.nat(50));
  const rowsArb = fc.array(fc.array(numbers, { minLength: 10, maxLength: 10 }), { minLength: 2, maxLength: 8 });

  it("gives the stated model's picks at point 0, and a pick said to hold is the pick at every point", () => {
    holds("stable picks are picks everywhere", rowsArb, (perRow) => {
      const rows: ConfigRow[] = perRow.map((points, index) => ({ index, label: `c${index}`, block: {}, metrics: pickingMetrics(points[0] as number[]), reactionGrid: { points, runs: { made: 10, reused: 0 } } }));
      const summary = grounded(10);
      const s = tuneReactionSensitivity(rows, summary);
      expect(s).toBeDefined();
      const stated = pickAll(rows);
      for (const p of s?.picks ?? []) {
        expect(p.stated.index).toBe(stated[p.goal].index);
        for (let q = 1; q < 10; q++) {
          const at = picksAt(rows, q, true)[p.goal];
          expect(p.byPoint[q - 1]).toBe(at);
          if (p.holds) expect(at).toBe(p.stated.index);
        }
        expect(p.holds).toBe(p.flips.length === 0);
      }
    }, 40);
  });
});

describe("odds fitted to recorded interventions", () => {
  const call = (path: string): ToolEvent => ({ type: "call", tool: "read", params: { path } });
  const answer = (text: string): ToolEvent => ({ type: "outcome", tool: "read", result: text });
  const warning = "WARNING: read was called 10 times with the same arguments; repeating it risks identical outcomes. Change approach before it is blocked.";

  it("reads what the agent did next: the same call is going on, another is a skip, none is the end", () => {
    const events = [call("a"), answer(warning), call("a"), answer("x"), call("b"), answer("CRITICAL: read was called 20 times with the same arguments and identical outcomes. This call is blocked."), call("c"), answer("System: Potential loop detected. Details: repeated. Please take a step back")];
    expect(interventionsIn("s", events).map((i) => `${i.runtime}/${i.signal}/${i.reaction}`)).toEqual(["openclaw/warning/goOn", "openclaw/block/skip", "gemini-cli/block/end"]);
    expect(interventionsIn("s", [call("a"), answer("a WARNING: about this CRITICAL: thing in a file")])).toEqual([]);
  });

  it("fits nothing from too few interventions and says how many there were", () => {
    const empty = { n: 0, counts: { goOn: 0, skip: 0, end: 0 }, usable: false };
    const fit: ReactionFit = { paths: ["corpus"], sessions: 9, sessionsWithInterventions: 0, interventions: 0, bySignal: { warning: empty, block: empty, stop: empty }, minimum: MIN_INTERVENTIONS, patterns: [] };
    expect(() => fittedReaction(fit)).toThrow(/9 sessions under corpus hold 0 guard interventions \(0 warnings, 0 blocks\); fitting needs at least 20/);
  });
});
