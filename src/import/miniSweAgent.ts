// mini-swe-agent trajectories (.traj.json, trajectory_format mini-swe-agent-1):
// {info: {exit_status, submission}, messages: [{role, content}]}.
// - call: the first ```bash block of an assistant message, as tool `bash` (SPEC E2 makes it exec)
//   with params {command}, when the next user message shows it ran;
// - outcome: that user message, <returncode>N</returncode><output>...</output>, as an exec result
//   {status: completed | failed, exitCode, aggregated: output}; non-zero codes are errors;
// - an assistant turn whose reply has no return code (a format or timeout message: no command,
//   or more than one) is counted (turnsWithoutCommand) and left out, not dropped silently;
// - one run per file, named after the file (the instance); no compaction.
import { basename } from "node:path";
import { isObject } from "./jsonl.js";
import { arrayElements } from "./jsonDocument.js";
import { textResult, type ImportedEvent, type Importer } from "./types.js";

const BASH_BLOCK = /```bash[ \t]*\n([\s\S]*?)\n```/g;

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((b) => (isObject(b) && typeof b.text === "string" ? b.text : "")).join("\n");
  return "";
}

export function instanceOf(file: string): string {
  return basename(file).replace(/\.traj(\.json)?$/, "").replace(/\.json$/, "");
}

export function parseObservation(text: string): { exitCode: number | undefined; output: string } {
  const code = /<returncode>\s*(-?\d+)\s*<\/returncode>/.exec(text);
  const output = /<output>\n?([\s\S]*?)<\/output>/.exec(text) ?? /<output_head>\n?([\s\S]*?)<\/output_head>/.exec(text);
  return { exitCode: code === null ? undefined : Number(code[1]), output: output === null ? text : (output[1] as string) };
}

export const miniSweAgentImporter: Importer = {
  format: "mini-swe-agent",
  async *events(file, stats): AsyncGenerator<ImportedEvent> {
    const run = instanceOf(file);
    // The reply decides: an observation with a return code means the turn's command ran.
    let turn: { at: string; command: string | undefined } | undefined;
    let n = 0;
    for await (const { index, value } of arrayElements(file, "messages")) {
      const at = `${file}#messages[${index}]`;
      if (!isObject(value)) continue;
      const text = textOf(value.content);
      if (value.role === "assistant") {
        const block = BASH_BLOCK.exec(text);
        BASH_BLOCK.lastIndex = 0;
        turn = { at, command: block === null ? undefined : (block[1] as string).trim() };
      } else if (value.role === "user" && turn !== undefined) {
        const { exitCode, output } = parseObservation(text);
        if (exitCode === undefined || turn.command === undefined) {
          stats.turnsWithoutCommand++;
          turn = undefined;
          continue;
        }
        const callId = `step-${++n}`;
        const params = { command: turn.command };
        stats.calls++;
        yield { event: { type: "call", runId: run, callId, tool: "bash", params }, at: turn.at };
        stats.outcomes++;
        if (exitCode !== 0) stats.errors++;
        yield { event: { type: "outcome", runId: run, callId, tool: "bash", params, result: textResult(output, { status: exitCode === 0 ? "completed" : "failed", exitCode, aggregated: output }) }, at };
        turn = undefined;
      }
    }
    stats.runs = stats.calls > 0 ? 1 : 0;
    if (stats.turnsWithoutCommand > 0) stats.notes.push(`${stats.turnsWithoutCommand} assistant turns got no command run (format or timeout replies): counted, left out`);
  },
};
