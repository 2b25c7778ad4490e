// The benchmark's standard traces, built from one seed as plain JS objects (the engine hashes
// them, as it would in a runtime). A call and its outcome share nothing but their values.
import { text } from "../src/sim/behaviour.js";
import type { ToolEvent } from "../models/events.js";
import { makeRng, type Rng } from "../src/sim/rng.js";


function realisticCall(rng: Rng, i: number): { tool: string; params: Record<string, unknown>; result: unknown } {
  switch (rng.int(0, 5)) {
    case 0:
      return { tool: "read", params: { path: `src/module${rng.int(0, 400)}.ts`, offset: 0, limit: 200 }, result: text(`export const value${i} = ${rng.int(0, 1e6)};\n// ${"x".repeat(rng.int(40, 400))}`) };
    case 1:
      return {
        tool: "exec",
        params: { command: rng.pick(["npm test", "git status", "ls -la src", `grep -rn TODO src/${rng.int(0, 30)}`]), timeout: 120, cwd: "/work/app" },
        result: text("", { status: "completed", exitCode: rng.int(0, 1), aggregated: `output line ${rng.int(0, 50)}\n`.repeat(rng.int(1, 8)), durationMs: rng.int(5, 4000), pid: rng.int(1000, 60000), cwd: "/work/app" }),
      };
    case 2:
      return { tool: "process", params: { action: "poll", sessionId: `s${rng.int(0, 5)}` }, result: text("", { status: "running", aggregated: `built ${rng.int(0, 300)} modules`, retryInMs: rng.int(100, 5000) }) };
    case 3:
      return { tool: "message", params: { action: "send", channel: "ops", text: `update ${rng.int(0, 20)}` }, result: text("sent", { ok: true, messageId: rng.id(12), ts: 1_700_000_000 + i }) };
    case 4:
      return { tool: "apply_patch", params: { patch: `*** Update File: src/m${rng.int(0, 99)}.ts\n+// ${rng.id(16)}` }, result: text("Applied patch", { status: "ok" }) };
    default:
      return { tool: "web_fetch", params: { url: `https://docs.example.test/${rng.int(0, 200)}`, maxChars: 5000 }, result: text("<html>".padEnd(rng.int(100, 600), "."), { status: 200 }) };
  }
}

function pairOf(run: string, callId: string, c: { tool: string; params: Record<string, unknown>; result: unknown }): ToolEvent[] {
  // The outcome carries its own copy of the params, as a trace read from a file would.
  return [
    { type: "call", runId: run, callId, tool: c.tool, params: c.params },
    { type: "outcome", runId: run, callId, tool: c.tool, params: structuredClone(c.params), result: c.result },
  ];
}

/** Realistic work: mostly distinct calls, a few same-args rereads; few flags. */
export function mixedTrace(calls: number, seed = 1, callsPerRun = 200): ToolEvent[] {
  const rng = makeRng(`bench:mixed:${seed}`);
  const events: ToolEvent[] = [];
  for (let i = 0; i < calls; i++) events.push(...pairOf(`run-${Math.floor(i / callsPerRun)}`, `c${i}`, realisticCall(rng, i)));
  return events;
}

/** One JSON line per event of a mixed trace, for the streaming benchmark. */
export function* mixedTraceLines(calls: number, seed = 1): Generator<string> {
  const rng = makeRng(`bench:mixed:${seed}`);
  for (let i = 0; i < calls; i++) for (const event of pairOf(`run-${Math.floor(i / 200)}`, `c${i}`, realisticCall(rng, i))) yield JSON.stringify(event);
}

/** Most calls flagged: long loops of identical calls with identical results. */
export function loopHeavyTrace(calls: number, seed = 1): ToolEvent[] {
  const rng = makeRng(`bench:loop:${seed}`);
  const events: ToolEvent[] = [];
  let loop = realisticCall(rng, 0);
  for (let i = 0; i < calls; i++) {
    if (i % 60 === 0) loop = realisticCall(rng, i);
    events.push(...pairOf(`run-${Math.floor(i / 600)}`, `c${i}`, { ...loop, params: { ...loop.params } }));
  }
  return events;
}

/** 1,000 interleaved runs, each with its own short loop. */
export function manyRunsTrace(calls: number, seed = 1): ToolEvent[] {
  const rng = makeRng(`bench:runs:${seed}`);
  const loops = Array.from({ length: 1000 }, (_, r) => realisticCall(rng, r));
  const events: ToolEvent[] = [];
  for (let i = 0; i < calls; i++) {
    const r = i % 1000;
    const loop = loops[r] as { tool: string; params: Record<string, unknown>; result: unknown };
    events.push(...pairOf(`run-${r}`, `c${i}`, { ...loop, params: { ...loop.params } }));
  }
  return events;
}
