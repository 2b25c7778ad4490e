// `loopsim trace FILE|-`: runs a recorded trace through the engine, streaming.
import type { ResolvedConfig } from "../../models/config.js";
import { createEngine, engineStep, type HistoryKind } from "../../models/engine.js";
import type { EngineHooks } from "../../models/engineHooks.js";
import { UserError } from "../cli/errors.js";
import { outputJsonLine } from "../format/outputJson.js";
import { timelineLine } from "../format/timeline.js";
import { LineWriter } from "../io/bufferedOutput.js";
import { parseEventLine } from "../io/eventSchema.js";
import { readLines } from "../io/lines.js";

export interface TraceOptions {
  readonly config: ResolvedConfig;
  readonly json: boolean;
  readonly history?: HistoryKind;
  readonly hooks?: EngineHooks;
}

export async function traceCommand(path: string, options: TraceOptions): Promise<void> {
  const state = createEngine(options.config, { history: options.history, hooks: options.hooks });
  const writer = new LineWriter();
  const format = options.json ? outputJsonLine : timelineLine;
  const source = path === "-" ? "<stdin>" : path;
  let lineIndex = -1;
  try {
    for await (const line of readLines(path)) {
      lineIndex++;
      if (line.trim() === "") continue;
      const parsed = parseEventLine(line, `${source}:${lineIndex + 1}`);
      if (!parsed.ok) throw new UserError(parsed.problems.join("\n"));
      state.nextIndex = lineIndex;
      for (const output of engineStep(state, parsed.event).outputs) await writer.line(format(output));
    }
  } finally {
    await writer.flush();
  }
}
