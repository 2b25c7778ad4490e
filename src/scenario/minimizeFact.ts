// What `scenario record --minimize FACT` keeps while it cuts a recording down: the first block (of
// any detector, or of one), the first warning, an abort, or the verdict of one given call. Facts
// are judged on event identity, so a call keeps its meaning while the events around it go.
import type { ResolvedConfig } from "../../models/config.js";
import type { ToolEvent } from "../../models/events.js";
import { UserError } from "../io/errors.js";
import type { Target } from "../targets/target.js";

export type Fact =
  | { readonly kind: "first-block"; readonly detector?: string }
  | { readonly kind: "first-warning"; readonly detector?: string }
  | { readonly kind: "abort" }
  | { readonly kind: "verdict"; readonly event: number };

export const FACT_HELP = "first-block[:DETECTOR], first-warning[:DETECTOR], abort, or verdict:N (the call at event N, 0-based)";

export function parseFact(text: string): Fact {
  const [head, arg] = text.split(":", 2) as [string, string | undefined];
  if (head === "first-block" || head === "first-warning") return arg === undefined || arg === "" ? { kind: head } : { kind: head, detector: arg };
  if (head === "abort" && arg === undefined) return { kind: "abort" };
  if (head === "verdict" && arg !== undefined && /^(0|[1-9][0-9]*)$/.test(arg)) return { kind: "verdict", event: Number(arg) };
  throw new UserError(`--minimize ${text}: expected ${FACT_HELP}`);
}

interface Verdict {
  readonly level: string;
  readonly detector: string;
}

/** What the fact says about one run of the target over these events, or undefined when absent. */
function observe(fact: Fact, target: Target, config: ResolvedConfig, events: readonly ToolEvent[], watched: ToolEvent | undefined): Verdict | undefined {
  const session = target.start(config);
  for (const event of events) {
    for (const o of session.step(event)) {
      switch (fact.kind) {
        case "first-block":
          if (o.kind === "call" && o.verdict === "critical" && (fact.detector === undefined || o.detector === fact.detector)) return { level: "critical", detector: o.detector };
          break;
        case "first-warning":
          if (o.kind === "call" && o.verdict === "warning" && (fact.detector === undefined || o.detector === fact.detector)) return { level: "warning", detector: o.detector };
          break;
        case "abort":
          if (o.kind === "abort") return { level: "abort", detector: "compaction_loop_persisted" };
          break;
        case "verdict":
          if (event === watched && o.kind === "call") return { level: o.verdict, detector: o.verdict === "allow" ? "" : o.detector };
          break;
      }
    }
  }
  return undefined;
}

/** The predicate delta debugging keeps true: the fact, as it holds on the whole recording. */
export function factPredicate(fact: Fact, target: Target, config: ResolvedConfig, events: readonly ToolEvent[]): { holds: (candidate: readonly ToolEvent[]) => boolean; describe: string } {
  const watched = fact.kind === "verdict" ? events[fact.event] : undefined;
  if (fact.kind === "verdict" && watched?.type !== "call") throw new UserError(`--minimize verdict:${fact.event}: event ${fact.event} is not a call (events are numbered from 0, as \`trace --json\` prints them)`);
  const original = observe(fact, target, config, events, watched);
  if (original === undefined) throw new UserError(`--minimize: the recording has no ${fact.kind}${"detector" in fact && fact.detector !== undefined ? ` by ${fact.detector}` : ""} under this config and target, so there is nothing to keep`);
  const pinned: Fact = fact.kind === "first-block" || fact.kind === "first-warning" ? { kind: fact.kind, detector: original.detector } : fact;
  return {
    holds: (candidate) => {
      if (watched !== undefined && !candidate.includes(watched)) return false;
      const seen = observe(pinned, target, config, candidate, watched);
      return seen !== undefined && seen.level === original.level && seen.detector === original.detector;
    },
    describe: `${original.level}${original.detector === "" ? "" : ` ${original.detector}`}`,
  };
}
