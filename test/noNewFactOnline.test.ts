// The candidate `candidate:no-new-fact:3` is the miner's no-new-fact rule run online: on each small
// session where the miner finds a no-new-fact stretch, the candidate stops inside it, no earlier
// than the stretch's third call (a guard cannot know sooner that one fact came three times); on
// each near miss (an edit that took effect, new code read between, other packages, an append, a
// restore) the miner finds none and the candidate never stops.
import { describe, expect, it } from "vitest";
import { configFrom } from "../models/configResolution.js";
import type { ToolEvent } from "../models/events.js";
import { mineStretches } from "../src/realLoops/mine.js";
import { findBuiltInTarget } from "../src/targets/registry.js";
import { runTarget } from "../src/targets/target.js";
import { NO_NEW_FACT_CASES } from "./fixtures/noNewFactSessions.js";

const candidate = findBuiltInTarget("candidate:no-new-fact:3");
const config = configFrom({ enabled: true });
/** The call (0-based, two events per call in these sessions) at whose answer the candidate stopped, or -1. */
const stopCall = (events: readonly ToolEvent[]): number => {
  if (candidate === undefined) throw new Error("candidate:no-new-fact:3 is not a built-in target");
  const at = runTarget(candidate, config, events).find((o) => o.kind === "abort")?.index;
  return at === undefined ? -1 : Math.floor(at / 2);
};
/** The case's stretch as the miner reports it (no-new-fact, or a rule that took the calls before it: c.mined). */
const minedAs = (c: { readonly mined: string }) => (events: readonly ToolEvent[]) => mineStretches(events).filter((s) => s.rule === c.mined.split(" ")[0]);

describe("candidate:no-new-fact:3 against the miner's no-new-fact rule", () => {
  for (const c of NO_NEW_FACT_CASES) {
    it(`stops inside the stretch, and not in its near miss: ${c.name}`, () => {
      const noNewFact = minedAs(c);
      const [stretch, ...more] = noNewFact(c.stuck);
      expect(stretch).toBeDefined();
      expect(more).toEqual([]);
      if (stretch === undefined) return;
      const at = stopCall(c.stuck);
      expect(at).toBeGreaterThanOrEqual(stretch.firstCall + 2);
      expect(at).toBeLessThanOrEqual(stretch.lastCall);
      expect(noNewFact(c.nearMiss)).toEqual([]);
      expect(stopCall(c.nearMiss)).toBe(-1);
    });
  }
});
