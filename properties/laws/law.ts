// A law is a named invariant over generated inputs, tied to SPEC IDs. Laws are run against the
// reference engine by the property tests and against every bug-zoo variant by the zoo test, so
// the same law that guards the reference is the one that catches a broken engine.
import type fc from "fast-check";
import type { ResolvedConfig } from "../../models/config.js";
import { runEngine, type HistoryKind } from "../../models/engine.js";
import { REFERENCE_HOOKS, type EngineHooks } from "../../models/engineHooks.js";
import type { EngineOutput } from "../../models/engineOutput.js";
import type { ToolEvent } from "../../models/events.js";
import type { ScenarioDraft } from "../../src/scenario/write.js";
import type { Coverage } from "./coverage.js";

/** The engine under test. */
export interface Subject {
  readonly name: string;
  readonly hooks: EngineHooks;
  readonly history: HistoryKind;
  run(config: ResolvedConfig, events: readonly ToolEvent[]): EngineOutput[];
}

export function subject(name: string, hooks: EngineHooks = REFERENCE_HOOKS, history: HistoryKind = "incremental"): Subject {
  return { name, hooks, history, run: (config, events) => runEngine(config, events, { hooks, history }) };
}

export const REFERENCE = subject("reference");
export const ORACLE = subject("oracle", REFERENCE_HOOKS, "scanning");

export interface Law<T> {
  readonly name: string;
  readonly spec: readonly string[];
  readonly arbitrary: fc.Arbitrary<T>;
  readonly runs: number;
  /** Coverage tags a passing run must reach. */
  readonly required: readonly string[];
  /** Throws with a one-line reason when the law does not hold. */
  check(value: T, subject: Subject, coverage: Coverage): void;
  /** The counterexample as a scenario draft (for failure capture). */
  scenario(value: T): Omit<ScenarioDraft, "id" | "title">;
}

export class LawBroken extends Error {}

export function broken(reason: string): never {
  throw new LawBroken(reason);
}
