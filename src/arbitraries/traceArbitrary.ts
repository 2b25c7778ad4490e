// fast-check arbitraries for open-loop traces: events only, no reaction. Traces are built from
// segments (a repeated call, a ping-pong, unknown-tool retries, a compaction, noise, two segments
// interleaved) with explicit lengths, because loops need 20 to 60 calls before anything fires
// and fast-check's default sizes stay near 10. Everything is built with .map, so shrinking
// removes whole segments and shortens them.
import fc from "fast-check";
import { UserError } from "../io/errors.js";
import type { ToolEvent } from "../../models/events.js";
import { SHAPES, SHAPE_COUNT } from "./shapes.js";

export const RUN_IDS: readonly (string | undefined)[] = ["r1", "r2", " r1 ", undefined, "", "  ", "r3"];

/** How an outcome's progress value moves along a segment. */
export type ResultMode = { kind: "same" } | { kind: "change" } | { kind: "every"; k: number };
/** How outcomes relate to their calls. */
export type OutcomeMode = "paired" | "pending" | "late" | "orphan" | "mixed";

export interface RepeatSegment {
  kind: "repeat";
  run: number;
  shape: number;
  variant: number;
  n: number;
  results: ResultMode;
  outcomes: OutcomeMode;
  callIds: boolean;
  spelling: number;
  permute: boolean;
  huge: boolean;
  cyclic: boolean;
}
export interface PingPongSegment {
  kind: "pingpong";
  run: number;
  a: number;
  b: number;
  n: number;
  results: ResultMode;
  callIds: boolean;
}
export interface UnknownSegment {
  kind: "unknown";
  run: number;
  name: number;
  n: number;
  varyArgs: boolean;
}
export interface CompactionSegment {
  kind: "compaction";
  run: number;
}
export interface NoiseSegment {
  kind: "noise";
  run: number;
  n: number;
  salt: number;
}
export type LeafSegment = RepeatSegment | PingPongSegment | UnknownSegment | CompactionSegment | NoiseSegment;
export interface InterleavedSegment {
  kind: "interleaved";
  left: LeafSegment;
  right: LeafSegment;
}
export type Segment = LeafSegment | InterleavedSegment;

export interface TraceArbitraryOptions {
  /** Longest segment (calls), at least 2 (a ping-pong needs two). Default 45, past the default critical threshold. */
  readonly maxRepeat?: number;
  /** Most segments in a trace, at least 1. Default 10. */
  readonly maxSegments?: number;
  /** How many of the run ids to draw from (1 to 7). Default all 7. */
  readonly runs?: number;
  readonly cyclic?: boolean;
  readonly huge?: boolean;
  readonly orphans?: boolean;
}

/**
 * The options checked when the arbitrary is built, named as the caller knows them (fast-check's
 * own `fc.integer` message would name none of loopsim's options; a `runs` past the run ids would
 * silently draw undefined for most events).
 */
function checkTraceOptions(options: unknown, fn: string): void {
  if (options === null || typeof options !== "object" || Array.isArray(options)) throw new UserError(`${fn}: options must be an object (got ${options === null ? "null" : typeof options})`);
  const o = options as Record<string, unknown>;
  const whole = (key: string, min: number, max: number) => {
    const v = o[key];
    if (v !== undefined && (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max)) throw new UserError(`${fn}: options.${key} must be a whole number from ${min} to ${max} (got ${typeof v === "number" ? String(v) : typeof v})`);
  };
  whole("maxRepeat", 2, 100_000);
  whole("maxSegments", 1, 10_000);
  whole("runs", 1, RUN_IDS.length);
  for (const key of ["cyclic", "huge", "orphans"]) if (o[key] !== undefined && typeof o[key] !== "boolean") throw new UserError(`${fn}: options.${key} must be a boolean (got ${typeof o[key]})`);
}

const resultMode: fc.Arbitrary<ResultMode> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<ResultMode>({ kind: "same" }) },
  { weight: 2, arbitrary: fc.constant<ResultMode>({ kind: "change" }) },
  { weight: 2, arbitrary: fc.integer({ min: 2, max: 12 }).map((k): ResultMode => ({ kind: "every", k })) },
);

/**
 * A fast-check arbitrary of one trace segment: a repeat, a ping-pong, unknown tools, a
 * compaction, noise, or an interleaving of two, the shapes the laws are built from.
 *
 * @param options - bounds of the segment's shape.
 */
export function segmentArbitrary(options: TraceArbitraryOptions = {}): fc.Arbitrary<Segment> {
  checkTraceOptions(options, "segmentArbitrary");
  const maxRepeat = options.maxRepeat ?? 45;
  const run = fc.integer({ min: 0, max: (options.runs ?? RUN_IDS.length) - 1 });
  const outcomeModes: OutcomeMode[] = options.orphans === false ? ["paired", "pending", "late", "mixed"] : ["paired", "pending", "late", "orphan", "mixed"];
  const repeat: fc.Arbitrary<LeafSegment> = fc
    .record({
      run,
      shape: fc.integer({ min: 0, max: SHAPE_COUNT - 1 }),
      variant: fc.integer({ min: 0, max: 2 }),
      n: fc.integer({ min: 1, max: maxRepeat }),
      results: resultMode,
      outcomes: fc.oneof({ weight: 6, arbitrary: fc.constant<OutcomeMode>("paired") }, { weight: 2, arbitrary: fc.constantFrom(...outcomeModes) }),
      callIds: fc.boolean(),
      spelling: fc.nat({ max: 3 }),
      permute: fc.boolean(),
      huge: options.huge === true ? fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }) : fc.constant(false),
      cyclic: options.cyclic === true ? fc.boolean() : fc.constant(false),
    })
    .map((r): LeafSegment => ({ kind: "repeat", ...r }));
  const pingpong: fc.Arbitrary<LeafSegment> = fc
    .record({ run, a: fc.integer({ min: 0, max: SHAPE_COUNT - 1 }), b: fc.integer({ min: 0, max: SHAPE_COUNT - 1 }), n: fc.integer({ min: 2, max: maxRepeat }), results: resultMode, callIds: fc.boolean() })
    .map((r): LeafSegment => ({ kind: "pingpong", ...r }));
  const unknown: fc.Arbitrary<LeafSegment> = fc
    .record({ run, name: fc.nat({ max: 1 }), n: fc.integer({ min: 1, max: 25 }), varyArgs: fc.boolean() })
    .map((r): LeafSegment => ({ kind: "unknown", ...r }));
  const compaction: fc.Arbitrary<LeafSegment> = run.map((r): LeafSegment => ({ kind: "compaction", run: r }));
  const noise: fc.Arbitrary<LeafSegment> = fc
    .record({ run, n: fc.integer({ min: 1, max: 15 }), salt: fc.nat({ max: 1000 }) })
    .map((r): LeafSegment => ({ kind: "noise", ...r }));
  const leaf = fc.oneof({ weight: 6, arbitrary: repeat }, { weight: 3, arbitrary: pingpong }, { weight: 2, arbitrary: unknown }, { weight: 3, arbitrary: compaction }, { weight: 2, arbitrary: noise });
  return fc.oneof({ weight: 5, arbitrary: leaf }, { weight: 1, arbitrary: fc.record({ left: leaf, right: leaf }).map((r): Segment => ({ kind: "interleaved", ...r })) });
}

/**
 * A fast-check arbitrary of whole traces (loopsim events), made of segments.
 *
 * @param options - bounds of each segment and the number of segments.
 */
export function traceArbitrary(options: TraceArbitraryOptions = {}): fc.Arbitrary<ToolEvent[]> {
  checkTraceOptions(options, "traceArbitrary");
  return fc.array(segmentArbitrary(options), { minLength: 1, maxLength: options.maxSegments ?? 10 }).map(segmentsToEvents);
}

/**
 * The events a list of segments stands for, in order (calls and their outcomes).
 *
 * @param segments - segments as {@link segmentArbitrary} makes them.
 */
export function segmentsToEvents(segments: readonly Segment[]): ToolEvent[] {
  const events: ToolEvent[] = [];
  let serial = 0;
  const next = () => serial++;
  for (const segment of segments) {
    if (segment.kind === "interleaved") {
      const left = leafEvents(segment.left, next);
      const right = leafEvents(segment.right, next);
      for (let i = 0; i < Math.max(left.length, right.length); i++) {
        if (i < left.length) events.push(left[i] as ToolEvent);
        if (i < right.length) events.push(right[i] as ToolEvent);
      }
    } else events.push(...leafEvents(segment, next));
  }
  return events;
}

function progress(mode: ResultMode, i: number): number {
  return mode.kind === "same" ? 0 : mode.kind === "change" ? i : Math.floor(i / mode.k);
}

function withRun<T extends object>(event: T, run: number): T {
  const runId = RUN_IDS[run];
  return runId === undefined ? event : { ...event, runId };
}

function reversedKeys(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).reverse()) out[key] = value[key];
  return out;
}

function leafEvents(segment: LeafSegment, next: () => number): ToolEvent[] {
  switch (segment.kind) {
    case "compaction":
      return [withRun({ type: "compaction" as const }, segment.run)];
    case "noise": {
      const out: ToolEvent[] = [];
      for (let i = 0; i < segment.n; i++) {
        const params = { path: `noise/${segment.salt}/${i}` };
        out.push(withRun({ type: "call" as const, tool: "read", params }, segment.run));
        out.push(withRun({ type: "outcome" as const, tool: "read", params, result: { content: [{ type: "text", text: `n${i}` }] } }, segment.run));
      }
      return out;
    }
    case "unknown": {
      const name = segment.name === 0 ? "browserx" : "web.searchx";
      const out: ToolEvent[] = [];
      for (let i = 0; i < segment.n; i++) {
        const params = { q: segment.varyArgs ? i : 0 };
        out.push(withRun({ type: "call" as const, tool: name, params }, segment.run));
        out.push(withRun({ type: "outcome" as const, tool: name, params, error: segment.name === 0 ? `Unknown tool: ${name}` : `Tool "${name}" not found` }, segment.run));
      }
      return out;
    }
    case "pingpong": {
      const out: ToolEvent[] = [];
      const a = SHAPES[segment.a];
      const b = SHAPES[segment.b === segment.a ? (segment.b + 1) % SHAPES.length : segment.b];
      for (let i = 0; i < segment.n; i++) {
        const shape = (i % 2 === 0 ? a : b) as (typeof SHAPES)[number];
        const params = shape.params(0);
        const tool = shape.spellings[0] as string;
        const callId = segment.callIds ? `pp${next()}` : undefined;
        const ids = callId === undefined ? {} : { callId };
        out.push(withRun({ type: "call" as const, tool, params, ...ids }, segment.run));
        out.push(withRun({ type: "outcome" as const, tool, params, ...ids, ...shape.outcome(progress(segment.results, Math.floor(i / 2)), next()) }, segment.run));
      }
      return out;
    }
    case "repeat": {
      const shape = SHAPES[segment.shape] as (typeof SHAPES)[number];
      const tool = shape.spellings[segment.spelling % shape.spellings.length] as string;
      const calls: ToolEvent[] = [];
      const outcomes: ToolEvent[] = [];
      const out: ToolEvent[] = [];
      for (let i = 0; i < segment.n; i++) {
        let params: Record<string, unknown> = shape.params(segment.variant);
        if (segment.huge) params = { ...params, blob: "x".repeat(20_000) };
        if (segment.permute && i % 2 === 1) params = reversedKeys({ ...params, extra: 1, another: 2 });
        else if (segment.permute) params = { ...params, another: 2, extra: 1 };
        if (segment.cyclic) {
          const cyclic: Record<string, unknown> = { ...params };
          cyclic.self = cyclic;
          params = cyclic;
        }
        const callId = segment.callIds ? `c${next()}` : undefined;
        const ids = callId === undefined ? {} : { callId };
        const call = withRun({ type: "call" as const, tool, params, ...ids }, segment.run);
        const outcome = withRun({ type: "outcome" as const, tool, params, ...ids, ...shape.outcome(progress(segment.results, i), next()) }, segment.run);
        const mode = segment.outcomes === "mixed" ? (["paired", "pending", "late", "orphan"] as const)[i % 4] : segment.outcomes;
        if (mode === "paired") out.push(call, outcome);
        else if (mode === "pending") out.push(call);
        else if (mode === "orphan") out.push(outcome);
        else {
          calls.push(call);
          outcomes.push(outcome);
        }
      }
      // late outcomes arrive after all their calls, newest first
      out.push(...calls, ...outcomes.reverse());
      return out;
    }
  }
}
