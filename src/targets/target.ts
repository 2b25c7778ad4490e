// A target is any loop guard put under test: it turns (config, event stream) into loopsim's
// outputs (call verdicts, outcome notes, compactions, aborts, ignored events). The reference is
// one target among others; laws, scenarios, `conform`, `simulate` and `tune` only see this
// interface. Each target declares what it models, so a check that needs something it lacks is
// reported n/a with the reason instead of passing silently.
import type { ResolvedConfig } from "../../models/config.js";
import type { EngineOutput } from "../../models/engineOutput.js";
import type { ToolEvent } from "../../models/events.js";

/** Outputs of any target: the reference's vocabulary, with detectors and stops of its own. */
export type TargetOutput = EngineOutput<string, string>;

/** The config fields of SPEC C1, by their path inside tools.loopDetection. */
export const CONFIG_FIELDS = [
  "enabled",
  "historySize",
  "warningThreshold",
  "criticalThreshold",
  "unknownToolThreshold",
  "globalCircuitBreakerThreshold",
  "detectors.genericRepeat",
  "detectors.knownPollNoProgress",
  "detectors.pingPong",
  "postCompactionGuard.windowSize",
] as const;
export type ConfigField = (typeof CONFIG_FIELDS)[number];

export interface TargetCapabilities {
  /** Rolling detectors (SPEC D): call verdicts other than allow. */
  readonly rollingDetectors: boolean;
  /** Whether warnings exist at all (some guards only block or stop). */
  readonly warningLevel: boolean;
  /** The caller's warning policy (W1, W2): `emitted` means what SPEC says it means. */
  readonly warningPolicy: boolean;
  /** The post-compaction guard (G): compactions arm something, aborts can happen. */
  readonly guard: boolean;
  /** Verdict counts follow SPEC's counting (S1-S4), so they can be compared. */
  readonly counts: boolean;
  /** Config fields the target honours; the others are ignored (fixed at a value of its own). */
  readonly honours: readonly ConfigField[];
  /** Detector names the target can answer with. */
  readonly detectors: readonly string[];
  /** Engine internals for the bounded-state law (the reference and its variants only). */
  readonly stateSize: boolean;
  /**
   * Whether the guard judges model text (message and thought events): content loops, repeated
   * thoughts. Absent is false: the guard is blind to text, and a text loop is n/a for it, not a miss.
   */
  readonly readsText?: boolean;
}

export interface StateSize {
  readonly history: number;
  readonly guards: number;
  readonly armedRuns: number;
  readonly idleGuards: number;
  readonly warnings: number;
  readonly blocked: number;
  readonly aborted: number;
  readonly windowFull: boolean;
}

/** One session of a target: events in, outputs out, in input order. */
export interface TargetSession {
  /** Answers one event: the outputs it causes (a call's verdict, a warning...), in order. */
  step(event: ToolEvent): TargetOutput[];
  /** Present when capabilities.stateSize is true. */
  stateSize?(): StateSize;
}

export interface Target {
  /** What `--target` names it. */
  readonly name: string;
  /**
   * What `--target` must be given to load it again, where that is not its name: the absolute path
   * of a user's adapter module (its name is whatever the module says). See targetRef.
   */
  readonly loadedFrom?: string;
  readonly summary: string;
  readonly capabilities: TargetCapabilities;
  /** Choices the target makes where its subject is not exported or not documented. */
  readonly notes: readonly string[];
  /** SPEC IDs and upstream issues a known-broken target breaks (the bug zoo); empty otherwise. */
  readonly breaks: readonly string[];
  /** A fresh session under a resolved config (from `resolveConfig`). */
  start(config: ResolvedConfig): TargetSession;
  /**
   * Present on a target that answers a whole trace at once: a runtime's own CLI, driven through
   * the scripted model once per trace (a CLI cannot be asked about one call and then paused).
   * Its `start` refuses with the reason; whole-trace commands (trace, scan, replay, scenario
   * record) call this instead; closed-loop ones (simulate, tune, compare's agents) cannot use it.
   */
  readonly wholeTrace?: (config: ResolvedConfig, events: readonly ToolEvent[]) => TargetOutput[];
  /** The same answer without blocking this process, so several traces can run at once (compare's real-outcomes figures); optional beside `wholeTrace`. */
  readonly wholeTraceAsync?: (config: ResolvedConfig, events: readonly ToolEvent[]) => Promise<TargetOutput[]>;
}

export const FULL_CAPABILITIES: TargetCapabilities = {
  rollingDetectors: true,
  warningLevel: true,
  warningPolicy: true,
  guard: true,
  counts: true,
  honours: CONFIG_FIELDS,
  detectors: ["unknown_tool_repeat", "global_circuit_breaker", "known_poll_no_progress", "ping_pong", "generic_repeat"],
  stateSize: true,
};

/** The `--target` argument that loads this target again: for replay hints, scenarios and threads. */
export function targetRef(target: Target): string {
  return target.loadedFrom ?? target.name;
}

/** Runs a whole trace through a fresh session of the target. */
export function runTarget(target: Target, config: ResolvedConfig, events: Iterable<ToolEvent>): TargetOutput[] {
  if (target.wholeTrace !== undefined) return target.wholeTrace(config, [...events]);
  const session = target.start(config);
  const out: TargetOutput[] = [];
  for (const event of events) for (const o of session.step(event)) out.push(o);
  return out;
}

/**
 * A session over a trace known in full: a whole-trace target answers it at once and the session
 * hands its outputs out event by event; any other target is stepped as usual.
 */
export function sessionOver(target: Target, config: ResolvedConfig, events: readonly ToolEvent[]): TargetSession {
  if (target.wholeTrace === undefined) return target.start(config);
  const byEvent: TargetOutput[][] = events.map(() => []);
  for (const o of target.wholeTrace(config, events)) byEvent[o.index]?.push(o);
  let next = 0;
  return { step: () => byEvent[next++] ?? [] };
}

/** Every item of an async stream, for targets that must see a whole trace first. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** What a target lacks of the listed needs, as one reason, or undefined when it has them all. */
export type Need = keyof Omit<TargetCapabilities, "honours" | "detectors"> | `honours:${ConfigField}`;

export function missingNeed(target: Target, needs: readonly Need[]): string | undefined {
  const c = target.capabilities;
  const missing: string[] = [];
  for (const need of needs) {
    if (need.startsWith("honours:")) {
      const field = need.slice("honours:".length) as ConfigField;
      if (!c.honours.includes(field)) missing.push(`ignores ${field}`);
    } else if (!c[need as Exclude<Need, `honours:${string}`>]) missing.push(NEED_TEXT[need as Exclude<Need, `honours:${string}`>]);
  }
  return missing.length === 0 ? undefined : `${target.name} ${missing.join(", ")}`;
}

const NEED_TEXT: Record<Exclude<Need, `honours:${string}`>, string> = {
  rollingDetectors: "has no rolling detectors",
  warningLevel: "has no warning level",
  warningPolicy: "does not model the caller's warning policy",
  guard: "has no post-compaction guard (or it is not driven)",
  counts: "does not report SPEC counts",
  stateSize: "does not expose its state size",
  readsText: "cannot see model text",
};
