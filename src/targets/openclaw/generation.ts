// What each generation of OpenClaw's loop detector honours and how its (unexported) caller
// behaves, from ../shared/targets/openclaw-releases.md and the releases' own code. The target
// emulates the caller per release; everything listed here is documented in the README.
import type { ConfigField } from "../target.js";
import { atLeast } from "./versions.js";

export interface Generation {
  /** Detection and recording take a last `scope` argument { runId } (run scoping, R1). */
  readonly runScoped: boolean;
  /** Warning keys carry a `<runId>:` prefix in the caller's warning buckets. */
  readonly runPrefixedWarningKeys: boolean;
  /** The caller runs detection and records calls only when enabled === true. */
  readonly enabledGate: boolean;
  /** What a blocked call leaves in the history: nothing, or its blocked-tool result. */
  readonly blockedCallRecords: "nothing" | "veto-result";
  /** The post-compaction guard exists in this release's runner. */
  readonly hasGuard: boolean;
  /** The guard factory takes the postCompactionGuard config (windowSize) as its first argument. */
  readonly guardTakesConfig: boolean;
  readonly honours: readonly ConfigField[];
  readonly detectors: readonly string[];
  /** Tool aliases the caller applies before detection, beyond SPEC E2. */
  readonly toolAliases: Readonly<Record<string, string>>;
  readonly notes: readonly string[];
}

const BASE_FIELDS: readonly ConfigField[] = ["enabled", "historySize", "warningThreshold", "criticalThreshold", "globalCircuitBreakerThreshold", "detectors.genericRepeat", "detectors.knownPollNoProgress", "detectors.pingPong"];
const BASE_DETECTORS = ["generic_repeat", "known_poll_no_progress", "ping_pong", "global_circuit_breaker"];

export function generationOf(version: string): Generation {
  const runScoped = atLeast(version, "2026.4.26");
  const hasGuard = atLeast(version, "2026.5.4");
  const constantsOnly = atLeast(version, "2026.8.1");
  const unknownTool = atLeast(version, "2026.4.14");
  const honours: ConfigField[] = constantsOnly ? ["enabled"] : [...BASE_FIELDS, ...(unknownTool ? (["unknownToolThreshold"] as const) : [])];
  if (hasGuard && !constantsOnly) honours.push("postCompactionGuard.windowSize");
  const detectors = [...BASE_DETECTORS, ...(unknownTool ? ["unknown_tool_repeat"] : []), ...(constantsOnly ? ["argument_churn"] : [])];
  const notes = [
    "The caller is not exported; loopsim emulates it as this release does: warnings are emitted by buckets of a constant 10 per warning key (LOOP_WARNING_BUCKET_SIZE), at most 256 keys remembered.",
    runScoped ? "Warning keys carry the runId prefix; detect and record are given { runId }." : "No run scoping: detect and record take no scope, so every run shares one history.",
    constantsOnly ? "Detection runs, and calls are recorded, only when enabled === true." : "Detection runs on every call (the release's detect returns not-stuck unless its resolved enabled is true); every call is recorded.",
    atLeast(version, "2026.5.4") ? "A blocked call records its blocked-tool result (the loop veto) through the release's outcome recorder." : "A blocked call records nothing.",
    hasGuard ? "The post-compaction guard is the release's own factory, loaded from its runner chunk; one guard per run, armed by each compaction, observing each outcome the recorder wrote with a result hash; an abort ends the run." : "This release has no post-compaction guard.",
    "Tool names are normalised as SPEC E2 says (trim, lower-case, bash -> exec, apply-patch -> apply_patch)" + (constantsOnly ? ", plus cron -> automations." : "."),
  ];
  return {
    runScoped,
    runPrefixedWarningKeys: runScoped,
    enabledGate: constantsOnly,
    blockedCallRecords: atLeast(version, "2026.5.4") ? "veto-result" : "nothing",
    hasGuard,
    guardTakesConfig: hasGuard && !constantsOnly,
    honours,
    detectors,
    toolAliases: constantsOnly ? { cron: "automations" } : {},
    notes,
  };
}
