// Loops with known labels, injected into real sessions. A recorded session is real work (the
// background); at a seeded point between its calls, one stretch of a loop shape the simulated
// families know is put in, built from the session's own calls and results where the shape allows.
// Every injected event is labelled stuck (inLoop), every recorded one progressing, so a guard's
// catch rate, its waste and the good work it stops can be measured on real backgrounds.
import type { CallEvent, ToolEvent } from "../../models/events.js";
import { UserError } from "../io/errors.js";
import { callUnits } from "../scenario/eventPairs.js";
import { text } from "../sim/behaviour.js";
import { makeRng, type Rng } from "../sim/rng.js";
import { datasetSystems, systemParams, type ChangingArgsSystem } from "../sim/changingArgsParams.js";
import { changingArgsCalls, drawLength, drawSystem, STOCK_LOOPS } from "../sim/changingArgsLoop.js";
import { outcomeFailed } from "../import/failure.js";
import { sourceOf } from "../realLoops/catalogue.js";

export const INJECT_SHAPES = ["repeat", "volatile", "poll", "ping-pong", "unknown-tool", "overflow-relapse", "near-duplicate", "text-loop", "changing-args"] as const;
export type InjectShape = (typeof INJECT_SHAPES)[number];
/**
 * What `default` injects: every shape of tool calls. `text-loop` is opt-in (name it): a guard
 * blind to text can only be n/a on it, and reports on tool calls stay as they were.
 * `changing-args` is opt-in too, so reports made before it keep their numbers.
 */
export const OPT_IN_SHAPES: readonly InjectShape[] = ["text-loop", "changing-args"];
export const DEFAULT_INJECT_SHAPES: readonly InjectShape[] = INJECT_SHAPES.filter((s) => !OPT_IN_SHAPES.includes(s));

export const SHAPE_SUMMARIES: Readonly<Record<InjectShape, string>> = {
  repeat: "one of the session's calls repeated with its recorded result, identical every time",
  volatile: "one of the session's calls repeated; its result is the recorded one plus a timestamp, a line number and a pid that change every time",
  poll: "polls of a background process (OpenClaw's process tool) whose output, the tail of a recorded result, never changes",
  "ping-pong": "two of the session's calls alternated, A B A B, each with its recorded result",
  "unknown-tool": "retries of a tool the session does not have (its most used tool's name with a suffix), the recorded args with a changing attempt number",
  "overflow-relapse": "one of the session's calls repeated with a result grown to about 8,000 tokens, a compaction half way, and the same call and result after it",
  "near-duplicate": "one of the session's calls repeated with args that differ only in a retry counter, and its recorded result",
  "text-loop": "one assistant message of 50+ characters (the session's own when it has one, else a stock sentence) said again and again, with no call between",
  "changing-args": "one of the session's failed calls retried with different args every time, meeting the same failure (its text varying now and then) or now and then another; its length, arg change and recurrence fitted on the real stretches of the session's dataset (a system of it drawn by its stretches; src/sim/changingArgsParams.json; an explicit @MIN-MAX sets the length instead)",
};

/** Lengths of injected stretches, in calls: uniform on [min, max]. */
export interface LengthRange {
  readonly min: number;
  readonly max: number;
}
/** Long enough that OpenClaw's default thresholds (10, 20, 30) can all be reached, short enough to leave some loops under them. */
export const DEFAULT_LENGTHS: LengthRange = { min: 10, max: 50 };

export interface InjectSpec {
  /** What the user wrote (for reproduce lines). */
  readonly spec: string;
  /** Empty for `none`. Each session gets one injected copy per shape. */
  readonly shapes: readonly InjectShape[];
  readonly lengths: LengthRange;
}

export const NO_INJECTION: InjectSpec = { spec: "none", shapes: [], lengths: DEFAULT_LENGTHS };

/** `default` (every shape of calls), `none`, or shapes separated by commas; `@MIN-MAX` sets the lengths. */
export function parseInject(spec: string): InjectSpec {
  // One range for every shape: "repeat,poll@5-20" gives both shapes lengths 5 to 20.
  if (spec.split("@").length > 2) {
    throw new UserError(`--inject ${spec}: one length range applies to every shape listed; give it once, after the list (e.g. ${spec.split(",").map((p) => p.split("@")[0]?.trim()).join(",")}@${spec.slice(spec.lastIndexOf("@") + 1)})`);
  }
  const [list = "", range] = spec.split("@");
  let lengths = DEFAULT_LENGTHS;
  if (range !== undefined) {
    const m = /^(\d+)-(\d+)$/.exec(range.trim());
    const min = Number(m?.[1]);
    const max = Number(m?.[2]);
    if (m === null || min < 2 || max < min || max > 10_000) throw new UserError(`--inject ${spec}: lengths are @MIN-MAX calls with 2 <= MIN <= MAX <= 10000 (got "@${range}")`);
    lengths = { min, max };
  }
  const names = list.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (names.length === 1 && names[0] === "none") return { spec, shapes: [], lengths };
  if (names.length === 1 && names[0] === "default") return { spec, shapes: DEFAULT_INJECT_SHAPES, lengths };
  const unknown = names.filter((n) => !(INJECT_SHAPES as readonly string[]).includes(n));
  if (names.length === 0 || unknown.length > 0) throw new UserError(`--inject ${spec}: ${names.length === 0 ? "no shape named" : `unknown shape ${unknown.map((u) => JSON.stringify(u)).join(", ")}`} (use default, none, or some of ${INJECT_SHAPES.join(", ")}, then @MIN-MAX for lengths)`);
  return { spec, shapes: INJECT_SHAPES.filter((s) => names.includes(s)), lengths };
}

/** An event of a session agent's script, with its ground truth. */
export interface LabelledEvent {
  readonly event: ToolEvent;
  /** Part of an injected loop. */
  readonly inLoop: boolean;
}

export interface Injected {
  readonly shape: InjectShape;
  readonly events: readonly LabelledEvent[];
  /** The injected stretch: events[start, end) are exactly the injected ones. */
  readonly start: number;
  readonly end: number;
  readonly length: number;
}

/** A recorded call with the outcome that answered it (undefined when none did). */
interface Template {
  readonly call: CallEvent;
  readonly result?: unknown;
  readonly error?: unknown;
}

export const recordedScript = (events: readonly ToolEvent[]): LabelledEvent[] => events.map((event) => ({ event, inLoop: false }));

/** Positions where a stretch can go in without splitting a call from its outcome: no call is open there. */
export function insertionPoints(events: readonly ToolEvent[]): number[] {
  const closesAt = new Array<number>(events.length + 1).fill(0);
  const opensAt = new Array<number>(events.length + 1).fill(0);
  for (const unit of callUnits(events)) {
    const first = unit[0] as number;
    const last = unit[unit.length - 1] as number;
    if (last > first) {
      opensAt[first + 1]++;
      closesAt[last + 1]++;
    }
  }
  const points: number[] = [];
  let open = 0;
  for (let p = 0; p <= events.length; p++) {
    open += (opensAt[p] as number) - (closesAt[p] as number);
    if (open === 0) points.push(p);
  }
  return points;
}

function templates(events: readonly ToolEvent[]): Template[] {
  const out: Template[] = [];
  for (const unit of callUnits(events)) {
    const call = events[unit[0] as number];
    if (call?.type !== "call") continue;
    const outcome = unit.length > 1 ? events[unit[1] as number] : undefined;
    if (outcome?.type === "outcome") out.push({ call, ...(outcome.result === undefined ? {} : { result: outcome.result }), ...(outcome.error === undefined ? {} : { error: outcome.error }) });
    else out.push({ call });
  }
  return out;
}

const keyOf = (c: CallEvent) => `${c.tool}\u0000${JSON.stringify(c.params ?? null)}`;

/** The text of a recorded result, for shapes that show it again. */
function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  const content = (value as { content?: unknown }).content;
  if (Array.isArray(content)) return content.map((c) => (typeof (c as { text?: unknown }).text === "string" ? (c as { text: string }).text : "")).join("\n");
  return JSON.stringify(value) ?? "";
}


/** Args that differ from the recorded ones only in a counter. */
function withCounter(params: unknown, field: string, n: number): unknown {
  if (typeof params === "object" && params !== null && !Array.isArray(params)) return { ...(params as Record<string, unknown>), [field]: n };
  return { input: params ?? null, [field]: n };
}

/**
 * One copy of the session with one stretch of `shape` put in at a seeded insertion point, its
 * length drawn uniformly from `lengths`. The same session, shape, lengths and seed give the same
 * events, byte for byte.
 */
export function injectLoop(events: readonly ToolEvent[], shape: InjectShape, lengths: LengthRange, seed: number | string, sessionId: string): Injected {
  const rng = makeRng(`${seed}:${sessionId}:inject:${shape}`);
  const length = rng.int(lengths.min, lengths.max);
  const points = insertionPoints(events);
  const at = rng.pick(points);
  const pool = templates(events);
  const answered = pool.filter((t) => t.result !== undefined || t.error !== undefined);
  const source = answered.length > 0 ? answered : pool;
  const template = rng.pick(source);
  const runId = [...events.slice(0, at)].reverse().find((e) => e.runId !== undefined)?.runId ?? events.find((e) => e.runId !== undefined)?.runId;
  const said = events.flatMap((e) => (e.type === "message" && e.chunk !== true ? [e.text] : []));
  const stretch =
    shape === "changing-args"
      ? changingArgsStretch(systemParams(drawSystem(datasetSystems(sourceOf(sessionId)), rng)), lengths, pool, rng, runId)
      : buildStretch(shape, length, template, source, pool, rng, runId, said);
  const labelled: LabelledEvent[] = [...recordedScript(events.slice(0, at)), ...stretch.map((event) => ({ event, inLoop: true })), ...recordedScript(events.slice(at))];
  // A changing-args stretch's length is the fit's (unless @MIN-MAX was given): its calls, one event pair each.
  return { shape, events: labelled, start: at, end: at + stretch.length, length: shape === "changing-args" ? stretch.length / 2 : length };
}

/** The words of a call's args that a retry changes: a command's, or the longest string field's; undefined when there is none. */
function argWords(params: unknown): { words: string[]; rebuild: (command: string) => unknown } | undefined {
  if (typeof params === "string") return { words: params.split(/\s+/).filter((w) => w !== ""), rebuild: (c) => c };
  if (typeof params !== "object" || params === null || Array.isArray(params)) return undefined;
  const fields = Object.entries(params as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === "string" && e[1].trim() !== "");
  const field = fields.find(([k]) => k === "command") ?? [...fields].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))[0];
  if (field === undefined) return undefined;
  return { words: field[1].split(/\s+/).filter((w) => w !== "").slice(0, 40), rebuild: (c) => ({ ...(params as Record<string, unknown>), [field[0]]: c }) };
}

/**
 * A changing-args loop built on one of the session's failed calls (its args' words, its failure's
 * text as the recurring one) or, when none failed, a stock one; the numbers are the fit's for the
 * session's system (changingArgsParams.json), the length too unless --inject gave @MIN-MAX.
 */
function changingArgsStretch(system: ChangingArgsSystem, lengths: LengthRange, pool: readonly Template[], rng: Rng, runId: string | undefined): ToolEvent[] {
  const run = runId === undefined ? {} : { runId };
  const failed = pool.filter((t) => (t.result !== undefined || t.error !== undefined) && argWords(t.call.params) !== undefined && outcomeFailed({ type: "outcome", tool: t.call.tool, result: t.result, ...(t.error === undefined ? {} : { error: t.error }) }));
  const own = failed.length > 0 ? rng.pick(failed) : undefined;
  const stock = rng.pick(STOCK_LOOPS);
  const shape = own === undefined ? undefined : argWords(own.call.params);
  const words = shape?.words ?? [...stock.words];
  const failure = own === undefined ? stock.failure : (textOf(own.error ?? own.result).slice(-1500) || stock.failure).replace(/line \d+/, "line {line}");
  const length = lengths === DEFAULT_LENGTHS ? drawLength(system, rng) : rng.int(lengths.min, lengths.max);
  const tool = own?.call.tool ?? "exec";
  const asError = own?.error !== undefined;
  return changingArgsCalls(system, rng, words, failure, length).flatMap((c, i): ToolEvent[] => {
    const callId = `loopsim-injected-${i + 1}`;
    const params = shape === undefined ? { command: c.command } : shape.rebuild(c.command);
    const answer = asError ? { error: c.failure } : { result: text(c.failure, { status: "failed", exitCode: 1, aggregated: c.failure }) };
    return [
      { type: "call", ...run, callId, tool, params },
      { type: "outcome", ...run, callId, tool, params, ...answer },
    ];
  });
}

/** Sentences a looping model says when the session has no message of its own to repeat. */
const STOCK_SENTENCES: readonly string[] = [
  "I will now check the configuration file once more to be sure.",
  "Let me verify that the build output matches the expected result.",
  "I need to make sure the tests pass before I continue with the task.",
];
const MIN_SAID = 50;

/** The session's first whole assistant message of 50+ characters (its first 400), if any. */
function ownMessage(messages: readonly string[]): string | undefined {
  const found = messages.find((m) => m.trim().length >= MIN_SAID);
  return found === undefined ? undefined : found.trim().slice(0, 400);
}

function buildStretch(shape: InjectShape, length: number, template: Template, source: readonly Template[], pool: readonly Template[], rng: Rng, runId: string | undefined, recordedText: readonly string[]): ToolEvent[] {
  const run = runId === undefined ? {} : { runId };
  const out: ToolEvent[] = [];
  let n = 0;
  const add = (tool: string, params: unknown, answer: { result?: unknown; error?: unknown }, step?: string) => {
    const callId = `loopsim-injected-${++n}`;
    out.push({ type: "call", ...run, callId, tool, params, ...(step === undefined ? {} : { step }) });
    out.push({ type: "outcome", ...run, callId, tool, params, ...("error" in answer && answer.error !== undefined ? { error: answer.error } : { result: answer.result }) });
  };
  const recorded = (t: Template) => (t.error !== undefined ? { error: t.error } : { result: t.result ?? text("") });
  const { tool, params } = template.call;
  switch (shape) {
    case "repeat":
      for (let i = 0; i < length; i++) add(tool, params, recorded(template));
      break;
    case "volatile": {
      const base = textOf(template.error ?? template.result).slice(0, 2000);
      const startLine = rng.int(10, 900);
      for (let i = 0; i < length; i++) {
        const stamp = `2026-12-03T10:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z`;
        add(tool, params, { result: text(`${base}\n[${stamp}] line ${startLine + i * rng.int(1, 9)} pid ${rng.int(1000, 65000)}`) });
      }
      break;
    }
    case "poll": {
      const sessionId = `proc-${rng.id(6)}`;
      const tail = textOf(template.result ?? template.error).slice(-400);
      for (let i = 0; i < length; i++) add("process", { action: "poll", sessionId }, { result: text("", { status: "running", exitCode: null, aggregated: tail }) });
      break;
    }
    case "ping-pong": {
      const others = source.filter((t) => keyOf(t.call) !== keyOf(template.call));
      const other = others.length > 0 ? rng.pick(others) : { call: { type: "call", tool: "read", params: { path: "README.md" } } as CallEvent, result: text("# README") };
      for (let i = 0; i < length; i++) {
        const t = i % 2 === 0 ? template : other;
        add(t.call.tool, t.call.params, recorded(t));
      }
      break;
    }
    case "unknown-tool": {
      const counts = new Map<string, number>();
      for (const t of pool) counts.set(t.call.tool, (counts.get(t.call.tool) ?? 0) + 1);
      const most = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? tool;
      let name = `${most}_v2`;
      while (counts.has(name)) name += "x";
      for (let i = 0; i < length; i++) add(name, withCounter(params, "attempt", i + 1), { error: `Unknown tool: ${name}` });
      break;
    }
    case "overflow-relapse": {
      const body = textOf(template.result ?? template.error) || "no output";
      let big = body;
      while (big.length < 32_000) big += `\n${body}`;
      const result = text(big.slice(0, 32_000));
      const before = Math.ceil(length / 2);
      for (let i = 0; i < before; i++) add(tool, params, { result });
      out.push({ type: "compaction", ...run });
      for (let i = before; i < length; i++) add(tool, params, { result });
      break;
    }
    case "near-duplicate":
      for (let i = 0; i < length; i++) add(tool, withCounter(params, "retry", i + 1), recorded(template));
      break;
    case "text-loop": {
      const said = ownMessage(recordedText) ?? rng.pick(STOCK_SENTENCES);
      for (let i = 0; i < length; i++) out.push({ type: "message", ...run, text: said });
      break;
    }
    case "changing-args":
      // Built by changingArgsStretch (it needs the session's system); never reached.
      break;
    default: {
      const never: never = shape;
      throw new Error(`unknown shape ${String(never)}`);
    }
  }
  return out;
}
