// SWE-agent trajectories (.traj): {trajectory: [{action, observation, thought, response}],
// history, info: {exit_status, submission}}.
// - call: each trajectory step's action; its tool is the action's first word (open, edit,
//   search_dir, find_file, or a shell command such as python or pytest), its params {command};
// - outcome: the step's observation as a text result;
// - a step with an empty action is counted (turnsWithoutCommand) and left out;
// - one run per file, named after the file; no compaction.
import { isObject } from "./jsonl.js";
import { arrayElements } from "./jsonDocument.js";
import { instanceOf } from "./miniSweAgent.js";
import { textResult, type ImportedEvent, type Importer } from "./types.js";

export const sweAgentImporter: Importer = {
  format: "swe-agent",
  async *events(file, stats): AsyncGenerator<ImportedEvent> {
    const run = instanceOf(file);
    for await (const { index, value } of arrayElements(file, "trajectory")) {
      const at = `${file}#trajectory[${index}]`;
      if (!isObject(value)) continue;
      const action = typeof value.action === "string" ? value.action.trim() : "";
      if (action === "") {
        stats.turnsWithoutCommand++;
        continue;
      }
      const tool = action.split(/\s+/)[0] as string;
      const callId = `step-${index + 1}`;
      const params = { command: action };
      stats.calls++;
      yield { event: { type: "call", runId: run, callId, tool, params }, at };
      const observation = typeof value.observation === "string" ? value.observation : JSON.stringify(value.observation ?? "");
      stats.outcomes++;
      yield { event: { type: "outcome", runId: run, callId, tool, params, result: textResult(observation) }, at };
    }
    stats.runs = stats.calls > 0 ? 1 : 0;
  },
};
