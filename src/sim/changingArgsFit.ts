// Fitting the changing-args loop to real sessions: every stretch of the changing-args kind that
// `loopsim loops` mines (the same failure, the same refusal, or the same answer to different
// calls), grouped by system (the session's first folder, a dataset, and the model the file names), measured as
// changingArgsParams.ts describes (length percentiles; medians of arg change, recurrence and how
// often the recurring text varies). Deterministic: the same sessions give the same file.
import type { ToolEvent } from "../../models/events.js";
import { sourceOf } from "../realLoops/catalogue.js";
import { sessionModel } from "../realLoops/sessionModel.js";
import { minedCalls, stretchesOf, type MinedCall, type Stretch } from "../realLoops/mine.js";
import { CHANGING_ARGS_SCHEMA, type ChangingArgsParams, type ChangingArgsSystem } from "./changingArgsParams.js";

/** One mined changing-args stretch, measured. */
export interface StretchMeasure {
  readonly length: number;
  readonly argChange: number;
  readonly recurrence: number;
  readonly textVaries: number;
}

const words = (args: string) => new Set(args.split(/[^\w.\-/]+/).filter((w) => w !== ""));

/** The Jaccard distance of two args' word sets: 0 the same words, 1 none shared. */
export function wordDistance(a: string, b: string): number {
  const x = words(a);
  const y = words(b);
  const union = new Set([...x, ...y]);
  if (union.size === 0) return 0;
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  return 1 - shared / union.size;
}

/** What recurs in a stretch's call: its failure's signature, or (no effect) its masked answer. */
const recurringOf = (c: MinedCall) => c.signature ?? c.result;

export function measureStretch(calls: readonly MinedCall[], s: Stretch): StretchMeasure {
  const inside = calls.slice(s.firstCall, s.lastCall + 1);
  const counts = new Map<string, number>();
  for (const c of inside) counts.set(recurringOf(c), (counts.get(recurringOf(c)) ?? 0) + 1);
  const modal = Math.max(...counts.values());
  let distance = 0;
  let same = 0;
  let varied = 0;
  for (let k = 1; k < inside.length; k++) {
    const a = inside[k - 1] as MinedCall;
    const b = inside[k] as MinedCall;
    distance += wordDistance(a.rawArgs, b.rawArgs);
    if (recurringOf(a) === recurringOf(b)) {
      same++;
      if (a.rawResult !== b.rawResult) varied++;
    }
  }
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  return { length: inside.length, argChange: r3(inside.length < 2 ? 0 : distance / (inside.length - 1)), recurrence: r3(modal / inside.length), textVaries: r3(same === 0 ? 0 : varied / same) };
}

/** The changing-args stretches of one session, measured. */
export function changingArgsMeasures(events: readonly ToolEvent[]): StretchMeasure[] {
  const calls = minedCalls(events);
  return stretchesOf(calls).filter((s) => s.kind === "changing-args").map((s) => measureStretch(calls, s));
}

const rank = (sorted: readonly number[], p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] as number;
const medianOf = (xs: readonly number[]) => rank([...xs].sort((a, b) => a - b), 0.5);

export function systemFit(measures: readonly StretchMeasure[]): ChangingArgsSystem {
  const lengths = measures.map((m) => m.length).sort((a, b) => a - b);
  const at = (p: number) => Math.max(2, rank(lengths, p));
  return {
    stretches: measures.length,
    lengths: [at(0.1), at(0.25), at(0.5), at(0.75), at(0.9)],
    argChange: medianOf(measures.map((m) => m.argChange)),
    recurrence: medianOf(measures.map((m) => m.recurrence)),
    textVaries: medianOf(measures.map((m) => m.textVaries)),
  };
}

export const FIT_DERIVATION =
  "Every stretch of the changing-args kind (the same failure, the same refusal, or the same non-empty answer to different calls) that `loopsim loops` mines from the sessions, grouped by system: the session's first folder under the path given (a dataset), and the model its file names when it names one (DATASET/MODEL). lengths: the stretches' lengths in calls at the 10th, 25th, 50th, 75th and 90th percentiles (nearest rank). argChange: per stretch the mean Jaccard distance between the word sets of one call's args and the next's, then the median over stretches. recurrence: per stretch the share of its calls that meet its most common failure signature (or masked answer), then the median. textVaries: per stretch the share of neighbouring calls with the same signature whose recorded text differs (a line number, a path), then the median.";

/** Sessions fed one at a time; the fit of every system that has at least one stretch. */
export class ChangingArgsFitter {
  private readonly bySystem = new Map<string, StretchMeasure[]>();

  /** `file` is where the session was read: the model its head names (if any) makes the system `DATASET/MODEL`. */
  session(id: string, file: string, events: readonly ToolEvent[]): void {
    const measures = changingArgsMeasures(events);
    if (measures.length === 0) return;
    const model = sessionModel(file);
    const system = model === undefined ? sourceOf(id) : `${sourceOf(id)}/${model}`;
    this.bySystem.set(system, [...(this.bySystem.get(system) ?? []), ...measures]);
  }

  finish(command: string): ChangingArgsParams {
    const systems: Record<string, ChangingArgsSystem> = {};
    for (const name of [...this.bySystem.keys()].sort()) systems[name] = systemFit(this.bySystem.get(name) as StretchMeasure[]);
    return { schema: CHANGING_ARGS_SCHEMA, derivation: FIT_DERIVATION, command, systems };
  }
}
