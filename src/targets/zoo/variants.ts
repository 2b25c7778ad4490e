// The bug zoo: known buggy behaviours as targets. Each composes the reference engine with one
// broken part (zoo/parts.ts) or bends what goes in or comes out of it, so the reference itself
// never knows about them. `conform`, the laws and the scenario corpus must catch every one
// (test/bugZoo.test.ts).
import { DEFAULT_CONFIG, type ResolvedConfig } from "../../../models/config.js";
import type { ToolEvent } from "../../../models/events.js";
import { IncrementalHistory } from "../../../models/history/incremental.js";
import { WarningPolicy } from "../../../models/warningPolicy.js";
import { EngineSession } from "../reference.js";
import { FULL_CAPABILITIES, type Target, type TargetCapabilities, type TargetOutput, type TargetSession } from "../target.js";
import { CallIdsAcrossRunsHistory, ContiguousStreakHistory, guardNeverDisarming, hashKeepingSendIds, hashRecordingVetoes, PendingBlindUnknownStreakHistory, UnscopedHistory } from "./parts.js";

export interface ZooVariant {
  readonly name: string;
  readonly summary: string;
  /** SPEC IDs and upstream issues it breaks. */
  readonly breaks: readonly string[];
  readonly start: (config: ResolvedConfig) => TargetSession;
  readonly capabilities?: TargetCapabilities;
}

/** W1 with buckets of a constant 10, as OpenClaw's caller does (K5). */
class FixedBucketSession implements TargetSession {
  private readonly inner: EngineSession;
  private readonly policy = new WarningPolicy(10);
  constructor(config: ResolvedConfig) {
    this.inner = new EngineSession(config);
  }
  step(event: ToolEvent): TargetOutput[] {
    return this.inner.step(event).map((o) => {
      if (o.kind !== "call" || o.verdict !== "warning") return o;
      const emitted = this.policy.emit(o.run, { level: o.verdict, detector: "generic_repeat", count: o.count, warningKey: o.warningKey, message: o.message });
      return { ...o, emitted };
    });
  }
  stateSize() {
    return this.inner.stateSize();
  }
}

/** R4 broken: a compaction empties the rolling window. */
class ClearingSession implements TargetSession {
  private readonly inner: EngineSession;
  constructor(config: ResolvedConfig) {
    this.inner = new EngineSession(config);
  }
  step(event: ToolEvent): TargetOutput[] {
    if (event.type === "compaction") this.inner.state.history.clear();
    return this.inner.step(event);
  }
  stateSize() {
    return this.inner.stateSize();
  }
}

/**
 * G2 missed: the post-compaction guard takes a blocked call's loop veto for an observation. A
 * veto inside the window uses up one of its places and, differing from the loop's results,
 * keeps the window from ever being all identical: a loop that persists is not stopped.
 */
class VetoObservingSession implements TargetSession {
  private readonly inner: EngineSession;
  constructor(config: ResolvedConfig) {
    this.inner = new EngineSession(config);
  }
  step(event: ToolEvent): TargetOutput[] {
    const outputs = this.inner.step(event);
    const state = this.inner.state;
    const extra: TargetOutput[] = [];
    for (const o of outputs) {
      if (o.kind !== "call" || o.verdict !== "critical" || state.aborted.has(o.run)) continue;
      const guard = state.guards.get(o.run);
      if (guard === undefined) continue;
      const step = state.guardStep(guard, { type: "observe", tool: o.tool, triple: `${o.tool}\u0000${o.argsHash}\u0000loop-veto`, windowSize: state.config.postCompactionGuard.windowSize });
      if (step.state.phase === "idle") state.guards.delete(o.run);
      else state.guards.set(o.run, step.state);
      if (step.abort === undefined) continue;
      state.aborted.add(o.run);
      state.guards.delete(o.run);
      extra.push({ kind: "abort", index: o.index, run: o.run, error: "compaction_loop_persisted", tool: step.abort.tool, count: step.abort.count, message: step.abort.message });
    }
    return [...outputs, ...extra];
  }
  stateSize() {
    return this.inner.stateSize();
  }
}

/** A session of the reference under a config the variant rewrites first. */
const withConfig = (rewrite: (config: ResolvedConfig) => ResolvedConfig) => (config: ResolvedConfig) => new EngineSession(rewrite(config));

export const ZOO_VARIANTS: readonly ZooVariant[] = [
  {
    name: "send-ids-kept",
    summary: "volatile send ids are not stripped: every send looks like progress",
    breaks: ["H2", "H2.7", "K1", "#89090"],
    start: (config) => new EngineSession(config, { hashOutcome: hashKeepingSendIds }),
  },
  {
    name: "no-run-scoping",
    summary: "every run shares one history, so heartbeat runs inherit counts",
    breaks: ["R1", "K2", "#40144"],
    start: (config) => new EngineSession(config, { history: (size) => new UnscopedHistory(new IncrementalHistory(size)) }),
  },
  {
    name: "warning-buckets-of-10",
    summary: "warning buckets fixed at 10 hide warnings when warningThreshold < 10",
    breaks: ["W1", "K5"],
    start: (config) => new FixedBucketSession(config),
  },
  {
    name: "veto-as-progress",
    summary: "a loop veto is hashed and recorded like any result, so a block is not sticky",
    breaks: ["H2", "H2.4", "E4"],
    start: (config) => new EngineSession(config, { hashOutcome: hashRecordingVetoes }),
  },
  {
    name: "guard-ignores-enabled-false",
    summary: "the guard is armed even when enabled is false",
    breaks: ["C5", "G1"],
    start: withConfig((config) => (config.enabled === false ? { ...config, enabled: undefined } : config)),
  },
  {
    name: "guard-never-disarms",
    summary: "the guard keeps counting after its window",
    breaks: ["G5"],
    start: (config) => new EngineSession(config, { guardStep: guardNeverDisarming }),
  },
  {
    name: "compaction-clears-history",
    summary: "a compaction empties the rolling history",
    breaks: ["R4"],
    start: (config) => new ClearingSession(config),
  },
  {
    name: "unset-disables-guard",
    summary: "enabled unset turns the guard off too",
    breaks: ["C5", "K6", "#77474"],
    start: withConfig((config) => (config.enabled === undefined ? { ...config, enabled: false } : config)),
  },
  {
    name: "thresholds-ignored",
    summary: "every field but enabled is ignored (later OpenClaw releases)",
    breaks: ["C1", "K7"],
    start: withConfig((config) => ({ ...DEFAULT_CONFIG, enabled: config.enabled })),
    // It claims the documented fields, like the releases it imitates: conform must find it out.
  },
  {
    name: "contiguous-streak",
    summary: "the no-progress streak resets when another call interleaves",
    breaks: ["S1", "K4", "#71671"],
    start: (config) => new EngineSession(config, { history: (size) => new ContiguousStreakHistory(size) }),
  },
  {
    name: "call-ids-across-runs",
    summary: "an outcome fills the pending call with its callId in any run (ids reused per run)",
    breaks: ["R1", "R3"],
    start: (config) => new EngineSession(config, { history: (size) => new CallIdsAcrossRunsHistory(new IncrementalHistory(size), size) }),
  },
  {
    name: "pending-blind-unknown-streak",
    summary: "the unknown-tool streak passes over pending calls instead of stopping at one",
    breaks: ["S3"],
    start: (config) => new EngineSession(config, { history: (size) => new PendingBlindUnknownStreakHistory(size) }),
  },
  {
    name: "guard-counts-vetoes",
    summary: "the post-compaction guard counts a blocked call's loop veto as an observation",
    breaks: ["G2", "E4"],
    start: (config) => new VetoObservingSession(config),
  },
];

export function zooTarget(variant: ZooVariant): Target {
  return {
    name: `zoo:${variant.name}`,
    summary: variant.summary,
    capabilities: variant.capabilities ?? FULL_CAPABILITIES,
    notes: [],
    breaks: variant.breaks,
    start: variant.start,
  };
}

export const ZOO_TARGETS: readonly Target[] = ZOO_VARIANTS.map(zooTarget);
