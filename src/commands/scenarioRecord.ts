// `loopsim scenario record TRACE_OR_SESSION --out S.json [--minimize FACT]`: a scenario file from
// any trace or session, its expectation recorded from the target; with --minimize, cut down by
// delta debugging to the smallest sub-trace that keeps the chosen fact.
import type { ResolvedConfig } from "../../models/config.js";
import type { ToolEvent } from "../../models/events.js";
import { UserError } from "../io/errors.js";
import { openSession } from "../import/session.js";
import { statsLine } from "../import/summary.js";
import { factPredicate, parseFact } from "../scenario/minimizeFact.js";
import { unknownName } from "../format/didYouMean.js";
import { minimizeKeepingPairs } from "../scenario/eventPairs.js";
import { scenarioFromEvents, scenarioText, writeScenario } from "../scenario/write.js";
import type { Target } from "../targets/target.js";
import { basename } from "node:path";

export interface RecordOptions {
  readonly config: ResolvedConfig;
  /** The config as the user wrote it (the scenario keeps it), and the agent. */
  readonly rawConfig: unknown;
  readonly agent?: string;
  readonly target: Target;
  readonly out: string;
  readonly minimize?: string;
}

export async function scenarioRecordCommand(input: string, options: RecordOptions): Promise<void> {
  const fact = options.minimize === undefined ? undefined : parseFact(options.minimize);
  // A detector the target never answers with could never be found: say so before reading anything.
  const detectors = options.target.capabilities.detectors;
  if (fact !== undefined && "detector" in fact && fact.detector !== undefined && !detectors.includes(fact.detector)) {
    throw new UserError(`--minimize ${options.minimize}: ${unknownName(`detector of ${options.target.name}`, fact.detector, detectors)}`);
  }
  // Model text is kept for a target that judges it; for the others it would only be dead weight.
  const opened = await openSession(input, "auto", { text: options.target.capabilities.readsText === true });
  const events: ToolEvent[] = [];
  for await (const { event } of opened.events) events.push(event);
  process.stderr.write(`loopsim: ${statsLine(input, opened.format, opened.stats)}\n`);
  if (events.length === 0) throw new UserError(`${input}: no events to record`);
  let kept = events;
  let what = "";
  if (fact !== undefined) {
    const { holds, describe } = factPredicate(fact, options.target, options.config, events);
    const result = minimizeKeepingPairs(events, holds, { maxTests: 50_000 });
    kept = result.kept;
    what = ` keeping the ${options.minimize} (${describe}); ${result.tests} runs of delta debugging`;
  }
  const id = basename(options.out).replace(/\.json$/, "");
  const scenario = scenarioFromEvents(
    {
      id,
      title: `${fact === undefined ? "Recorded" : "Minimal"} from ${basename(input)}`,
      description: `Recorded by loopsim scenario record from ${input} (${opened.format}, ${events.length} events)${fact === undefined ? "" : `, cut down to ${kept.length} events keeping the ${options.minimize}`}.`,
      covers: [],
      config: options.rawConfig,
      agent: options.agent ?? null,
      events: kept,
    },
    options.target,
  );
  writeScenario(options.out, scenario);
  process.stderr.write(`loopsim: wrote ${options.out}: kept ${kept.length} of ${events.length} events${what}; ${Buffer.byteLength(scenarioText(scenario))} bytes\n`);
}
