// A scenario: one file that reproduces a behaviour exactly. Versioned; see README "Scenarios".
import type { ModelPreset } from "../sim/agentModel.js";

export const SCENARIO_SCHEMA = "loopsim/scenario@1";

export interface SimulationSource {
  readonly simulation: { readonly family: string; readonly seed: number; readonly calls: number; readonly model: ModelPreset };
}
export interface EventsSource {
  readonly events: readonly unknown[];
}
export type ScenarioSource = SimulationSource | EventsSource;

export interface VerdictFact {
  readonly index: number;
  readonly detector: string;
  readonly count: number;
}

export interface ScenarioFacts {
  readonly events: number;
  readonly calls: number;
  readonly firstWarning: VerdictFact | null;
  readonly firstBlock: VerdictFact | null;
  readonly emittedWarnings: number;
  readonly warnings: number;
  readonly blocks: number;
  readonly abort: { readonly index: number; readonly tool: string; readonly count: number } | null;
  readonly ignored: number;
}

export interface ScenarioExpected {
  /** sha256 of the whole verdict timeline (the `trace --json` lines). */
  readonly digest: string;
  readonly facts: ScenarioFacts;
  /** One short line per output, for a readable diff when the digest no longer matches. */
  readonly timeline: readonly string[];
}

export interface LawReplay {
  readonly name: string;
  readonly seed: number;
  readonly path: string;
  /** LOOPSIM_STRICT when the failure was found: the anomaly exceptions change what a law accepts. */
  readonly strict?: string;
}

export interface Scenario {
  readonly schema: typeof SCENARIO_SCHEMA;
  readonly id: string;
  readonly title: string;
  readonly description: string;
  /** SPEC rule IDs and upstream issue numbers this scenario covers, machine-checkable. */
  readonly covers: readonly string[];
  readonly config: unknown;
  /**
   * The config goes to the runtime's resolution (SPEC C3) without C2's validation, as a config
   * that bypassed validation does: set by loopsim when it records one (generated counterexamples,
   * the C3 probe), so such a scenario replays instead of being rejected.
   */
  readonly configBypassesValidation?: boolean;
  readonly agent: string | null;
  readonly source: ScenarioSource;
  /**
   * A counterexample captured from a failing property: the law it broke and fast-check's seed and
   * path, so that replaying the file checks the law again and fails while the law is broken (its
   * timeline alone would replay as PASS, being what the subject does).
   */
  readonly law?: LawReplay;
  /** The target the expectation was recorded from, when it is not the reference (a release, say). */
  readonly target?: string;
  readonly expected: ScenarioExpected;
}
