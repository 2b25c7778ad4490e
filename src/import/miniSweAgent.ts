// mini-swe-agent trajectories (.traj.json, trajectory_format mini-swe-agent-1):
// {info: {exit_status, submission}, messages: [{role, content}]}.
// - call: an assistant message with exactly one ```bash block, as tool `bash` (SPEC E2 makes it
//   exec) with params {command}, whenever a user message follows it: every command that ran is
//   a call, whatever its reply looks like;
// - outcome: that reply. <returncode>N</returncode> with <output> (or <output_head>, the elided
//   marker and <output_tail>, kept whole as the file has them) is an exec result {status, exitCode,
//   aggregated}; a timeout reply is {status: timeout, timedOut: true}; a reply without a return
//   code (the final submit prints the patch) is {status: completed} with the reply as output;
// - an assistant message with no bash block or with several is a format error: the harness ran
//   nothing; counted, not a call;
// - model text: an assistant message's text beside its bash block (mini-swe-agent asks for a
//   "THOUGHT: ..." discussion there) is a thought, format errors' turns included;
// - one run per file, named after the file (the instance); no compaction.
import { basename } from "node:path";
import { isObject } from "./jsonl.js";
import { arrayElements } from "./jsonDocument.js";
import { textEvent, textResult, type ImportedEvent, type Importer } from "./types.js";

const BASH_BLOCK = /```bash[ \t]*\n([\s\S]*?)\n```/g;
const TIMEOUT = /timed out and has been killed|command timed out|timed out after \d+/i;

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((b) => (isObject(b) && typeof b.text === "string" ? b.text : "")).join("\n");
  return "";
}

export function instanceOf(file: string): string {
  return basename(file).replace(/\.traj(\.json)?$/, "").replace(/\.json$/, "");
}

export interface Observation {
  readonly exitCode: number | undefined;
  readonly output: string;
  readonly timedOut: boolean;
}

/** The reply to a command: its return code, its whole output, and whether it timed out. */
export function parseObservation(text: string): Observation {
  const code = /<returncode>\s*(-?\d+)\s*<\/returncode>/.exec(text);
  const whole = /<output>\n?([\s\S]*?)<\/output>/.exec(text);
  const headStart = text.indexOf("<output_head>");
  const tailEnd = text.indexOf("</output_tail>");
  let output = text;
  if (whole !== null) output = whole[1] as string;
  else if (headStart >= 0) output = tailEnd > headStart ? text.slice(headStart, tailEnd + "</output_tail>".length) : text.slice(headStart);
  return { exitCode: code === null ? undefined : Number(code[1]), output, timedOut: code === null && TIMEOUT.test(text) };
}

function resultOf(o: Observation): Record<string, unknown> {
  if (o.timedOut) return textResult(o.output, { status: "timeout", timedOut: true, aggregated: o.output });
  if (o.exitCode === undefined) return textResult(o.output, { status: "completed", aggregated: o.output });
  return textResult(o.output, { status: o.exitCode === 0 ? "completed" : "failed", exitCode: o.exitCode, aggregated: o.output });
}

export const miniSweAgentImporter: Importer = {
  format: "mini-swe-agent",
  async *events(file, stats): AsyncGenerator<ImportedEvent> {
    const run = instanceOf(file);
    let turn: { at: string; command: string | undefined } | undefined;
    let n = 0;
    let timeouts = 0;
    for await (const { index, value } of arrayElements(file, "messages")) {
      const at = `${file}#messages[${index}]`;
      if (!isObject(value)) continue;
      const text = textOf(value.content);
      if (value.role === "assistant") {
        const blocks = [...text.matchAll(BASH_BLOCK)];
        turn = { at, command: blocks.length === 1 ? (blocks[0]?.[1] as string).trim() : undefined };
        const thought = textEvent("thought", run, text.replace(BASH_BLOCK, "").trim(), at);
        if (thought !== undefined) yield thought;
      } else if (value.role === "user" && turn !== undefined) {
        if (turn.command === undefined) {
          stats.formatErrors++;
          turn = undefined;
          continue;
        }
        const observation = parseObservation(text);
        if (observation.timedOut) timeouts++;
        const callId = `step-${++n}`;
        const params = { command: turn.command };
        stats.calls++;
        yield { event: { type: "call", runId: run, callId, tool: "bash", params }, at: turn.at };
        stats.outcomes++;
        yield { event: { type: "outcome", runId: run, callId, tool: "bash", params, result: resultOf(observation) }, at };
        turn = undefined;
      }
    }
    stats.runs = stats.calls > 0 ? 1 : 0;
    if (stats.formatErrors > 0) stats.notes.push(`${stats.formatErrors} assistant turns had no single bash block (format errors): the harness ran nothing, not calls`);
    if (timeouts > 0) stats.notes.push(`${timeouts} commands timed out: calls, counted as failed`);
  },
};
