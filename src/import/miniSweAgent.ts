// mini-swe-agent trajectories (.traj.json, also .traj.json.gz): {info: {exit_status, submission,
// config}, messages: [{role, content}], trajectory_format}. What a call is follows the shared
// convention (docs/guide/formats.md): every action the environment ran and answered, in order.
// - mini-swe-agent-1: an assistant message is a call when the next message answers it with a
//   `<returncode>` (or a timeout notice for its command). A format-error reply ("Please always
//   provide EXACTLY ONE action ...", "Could not extract function name ...") ran nothing: counted,
//   not a call; neither is the final submission, which the harness echoes as the run's patch
//   instead of an observation (it has no return code).
//   The action is found with the trajectory's own recorded regex, info.config.agent.action_regex
//   (Python syntax, applied with re.DOTALL: pythonRegex.ts), or ```bash ... ``` when it has none
//   or it cannot be translated: some runs indent the fence, closing fence included. Exactly one
//   match is a shell command: tool `bash` (SPEC E2 makes it exec), params {command}.
//   Harnesses that ask for Python calls instead (`return exec_bash_cmd('ls')`, CaM's
//   `print_code_context('a.py', (1, 140))`) have no fence: the action's statement-level calls are
//   parsed (pythonCall.ts). `exec_bash_cmd(cmd)` is the same shell tool as a fenced block, so
//   guards compare like with like: tool `bash`, params {command}. Any other function is the tool,
//   its arguments the params, positional ones named by the parameter names the system prompt
//   declares for that tool (`2. print_code_context(file_path: str, lines: Tuple)`), so that
//   `f('a', (1, 2))` and `f(file_path='a', lines=(1, 2))` are one call; a tool the prompt does
//   not declare keeps its positional arguments as {args: [...]}. An action of several calls is
//   one call (one observation answered it): the first call's tool, params {calls: [...]} listing
//   every call in order (calls of the declared tools only, when the body also calls plain Python
//   such as open() or re.sub() around them). An answered action with no parseable command at all is tool `action`,
//   params {text}, so that it is still counted and compared.
// - mini-swe-agent-1.1: assistant messages carry OpenAI `tool_calls` ({id, function: {name,
//   arguments (a JSON string)}}); each entry answered by a `tool` message with its
//   `tool_call_id` is a call (tool = the function, `bash` with {command}). The closing `exit`
//   message (the submission) answers nothing.
// - outcome: the reply. <returncode>N</returncode> with <output> (or <output_head>, the elided
//   marker and <output_tail>, kept whole as the file has them) is an exec result {status, exitCode,
//   aggregated}; a timeout reply is {status: timeout, timedOut: true};
// - model text: an assistant message's text beside its action is a thought (for a fenced action,
//   the text without the fence; for a Python action, its `#` comment lines);
// - one run per file, named after the file (the instance); no compaction.
import { basename } from "node:path";
import { plainName } from "../io/compressed.js";
import { isObject } from "./jsonl.js";
import { arrayElements, topValue, wholeArrayElements, wholeTopValue } from "./jsonDocument.js";
import { declaredSignatures, pythonCalls, type PythonCall, type PyValue } from "./pythonCall.js";
import { findallValue, fromPythonRegex } from "./pythonRegex.js";
import { textEvent, textResult, type ImportedEvent, type Importer, type ImportStats } from "./types.js";

/** mini-swe-agent's default action regex, for trajectories that record none. */
const DEFAULT_ACTION = /```bash[ \t]*\n([\s\S]*?)\n```/g;
const TIMEOUT = /timed out and has been killed|command timed out|timed out after \d+/i;
/** The Python function that runs a shell command, as the CaM harness names it. */
const SHELL_FUNCTIONS: ReadonlySet<string> = new Set(["exec_bash_cmd"]);

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((b) => (isObject(b) && typeof b.text === "string" ? b.text : "")).join("\n");
  return "";
}

export function instanceOf(file: string): string {
  return basename(plainName(file)).replace(/\.traj(\.json)?$/, "").replace(/\.json$/, "");
}

export interface Observation {
  readonly exitCode: number | undefined;
  readonly output: string;
  readonly timedOut: boolean;
}

/** The reply to a command: its return code, its whole output, and whether it timed out. */
/**
 * What /<output>\n?([\s\S]*?)<\/output>/ captures, found with indexOf (outputs run to megabytes,
 * and the lazy scan tests every character): from the first <output> and the newline after it, if
 * any, to the first </output> after that; none when no </output> follows the first <output>.
 */
function wrappedOutput(text: string): string | undefined {
  const open = text.indexOf("<output>");
  if (open === -1) return undefined;
  let from = open + "<output>".length;
  if (text[from] === "\n") from++;
  const close = text.indexOf("</output>", from);
  return close === -1 ? undefined : text.slice(from, close);
}

export function parseObservation(text: string): Observation {
  const code = /<returncode>\s*(-?\d+)\s*<\/returncode>/.exec(text);
  const whole = wrappedOutput(text);
  const headStart = text.indexOf("<output_head>");
  const tailEnd = text.indexOf("</output_tail>");
  let output = text;
  if (whole !== undefined) output = whole;
  else if (headStart >= 0) output = tailEnd > headStart ? text.slice(headStart, tailEnd + "</output_tail>".length) : text.slice(headStart);
  // mini-swe-agent-1.1 reports a command the harness killed or could not run in an <exception>
  // block before <returncode>-1</returncode> and an empty <output> ("... timed out after 60
  // seconds"): that notice is all the agent was told, so it is the output (dropping it made every
  // timed-out pip install an empty success-less answer that no failure rule could read).
  // (Looked for only in a text that holds the opening tag: the lazy scan is tried at every "<" of a long output.)
  const exception = text.includes("<exception>") ? /<exception>([\s\S]*?)<\/exception>/.exec(text)?.[1]?.trim() : undefined;
  if (exception !== undefined && exception !== "") output = output.trim() === "" ? exception : `${exception}\n${output}`;
  return { exitCode: code === null ? undefined : Number(code[1]), output, timedOut: code === null && TIMEOUT.test(text) };
}

/** Whether a reply is the environment's answer to a command that ran (not a format error, not the submission). */
export function isObservation(text: string): boolean {
  // The timeout notice is the harness's template ("The last command <command>...</command> timed
  // out and has been killed"), read from its start: a submitted patch that happens to contain the
  // words "timed out" is no observation.
  return /<returncode>\s*-?\d+\s*<\/returncode>/.test(text) || (/^\s*the last (?:action|command)\b/i.test(text) && TIMEOUT.test(text));
}

function resultOf(o: Observation): Record<string, unknown> {
  if (o.timedOut) return textResult(o.output, { status: "timeout", timedOut: true, aggregated: o.output });
  if (o.exitCode === undefined) return textResult(o.output, { status: "completed", aggregated: o.output });
  return textResult(o.output, { status: o.exitCode === 0 ? "completed" : "failed", exitCode: o.exitCode, aggregated: o.output });
}

/** The action regex this trajectory recorded, translated, or the default. */
export function actionRegexOf(info: unknown): RegExp {
  const agent = isObject(info) && isObject(info.config) && isObject(info.config.agent) ? info.config.agent : undefined;
  const source = agent?.action_regex;
  return (typeof source === "string" ? fromPythonRegex(source) : undefined) ?? DEFAULT_ACTION;
}

export interface Action {
  readonly tool: string;
  readonly params: Record<string, unknown>;
  /** The model's text beside the action. */
  readonly thought: string;
}

/** One Python call as a tool and its params (see the header). */
function toolCallOf(call: PythonCall, signatures: ReadonlyMap<string, readonly string[]>): { tool: string; params: Record<string, unknown> } {
  if (SHELL_FUNCTIONS.has(call.name)) {
    const command = call.args[0] ?? call.kwargs.cmd ?? call.kwargs.command ?? "";
    return { tool: "bash", params: { command: typeof command === "string" ? command.trim() : command } };
  }
  const names = signatures.get(call.name);
  if (names === undefined) return { tool: call.name, params: call.args.length === 0 ? { ...call.kwargs } : { args: [...call.args], ...call.kwargs } };
  const params: Record<string, PyValue> = {};
  const extra: PyValue[] = [];
  call.args.forEach((arg, i) => {
    const name = names[i];
    if (name === undefined) extra.push(arg);
    else params[name] = arg;
  });
  if (extra.length > 0) params.args = extra;
  return { tool: call.name, params: { ...params, ...call.kwargs } };
}

/** The action of an assistant message: its one fenced command, else its Python calls. */
export function actionOf(text: string, regex: RegExp, signatures: ReadonlyMap<string, readonly string[]>): Action | undefined {
  const fenced = [...text.matchAll(regex)];
  if (fenced.length === 1) {
    // The thought is the text without its one match (what text.replace(regex, "") gives, without scanning the text again).
    const only = fenced[0] as RegExpMatchArray;
    const at = only.index ?? 0;
    return { tool: "bash", params: { command: findallValue(only).trim() }, thought: (text.slice(0, at) + text.slice(at + only[0].length)).trim() };
  }
  if (fenced.length > 1) return undefined;
  const all = pythonCalls(text);
  // The harness's tools, when the body also calls plain Python (open, Path, re.sub ...) around them.
  const declared = all.filter((c) => SHELL_FUNCTIONS.has(c.name) || signatures.has(c.name));
  const calls = declared.length > 0 ? declared : all;
  if (calls.length === 0) return undefined;
  const thought = text
    .split("\n")
    .filter((l) => /^\s*#/.test(l))
    .map((l) => l.replace(/^\s*#\s?/, ""))
    .join("\n")
    .trim();
  const tools = calls.map((c) => toolCallOf(c, signatures));
  if (tools.length === 1) return { ...(tools[0] as { tool: string; params: Record<string, unknown> }), thought };
  return { tool: (tools[0] as { tool: string }).tool, params: { calls: tools }, thought };
}

export const miniSweAgentImporter: Importer = {
  format: "mini-swe-agent",
  async *events(file, stats): AsyncGenerator<ImportedEvent> {
    const reader = messagesReader(file, stats, await topValue(file, "info"));
    for await (const { index, value } of arrayElements(file, "messages")) {
      const out: ImportedEvent[] = [];
      reader.message(index, value, out);
      yield* out;
    }
    const out: ImportedEvent[] = [];
    reader.end(out);
    yield* out;
  },
  wholeEvents(file, stats): Iterable<ImportedEvent> | undefined {
    // The same reader over a document parsed whole, without an async step per message.
    const info = wholeTopValue(file, "info");
    const messages = info === undefined ? undefined : wholeArrayElements(file, "messages");
    return info === undefined || messages === undefined ? undefined : wholeRead(messagesReader(file, stats, info.value), messages);
  },
};

/**
 * Every event of a document parsed whole, in one array: the reader pushes each message's events
 * where it used to yield them, and nothing waits on them (readSessionEvents takes them all at
 * once). A generator per message, delegated to by a generator over the messages, resumed once per
 * event at each layer, was about 2% of a `loops` run; the events, their places and the counts are
 * the same (test/loopsFastPaths.test.ts, a session read in one go).
 */
function wholeRead(reader: MessagesReader, messages: Iterable<{ index: number; value: unknown }>): ImportedEvent[] {
  const out: ImportedEvent[] = [];
  for (const { index, value } of messages) reader.message(index, value, out);
  reader.end(out);
  return out;
}

/** Reads a trajectory's messages one at a time (pushing the events each gives to `out`), then its end: one reader for the streamed and the whole document. */
interface MessagesReader {
  message(index: number, value: unknown, out: ImportedEvent[]): void;
  end(out: ImportedEvent[]): void;
}

function messagesReader(file: string, stats: ImportStats, info: unknown): MessagesReader {
  const run = instanceOf(file);
  const regex = actionRegexOf(info);
  let signatures: ReadonlyMap<string, readonly string[]> = new Map();
  let turn: { at: string; text: string } | undefined;
  const calls = { n: 0, timeouts: 0, unparsed: 0 };
  const toolCalls = new Map<string, { at: string; callId: string; tool: string; params: unknown }>();
  return {
    message(index, value, out) {
      const at = `${file}#messages[${index}]`;
      if (!isObject(value)) return;
      const text = textOf(value.content);
      if (value.role === "system" && signatures.size === 0) signatures = declaredSignatures(text);
      if (value.role === "assistant" && Array.isArray(value.tool_calls) && value.tool_calls.length > 0) {
        // mini-swe-agent-1.1: the calls are the tool_calls entries, answered by tool messages.
        turn = undefined;
        const thought = textEvent("thought", run, text, at);
        if (thought !== undefined) out.push(thought);
        value.tool_calls.forEach((entry, k) => {
          const call = toolCallEntry(entry);
          if (call === undefined) return;
          toolCalls.set(call.id, { at: `${at}.tool_calls[${k}]`, callId: call.id, tool: call.tool, params: call.params });
        });
      } else if (value.role === "tool") {
        const id = typeof value.tool_call_id === "string" ? value.tool_call_id : undefined;
        const call = id === undefined ? undefined : toolCalls.get(id);
        if (call === undefined) {
          stats.orphanOutcomes++;
          return;
        }
        toolCalls.delete(call.callId);
        callAndOutcome(run, call, parseObservation(text), at, stats, calls, out);
      } else if (value.role === "assistant") {
        // An assistant message nothing answered (the next one is the model's again): its text only.
        const unanswered = turn === undefined ? undefined : textEvent("thought", run, turn.text, turn.at);
        if (unanswered !== undefined) out.push(unanswered);
        turn = { at, text };
      } else if (value.role === "user" && turn !== undefined) {
        const answered = turn;
        turn = undefined;
        const action = actionOf(answered.text, regex, signatures);
        const thought = textEvent("thought", run, action === undefined ? answered.text : action.thought, answered.at);
        if (thought !== undefined) out.push(thought);
        if (!isObservation(text)) {
          stats.formatErrors++;
          return;
        }
        if (action === undefined) calls.unparsed++;
        const call = action ?? { tool: "action", params: { text: answered.text.trim() } };
        callAndOutcome(run, { at: answered.at, callId: `step-${calls.n + 1}`, tool: call.tool, params: call.params }, parseObservation(text), at, stats, calls, out);
      }
    },
    end(out) {
      if (turn !== undefined) {
        const thought = textEvent("thought", run, turn.text, turn.at);
        if (thought !== undefined) out.push(thought);
      }
      stats.runs = stats.calls > 0 ? 1 : 0;
      if (stats.formatErrors > 0) stats.notes.push(`${stats.formatErrors} assistant turns were not answered by an observation (format errors, the submission): the harness ran nothing, not calls`);
      if (calls.timeouts > 0) stats.notes.push(`${calls.timeouts} commands timed out: calls, counted as failed`);
      if (calls.unparsed > 0) stats.notes.push(`${calls.unparsed} answered actions had no command loopsim could parse: calls of tool "action" with their text`);
    },
  };
}

/** One `tool_calls` entry as {id, tool, params}; arguments that are not JSON stay their text. */
export function toolCallEntry(entry: unknown): { id: string; tool: string; params: unknown } | undefined {
  if (!isObject(entry) || typeof entry.id !== "string") return undefined;
  const fn = isObject(entry.function) ? entry.function : {};
  const tool = typeof fn.name === "string" && fn.name !== "" ? fn.name : "unknown";
  const raw = fn.arguments;
  let params: unknown = raw ?? {};
  if (typeof raw === "string") {
    try {
      params = raw.trim() === "" ? {} : (JSON.parse(raw) as unknown);
    } catch {
      params = { arguments: raw };
    }
  }
  return { id: entry.id, tool, params };
}

function callAndOutcome(run: string, call: { at: string; callId: string; tool: string; params: unknown }, observation: Observation, at: string, stats: ImportStats, counts: { n: number; timeouts: number }, out: ImportedEvent[]): void {
  counts.n++;
  if (observation.timedOut) counts.timeouts++;
  stats.calls++;
  out.push({ event: { type: "call", runId: run, callId: call.callId, tool: call.tool, params: call.params }, at: call.at });
  stats.outcomes++;
  out.push({ event: { type: "outcome", runId: run, callId: call.callId, tool: call.tool, params: call.params, result: resultOf(observation) }, at });
}
