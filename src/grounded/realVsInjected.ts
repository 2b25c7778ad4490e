// Injected loops against real ones (--loops real): per guard or config, the catch rate on the
// stretches mined from the sessions next to the catch rate on the injected shapes, and where the
// two kinds of evidence disagree: a guard whose two catch rates are further apart than their 95%
// intervals, and pairs of guards that the injected loops order one way, clearly (intervals
// apart), and the real loops the other way. Computed from the per-family numbers alone, so tune
// and compare (and their merged shards) give the same answer.
import type { ConfigMetrics } from "../evaluation/metrics.js";
import { overlaps, wilson, type Interval } from "../stats/interval.js";
import { REAL_FAMILY } from "./realLoopAgents.js";

export const REAL_VS_INJECTED_RULE =
  "a guard is named when its catch rate on real stretches and on injected loops (all shapes together) have 95% Wilson intervals that do not overlap; a pair of guards is named when the injected loops rank one above the other with intervals apart and the real stretches rank them the other way round (real intervals apart or not, as said)";

/** Per-family shares are rounded to 4 places; with fewer than 5,000 agents this gives the count back exactly. */
const countOf = (share: number, agents: number) => Math.round(share * agents);

export interface CatchEvidence {
  readonly agents: number;
  readonly caught: number;
  readonly share: number;
  readonly interval: Interval;
}

export interface LoopEvidence {
  readonly name: string;
  readonly real: CatchEvidence & {
    /** Median loop calls run before the first block or stop (the whole stretch when none). */
    readonly medianLoopCalls: number;
    /** Median tokens of those calls. */
    readonly medianLoopTokens: number;
  };
  /** Every injected shape together; absent without --inject. */
  readonly injected?: CatchEvidence & { readonly medianLoopCalls: number; readonly medianLoopTokens: number };
  /** Each injected shape's catch rate, in the report's shape order. */
  readonly byShape: Readonly<Record<string, number>>;
}

export interface RealVsInjected {
  readonly rule: string;
  readonly evidence: readonly LoopEvidence[];
  readonly catchRatesDiffer: readonly { readonly name: string; readonly real: number; readonly injected: number }[];
  readonly orderFlips: readonly { readonly injectedAbove: string; readonly injectedBelow: string; readonly realApart: boolean }[];
}

function evidence(agents: number, caught: number): CatchEvidence {
  return { agents, caught, share: agents === 0 ? 0 : Math.round((caught / agents) * 10_000) / 10_000, interval: wilson(caught, agents) };
}

export function loopEvidence(name: string, m: ConfigMetrics, shapes: readonly string[]): LoopEvidence | undefined {
  const real = m.byFamily[REAL_FAMILY];
  if (real === undefined) return undefined;
  let agents = 0;
  let caught = 0;
  const calls: number[] = [];
  const tokens: number[] = [];
  const byShape: Record<string, number> = {};
  for (const s of shapes) {
    const f = m.byFamily[`inject:${s}`];
    if (f === undefined) continue;
    agents += f.agents;
    caught += countOf(f.caughtShare, f.agents);
    calls.push(f.medianWastedCalls);
    tokens.push(f.medianWastedTokens);
    byShape[s] = f.caughtShare;
  }
  // Medians of all injected agents are not kept per guard; the median of the shapes' medians is shown instead, and said.
  const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(xs.length / 2) - 1)] ?? 0;
  return {
    name,
    real: { ...evidence(real.agents, countOf(real.caughtShare, real.agents)), medianLoopCalls: real.medianWastedCalls, medianLoopTokens: real.medianWastedTokens },
    ...(agents === 0 ? {} : { injected: { ...evidence(agents, caught), medianLoopCalls: mid(calls), medianLoopTokens: mid(tokens) } }),
    byShape,
  };
}

const apart = (a: Interval, b: Interval) => !overlaps(a, b);

/** The comparison for the rows given (guards or configs, in report order); undefined when no row has real stretches. */
export function realVsInjected(rows: readonly { readonly name: string; readonly metrics: ConfigMetrics }[], shapes: readonly string[]): RealVsInjected | undefined {
  const all = rows.map((r) => loopEvidence(r.name, r.metrics, shapes)).filter((e): e is LoopEvidence => e !== undefined);
  if (all.length === 0) return undefined;
  const catchRatesDiffer = all.filter((e) => e.injected !== undefined && apart(e.real.interval, e.injected.interval)).map((e) => ({ name: e.name, real: e.real.share, injected: (e.injected as CatchEvidence).share }));
  const orderFlips: { injectedAbove: string; injectedBelow: string; realApart: boolean }[] = [];
  for (const a of all) {
    for (const b of all) {
      if (a.injected === undefined || b.injected === undefined) continue;
      if (a.injected.share > b.injected.share && apart(a.injected.interval, b.injected.interval) && b.real.share > a.real.share) orderFlips.push({ injectedAbove: a.name, injectedBelow: b.name, realApart: apart(a.real.interval, b.real.interval) });
    }
  }
  return { rule: REAL_VS_INJECTED_RULE, evidence: all, catchRatesDiffer, orderFlips };
}

/** The paragraphs a report prints about it, the same in Markdown and HTML. */
export function realVsInjectedLines(r: RealVsInjected, maxNamed = 12): string[] {
  const pct = (x: number) => `${(Math.round(x * 1000) / 10).toFixed(1)}%`;
  const n = r.evidence[0]?.real.agents ?? 0;
  const lines = [`Rule: ${r.rule}.`];
  if (r.evidence.every((e) => e.injected === undefined)) lines.push("No loops were injected (add `--inject default`): only the real stretches are measured, so there is nothing to set them against.");
  else {
    lines.push(
      r.catchRatesDiffer.length === 0
        ? `No guard's catch rate on the ${n} real stretches is further from its injected catch rate than the intervals allow${n < 30 ? ` (with n=${n} real stretches the intervals are wide: this says little)` : ""}.`
        : `Catch rates that differ beyond their intervals: ${r.catchRatesDiffer.slice(0, maxNamed).map((d) => `${d.name} (real ${pct(d.real)}, injected ${pct(d.injected)})`).join("; ")}${r.catchRatesDiffer.length > maxNamed ? `; and ${r.catchRatesDiffer.length - maxNamed} more` : ""}.`,
    );
    lines.push(
      r.orderFlips.length === 0
        ? "No two guards that the injected loops tell apart are ranked the other way round by the real stretches."
        : `${r.orderFlips.length} pair${r.orderFlips.length === 1 ? "" : "s"} ranked the other way round by the real stretches: ${r.orderFlips.slice(0, maxNamed).map((f) => `${f.injectedAbove} above ${f.injectedBelow} on injected loops, below it on real ones${f.realApart ? " (real intervals apart too)" : " (real intervals overlap)"}`).join("; ")}${r.orderFlips.length > maxNamed ? `; and ${r.orderFlips.length - maxNamed} more` : ""}.`,
    );
  }
  return lines;
}

/** The table of the comparison: one row per guard, the real stretches beside the injected shapes. */
export function realVsInjectedTable(r: RealVsInjected, shapes: readonly string[]): { header: string[]; rows: string[][] } {
  const pct = (x: number) => `${(Math.round(x * 1000) / 10).toFixed(1)}%`;
  const cell = (e: CatchEvidence) => `${pct(e.share)} [${pct(e.interval.low).slice(0, -1)}-${pct(e.interval.high).slice(0, -1)}] (n=${e.agents})`;
  const injected = r.evidence.some((e) => e.injected !== undefined);
  return {
    header: ["guard", "real stretches caught [95%]", "real: loop calls before stop (median)", "real: loop tokens (median)", ...(injected ? ["injected loops caught [95%]", "injected: loop calls before stop (median of shapes)", "injected: loop tokens (median of shapes)", ...shapes.map((s) => `${s} caught`)] : [])],
    rows: r.evidence.map((e) => [
      e.name,
      cell(e.real),
      String(e.real.medianLoopCalls),
      String(e.real.medianLoopTokens),
      ...(injected ? (e.injected === undefined ? ["-", "-", "-", ...shapes.map(() => "-")] : [cell(e.injected), String(e.injected.medianLoopCalls), String(e.injected.medianLoopTokens), ...shapes.map((s) => (e.byShape[s] === undefined ? "-" : pct(e.byShape[s] as number)))]) : []),
    ]),
  };
}
