// `loopsim trace FILE|-`: runs a recorded trace through the engine, streaming.
import type { ResolvedConfig } from "../../models/config.js";
import type { Target } from "../targets/target.js";
import { UserError } from "../cli/errors.js";
import { outputJsonLine } from "../format/outputJson.js";
import { timelineLine } from "../format/timeline.js";
import { LineWriter } from "../io/bufferedOutput.js";
import { parseEventLine } from "../io/eventSchema.js";
import { readLines } from "../io/lines.js";

export interface TraceOptions {
  readonly config: ResolvedConfig;
  readonly json: boolean;
  readonly target: Target;
}

export async function traceCommand(path: string, options: TraceOptions): Promise<void> {
  const session = options.target.start(options.config);
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
      // Outputs are numbered by input line (0-based), blank lines included.
      for (const output of session.step(parsed.event)) await writer.line(format({ ...output, index: lineIndex }));
    }
  } finally {
    await writer.flush();
  }
}
