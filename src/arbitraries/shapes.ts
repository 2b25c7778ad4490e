// The tools an open-loop trace is made of, each with a few argument variants and a result maker.
// Pools are small on purpose: repetition is what the detectors look for.
import { text } from "../sim/behaviour.js";

export interface ToolShape {
  readonly name: string;
  /** Spellings of the tool that normalise to the same name (E2). */
  readonly spellings: readonly string[];
  readonly params: (variant: number) => Record<string, unknown>;
  /** A result (or error) for progress value r; `at` is the event's position, for volatile fields. */
  readonly outcome: (r: number, at: number) => { result?: unknown; error?: string };
}


export const SHAPES: readonly ToolShape[] = [
  { name: "read", spellings: ["read", " Read "], params: (v) => ({ path: `src/f${v}.ts` }), outcome: (r) => ({ result: text(`content ${r}`) }) },
  {
    name: "exec",
    spellings: ["exec", "bash", " Exec", "BASH"],
    params: (v) => ({ command: `npm test -- ${v}` }),
    outcome: (r, at) => ({ result: text("", { status: "completed", exitCode: r % 2, aggregated: `out ${r}`, durationMs: 10 + at, pid: 1000 + at, sessionId: `s${at}`, cwd: at % 2 ? "/a" : "/b" }) }),
  },
  {
    name: "process-poll",
    spellings: ["process", "Process"],
    params: (v) => ({ action: "poll", sessionId: `p${v}` }),
    outcome: (r, at) => ({ result: text("", { status: "running", aggregated: `lines ${r}`, retryInMs: at }) }),
  },
  {
    name: "process-log",
    spellings: ["process"],
    params: (v) => ({ action: "log", sessionId: `p${v}` }),
    outcome: (r, at) => ({ result: text(`log ${r}`, { status: "running", totalLines: r, backoffMs: at }) }),
  },
  { name: "command_status", spellings: ["command_status"], params: (v) => ({ id: `job${v}` }), outcome: (r) => ({ result: text(`status ${r}`) }) },
  {
    name: "message-send",
    spellings: ["message", " message"],
    params: (v) => ({ action: "send", channel: `c${v}`, text: "hello" }),
    outcome: (r, at) => ({ result: text(`sent m${at}`, { ok: true, state: r, messageId: `m${at}`, ts: at, message: { id: `m${at}`, text: "hello", senderId: "me" } }) }),
  },
  { name: "sessions_send", spellings: ["sessions_send"], params: (v) => ({ target: `t${v}` }), outcome: (r, at) => ({ result: text("", { accepted: r, runId: `run${at}`, idempotencyKey: `k${at}` }) }) },
  { name: "web_fetch", spellings: ["web_fetch"], params: (v) => ({ url: `https://x.test/${v}` }), outcome: (r, at) => ({ error: r === 0 ? `503 unavailable (request id req${at})` : `error ${r}` }) },
  { name: "apply_patch", spellings: ["apply_patch", "apply-patch"], params: (v) => ({ patch: `p${v}` }), outcome: (r) => ({ result: text(`applied ${r}`) }) },
];

export const SHAPE_COUNT = SHAPES.length;
