// SWE-agent trajectories (.traj): {trajectory: [{action, observation, thought, response}],
// history, info: {exit_status, submission}}.
// - call: every step the environment ran, whatever its text; its tool is the action's first word
//   (open, edit, search_dir, find_file, submit, or a shell command such as python or pytest; a
//   model's stray "DISCUSSION ..." text that bash ran is tool DISCUSSION), params {command};
// - outcome: the step's observation as a text result. SWE-agent records no exit codes, so a
//   failure is read from what answered: a timeout reply is {status: timeout, timedOut: true}; a
//   shell's own error line (`bash: X: command not found`, `syntax error near unexpected token`)
//   is {status: failed}; so is an edit the tool rejected and did not apply ("Your proposed edit has
//   introduced new syntax error(s)", "No replacement was performed": failure.ts); any other
//   output is a plain result;
// - not calls: a step the harness rejected without running it is a format error. SWE-agent
//   answers such a step with its parser's format-error reply (0.x and 1.x parsers, the blocklist
//   and the `bash -n` check; see HARNESS_REJECTION), or, in 1.x trajectories, records it with an
//   empty observation and no execution time. A step with an empty action is one too. The
//   harness's own bookkeeping steps (exit_cost, exit_context, exit_format, exit_api, exit_error,
//   ...) are harness steps; both are counted;
// - model text: a step's `thought` (its DISCUSSION) is a thought, also for a step the harness
//   rejected (the model still wrote it); `response` (the whole reply, command included) is not;
// - one run per file, named after the file; no compaction.
import { isObject } from "./jsonl.js";
import { arrayElements } from "./jsonDocument.js";
import { rejectedEditText } from "./failure.js";
import { instanceOf } from "./miniSweAgent.js";
import { textEvent, textResult, type ImportedEvent, type Importer } from "./types.js";

const HARNESS_STEP = /^exit_[a-z_]+$/;
/**
 * The replies SWE-agent gives a step it did not run, from its source (SWE-agent/SWE-agent):
 * the parsers' error_message in sweagent/agent/parsing.py (0.x) and sweagent/tools/parsing.py
 * (1.x): ThoughtAction, XMLThoughtAction and EditFormat ("Your output was not formatted
 * correctly"), Action ("The command you provided was not recognized"), ActionOnly ("No message
 * found in model response"), Identity ("It seems like something went wrong with your output"),
 * Json ("Your output could not be parsed as JSON"), FunctionCalling and XMLFunctionCalling ("Your
 * last output did not use any tool calls", "... included multiple tool calls", "Your action could
 * not be parsed properly"), the bash code block parsers ("No bash code blocks were detected", "We
 * did not detect the right number of bash code blocks"); the blocklist ("Interactive operation
 * 'X' is not supported" in 0.x, "Operation 'X' is not supported by this environment" in 1.x,
 * tools.py) and the `bash -n` check ("Your bash command contained syntax errors and was NOT
 * executed", agents.py). Anchored at the start: a command's own output that merely quotes one
 * of them was still run.
 */
const HARNESS_REJECTION = new RegExp(
  "^\\s*(?:" +
    [
      "your output was not formatted correctly",
      "the command you provided was not recognized",
      "no message found in model response",
      "it seems like something went wrong with your output",
      "your output could not be parsed as json",
      "your last output did not use any tool calls",
      "your last output included multiple tool calls",
      "your action could not be parsed properly",
      "no bash code blocks were detected in your output",
      "we did not detect the right number of bash code blocks",
      "(?:interactive )?operation '[^']*' is not supported by this environment",
      "your bash command contained syntax errors and was not executed",
    ].join("|") +
    ")",
  "i",
);
/** A shell's own error line: bash, sh or dash could not run (part of) the action. */
const SHELL_ERROR = /^(?:\/(?:usr\/)?bin\/)?(?:ba|da|z)?sh: (?:line )?(?:\d+: )?(?:.*: (?:command )?not found|syntax error\b)/m;
/** SWE-agent's timeout replies: 0.x "EXECUTION TIMED OUT ...", 1.x "The command 'X' was cancelled because it took more than N seconds". */
const TIMEOUT = /timed out|timeout after \d+|was cancelled because it took more than/i;

export type StepKind = "call" | "format-error" | "harness";

/**
 * What a trajectory step was. `executionTime` is 1.x's per-step field: SWE-agent 1.x appends a
 * step it rejected (parse failure, blocklist, syntax check) to the trajectory with its default
 * empty observation and zero execution time; 0.x leaves such steps out of the trajectory.
 */
export function classifyStep(action: string, observation: string, executionTime?: number): StepKind {
  if (action === "") return "format-error";
  if (HARNESS_STEP.test(action)) return "harness";
  if (HARNESS_REJECTION.test(observation)) return "format-error";
  if (executionTime === 0 && observation.trim() === "") return "format-error";
  return "call";
}

/** The outcome of a step that ran, with its failure (if any) in the shape failure.ts reads. */
export function stepResult(observation: string): Record<string, unknown> {
  if (TIMEOUT.test(observation)) return textResult(observation, { status: "timeout", timedOut: true });
  if (SHELL_ERROR.test(observation) || rejectedEditText(observation)) return textResult(observation, { status: "failed" });
  return textResult(observation);
}

export const sweAgentImporter: Importer = {
  format: "swe-agent",
  async *events(file, stats): AsyncGenerator<ImportedEvent> {
    const run = instanceOf(file);
    let shellErrors = 0;
    for await (const { index, value } of arrayElements(file, "trajectory")) {
      const at = `${file}#trajectory[${index}]`;
      if (!isObject(value)) continue;
      const action = typeof value.action === "string" ? value.action.trim() : "";
      const observation = typeof value.observation === "string" ? value.observation : JSON.stringify(value.observation ?? "");
      const kind = classifyStep(action, observation, typeof value.execution_time === "number" ? value.execution_time : undefined);
      if (kind !== "harness") {
        const thought = textEvent("thought", run, value.thought, at);
        if (thought !== undefined) yield thought;
      }
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
      const result = stepResult(observation);
      if ((result.details as { status?: string } | undefined)?.status === "failed") shellErrors++;
      yield { event: { type: "outcome", runId: run, callId, tool, params, result }, at };
    }
    stats.runs = stats.calls > 0 ? 1 : 0;
    if (stats.formatErrors > 0) stats.notes.push(`${stats.formatErrors} steps the harness rejected without running them (format errors): not calls`);
    if (shellErrors > 0) stats.notes.push(`${shellErrors} steps the shell answered with its own error (command not found, syntax error) or an edit the tool rejected: calls, counted as failed`);
  },
};
