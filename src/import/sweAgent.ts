// SWE-agent trajectories (.traj): {trajectory: [{action, observation, thought, response}],
// history, info: {exit_status, submission}}.
// - call: each trajectory step's action; its tool is the action's first word (open, edit,
//   search_dir, find_file, submit, or a shell command such as python or pytest), params {command};
// - outcome: the step's observation as a text result; an observation that says the command timed
//   out is {status: timeout, timedOut: true} (SWE-agent records no exit codes, so timeouts are the
//   only failures this format can show);
// - not calls: a step with an empty action, or one the harness could not parse (a malformed
//   action such as the model's "DISCUSSION ..." text, answered with a format-error observation)
//   is a format error; the harness's own bookkeeping steps (exit_cost, exit_context, exit_format,
//   exit_api, exit_error, ...) are harness steps; both are counted;
// - one run per file, named after the file; no compaction.
import { isObject } from "./jsonl.js";
import { arrayElements } from "./jsonDocument.js";
import { instanceOf } from "./miniSweAgent.js";
import { textResult, type ImportedEvent, type Importer } from "./types.js";

const HARNESS_STEP = /^exit_[a-z_]+$/;
const MALFORMED_OBSERVATION = /your output was not formatted correctly|your output can't be parsed|format error|you must (always )?include exactly one|did not include a discussion/i;
const MALFORMED_ACTION = /^(DISCUSSION|THOUGHT)\b/;
const TIMEOUT = /timed out|timeout after \d+/i;

export function classifyStep(action: string, observation: string): "call" | "format-error" | "harness" {
  if (action === "") return "format-error";
  if (HARNESS_STEP.test(action)) return "harness";
  if (MALFORMED_ACTION.test(action) || MALFORMED_OBSERVATION.test(observation)) return "format-error";
  return "call";
}

export const sweAgentImporter: Importer = {
  format: "swe-agent",
  async *events(file, stats): AsyncGenerator<ImportedEvent> {
    const run = instanceOf(file);
    for await (const { index, value } of arrayElements(file, "trajectory")) {
      const at = `${file}#trajectory[${index}]`;
      if (!isObject(value)) continue;
      const action = typeof value.action === "string" ? value.action.trim() : "";
      const observation = typeof value.observation === "string" ? value.observation : JSON.stringify(value.observation ?? "");
      const kind = classifyStep(action, observation);
      if (kind === "format-error") {
        stats.formatErrors++;
        continue;
      }
      if (kind === "harness") {
        stats.harnessSteps++;
        continue;
      }
      const tool = action.split(/\s+/)[0] as string;
      const callId = `step-${index + 1}`;
      const params = { command: action };
      stats.calls++;
      yield { event: { type: "call", runId: run, callId, tool, params }, at };
      stats.outcomes++;
      const result = TIMEOUT.test(observation) ? textResult(observation, { status: "timeout", timedOut: true }) : textResult(observation);
      yield { event: { type: "outcome", runId: run, callId, tool, params, result }, at };
    }
    stats.runs = stats.calls > 0 ? 1 : 0;
  },
};
