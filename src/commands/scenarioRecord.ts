// `loopsim scenario record TRACE_OR_SESSION --out S.json [--minimize FACT]`: a scenario file from
// any trace or session, its expectation recorded from the target; with --minimize, cut down by
// delta debugging to the smallest sub-trace that keeps the chosen fact. `planScenarioRecord`
// parses the arguments once, `runScenarioRecord` records and writes nothing; the command line
// (src/cli/program.ts) writes the file.
import type { ResolvedConfig } from "../../models/config.js";
import type { ToolEvent } from "../../models/events.js";
import { UserError } from "../io/errors.js";
import { openSession } from "../import/session.js";
import { statsLine } from "../import/summary.js";
import { factPredicate, parseFact, type Fact } from "../scenario/minimizeFact.js";
import { unknownName } from "../format/didYouMean.js";
import { minimizeKeepingPairs } from "../scenario/eventPairs.js";
import { scenarioFromEvents, scenarioText } from "../scenario/write.js";
import type { Scenario } from "../scenario/scenario.js";
import type { Target } from "../targets/target.js";
import { resolveTarget } from "../targets/registry.js";
import { configFromOptions, readConfigFile } from "../io/configFile.js";
import { basename } from "node:path";

/** What `loopsim scenario record` takes, as the command line (or a library caller) hands it over. */
export interface RecordArgs {
  /** A loopsim trace or a session file of any format loopsim reads. */
  readonly input: string;
  /** The scenario file to write (the caller writes it; its name gives the scenario's id). */
  readonly out: string;
  /** OpenClaw config file (JSON or JSON5); the defaults when absent. The scenario keeps it as written. */
  readonly config?: string;
  /** The agent whose agents.list override applies (needs `config`). */
  readonly agent?: string;
  /** The target whose verdicts the expectation records (a name as `--target` takes it; default reference). */
  readonly target?: string;
  /** A fact to keep while cutting the trace down (`--minimize`, e.g. `first-block`). */
  readonly minimize?: string;
}

/** A parsed `scenario record`: the config (resolved, and as written), the target (loaded) and the fact to keep. */
export interface RecordPlan {
  readonly input: string;
  readonly out: string;
  readonly config: ResolvedConfig;
  /** The config as the user wrote it (the scenario keeps it). */
  readonly rawConfig: unknown;
  readonly agent?: string;
  readonly target: Target;
  /** `--minimize` as given, and parsed. */
  readonly minimize?: string;
  readonly fact?: Fact;
}

/**
 * Parses and checks what `scenario record` is given, once, before the input is read: the config,
 * the target, and the fact to keep (a detector the target never answers with could never be
 * found). Each problem is a user error (exitCode 2) naming the flag.
 */
export async function planScenarioRecord(args: RecordArgs): Promise<RecordPlan> {
  if (args === null || typeof args !== "object" || typeof args.input !== "string" || args.input === "") throw new UserError("scenario record: input must be a trace or session file");
  if (typeof args.out !== "string" || args.out === "") throw new UserError("scenario record: --out must name the scenario file to write");
  const config = configFromOptions(args.config, args.agent);
  const target = await resolveTarget(args.target ?? "reference");
  const rawConfig = args.config === undefined ? {} : readConfigFile(args.config);
  const fact = args.minimize === undefined ? undefined : parseFact(args.minimize);
  const detectors = target.capabilities.detectors;
  if (fact !== undefined && "detector" in fact && fact.detector !== undefined && !detectors.includes(fact.detector)) {
    throw new UserError(`--minimize ${args.minimize}: ${unknownName(`detector of ${target.name}`, fact.detector, detectors)}`);
  }
  return { input: args.input, out: args.out, config, rawConfig, ...(args.agent === undefined ? {} : { agent: args.agent }), target, ...(args.minimize === undefined ? {} : { minimize: args.minimize }), ...(fact === undefined ? {} : { fact }) };
}

/** A recorded scenario: the scenario, its file's text, and what was kept. */
export interface RecordRun {
  readonly scenario: Scenario;
  /** The scenario file's text, as the caller writes it to `out`. */
  readonly text: string;
  /** Events read from the input, and kept in the scenario. */
  readonly events: number;
  readonly kept: number;
  /** With a fact: what was kept and how many runs of delta debugging it took. */
  readonly what: string;
}

/**
 * Reads the input, records the target's verdicts as the expectation and, with a fact, cuts the
 * events down by delta debugging to the fewest that keep it; writes nothing. `notice` hears the
 * import's summary as soon as the input is read.
 */
export async function runScenarioRecord(plan: RecordPlan, notice: (line: string) => void = () => undefined): Promise<RecordRun> {
  const { input, fact } = plan;
  // Model text is kept for a target that judges it; for the others it would only be dead weight.
  const opened = await openSession(input, "auto", { text: plan.target.capabilities.readsText === true });
  const events: ToolEvent[] = [];
  for await (const { event } of opened.events) events.push(event);
  notice(statsLine(input, opened.format, opened.stats));
  if (events.length === 0) throw new UserError(`${input}: no events to record`);
  let kept = events;
  let what = "";
  if (fact !== undefined) {
    const { holds, describe } = factPredicate(fact, plan.target, plan.config, events);
    const result = minimizeKeepingPairs(events, holds, { maxTests: 50_000 });
    kept = result.kept;
    what = ` keeping the ${plan.minimize ?? ""} (${describe}); ${result.tests} runs of delta debugging`;
  }
  const id = basename(plan.out).replace(/\.json$/, "");
  const scenario = scenarioFromEvents(
    {
      id,
      title: `${fact === undefined ? "Recorded" : "Minimal"} from ${basename(input)}`,
      description: `Recorded by loopsim scenario record from ${input} (${opened.format}, ${events.length} events)${fact === undefined ? "" : `, cut down to ${kept.length} events keeping the ${plan.minimize ?? ""}`}.`,
      covers: [],
      config: plan.rawConfig,
      agent: plan.agent ?? null,
      events: kept,
    },
    plan.target,
  );
  return { scenario, text: scenarioText(scenario), events: events.length, kept: kept.length, what };
}
