// `loopsim simulate`: one closed-loop agent from one seed, printed like `loopsim trace`.
// `runSimulation` returns the lines and files; the command line prints and writes them.
import type { ResolvedConfig } from "../../models/config.js";
import { MODEL_PRESETS, type ModelPreset } from "../sim/agentModel.js";
import { MAX_SIMULATED_CALLS, simulate, type SimulationSummary } from "../sim/simulate.js";
import { FAMILY_NAMES } from "../sim/families.js";
import { UserError } from "../io/errors.js";
import { unknownName } from "../format/didYouMean.js";
import { outputJsonLine } from "../format/outputJson.js";
import { timelineLine } from "../format/timeline.js";
import { targetRef, type Target } from "../targets/target.js";
import { basename } from "node:path";
import { expectationOf } from "../scenario/facts.js";
import { SCENARIO_SCHEMA, type Scenario } from "../scenario/scenario.js";
import { scenarioText } from "../scenario/write.js";

/** What one simulated agent runs with: its family, seed, model and calls, the config and the target. */
export interface SimulateOptions {
  readonly family: string;
  readonly seed: number;
  readonly model: ModelPreset;
  readonly calls: number;
  readonly config: ResolvedConfig;
  readonly json: boolean;
  readonly emitTrace?: string;
  /** Write a scenario that replays this simulation (config as the user wrote it, and the agent). */
  readonly emitScenario?: { readonly file: string; readonly rawConfig: unknown; readonly agent?: string };
  readonly target: Target;
}

export function eventsJsonl(events: readonly unknown[]): string {
  return events.map((e) => JSON.stringify(e)).join("\n") + (events.length > 0 ? "\n" : "");
}

export function summaryLines(s: SimulationSummary): string[] {
  const at = (n: number) => (n < 0 ? "never" : `attempt ${n}`);
  return [
    `-- ${s.family} (${s.label}), model ${s.model}, seed ${s.seed}`,
    `-- attempts ${s.attempts}, executed ${s.executed}, loop calls ${s.loopCalls}, compactions ${s.compactions}`,
    `-- first emitted warning: ${at(s.firstWarning)}; first block: ${at(s.firstBlock)}; abort: ${at(s.firstAbort)}`,
    `-- ${s.caught ? "caught" : "not caught"}${s.escapedAfterWarning ? " (escaped after a warning)" : ""}; wasted ${s.wastedCalls} loop calls, ${s.wastedTokens} tokens; blocks on progressing work: ${s.falseBlocks}`,
  ];
}

/** The checks the command line's parsers make, for a library caller: each a user error naming the option. */
function refuseBadSimulation(options: SimulateOptions): void {
  if (options === null || typeof options !== "object") throw new UserError("runSimulation: options must be an object (family, seed, model, calls, config, json, target)");
  if (!FAMILY_NAMES.includes(options.family)) throw new UserError(`runSimulation: options.family ${unknownName("family", String(options.family), FAMILY_NAMES)}`);
  if (!Number.isSafeInteger(options.seed) || options.seed < 0) throw new UserError(`runSimulation: options.seed must be a whole number from 0 (got ${String(options.seed)})`);
  if (!MODEL_PRESETS.includes(options.model)) throw new UserError(`runSimulation: options.model ${unknownName("model preset", String(options.model), MODEL_PRESETS)}`);
  if (!Number.isSafeInteger(options.calls) || options.calls < 1 || options.calls > MAX_SIMULATED_CALLS) throw new UserError(`runSimulation: options.calls must be a whole number from 1 to ${MAX_SIMULATED_CALLS} (got ${String(options.calls)})`);
  if (options.target === null || typeof options.target !== "object" || typeof options.target.start !== "function") throw new UserError("runSimulation: options.target must be a loopsim target (from loadTarget or asTarget)");
}

/** One simulated agent's run, as `loopsim simulate` prints and writes it. */
export interface SimulateRun {
  /** The timeline (or JSON) lines, the summary last. */
  readonly lines: readonly string[];
  /** The event stream as JSONL (what --emit-trace writes). */
  readonly trace: string;
  /** With `emitScenario`: the scenario that replays this simulation, and its file. */
  readonly scenario?: { readonly file: string; readonly text: string };
}

/**
 * One closed-loop agent from one seed through its target; writes and prints nothing. The same
 * options give the same run, byte for byte.
 */
export function runSimulation(options: SimulateOptions): SimulateRun {
  refuseBadSimulation(options);
  const result = simulate({ family: options.family, seed: options.seed, calls: options.calls, model: options.model }, options.config, options.target);
  let scenario: SimulateRun["scenario"];
  if (options.emitScenario !== undefined) {
    const { file, rawConfig, agent } = options.emitScenario;
    const spec = { family: options.family, seed: options.seed, calls: options.calls, model: options.model };
    const emitted: Scenario = {
      schema: SCENARIO_SCHEMA,
      id: basename(file).replace(/\.json$/, ""),
      title: `${options.family}, seed ${options.seed}, model ${options.model}`,
      description: `Recorded by loopsim simulate --emit-scenario: the closed loop of one ${options.family} agent.`,
      covers: [],
      config: rawConfig,
      agent: agent ?? null,
      source: { simulation: spec },
      ...(options.target.name === "reference" ? {} : { target: targetRef(options.target) }),
      expected: expectationOf(result.outputs, result.events.length),
    };
    scenario = { file, text: scenarioText(emitted) };
  }
  const format = options.json ? outputJsonLine : timelineLine;
  // The summary closes the output either way; in JSON it is one last object of its own type.
  const lines = [...result.outputs.map((output) => format(output)), ...(options.json ? [JSON.stringify({ type: "summary", ...result.summary })] : summaryLines(result.summary))];
  return { lines, trace: eventsJsonl(result.events), ...(scenario === undefined ? {} : { scenario }) };
}
