// `loopsim config FILE`: validates a config and shows the effective tools.loopDetection of one
// agent: every value, where it came from, what was repaired and why, and what `enabled` switches on.
// `checkConfigFile` makes the report and writes nothing; the command line (src/cli/program.ts) prints it.
import { enabledMode } from "../../models/config.js";
import { formatIssue } from "../../models/configValidation.js";
import { UserError } from "../io/errors.js";
import { issuesMessage, loadConfig, readConfigFile } from "../io/configFile.js";

/** What `loopsim config` found in a config file: valid or not, the effective values, and where each came from. */
export interface ConfigCheck {
  /** Each problem found, as a message naming the field (empty: valid). */
  readonly issues: readonly string[];
  /** The user error to raise when the file is not valid (the message `loopsim config` exits 2 with). */
  readonly problem?: string;
  /** `loopsim config --json`'s document. */
  readonly json: string;
  /** `loopsim config`'s table (empty when the file is not valid). */
  readonly text: string;
}

/**
 * Reads a config file and resolves the effective tools.loopDetection of one agent (the global
 * one when `agent` is absent): every value, where it came from, what was repaired and why, and
 * what `enabled` switches on; prints and writes nothing. A file that cannot be read or parsed is a
 * user error; a file with invalid fields comes back with its issues.
 *
 * @param file - an OpenClaw config file (JSON or JSON5).
 * @param agent - the agent whose agents.list override applies.
 */
export function checkConfigFile(file: string, agent?: string): ConfigCheck {
  if (typeof file !== "string" || file === "") throw new UserError("checkConfigFile: file must be a path");
  const path = file;
  const agentId = agent;
  const loaded = loadConfig(readConfigFile(path), agentId, path);
  const { config, repairs, sources } = loaded.resolution;
  const mode = enabledMode(config.enabled);
  const report = {
    file: path,
    agent: agentId ?? null,
    valid: loaded.issues.length === 0,
    issues: loaded.issues.map((found) => ({ ...found, message: formatIssue(found) })),
    effective: { ...config, enabled: config.enabled ?? null },
    // JSON types, not strings: true, false, or null when unset (rolling detectors off, guard on).
    enabled: config.enabled ?? null,
    rollingDetectors: mode.rollingDetectors,
    postCompactionGuard: mode.guard,
    recordsCalls: mode.recordCalls,
    repairs,
    sources,
  };
  const json = JSON.stringify(report, null, 2) + "\n";
  const issues = loaded.issues.map((found) => formatIssue(found));
  if (loaded.issues.length > 0) return { issues, problem: issuesMessage(path, loaded.issues), json, text: "" };
  const lines: string[] = [];
  lines.push(`${path}: valid. Effective tools.loopDetection${agentId === undefined ? " (global)" : ` for agent "${agentId}"`}:`);
  const row = (field: string, value: unknown): void => {
    const source = sources[field] ?? "default";
    const repaired = repairs.find((r) => r.field === field);
    lines.push(`  ${field.padEnd(32)} ${String(value).padEnd(8)} ${source}${repaired ? `, repaired from ${repaired.from}: ${repaired.reason}` : ""}`);
  };
  row("enabled", config.enabled === undefined ? "unset" : config.enabled);
  row("historySize", config.historySize);
  row("warningThreshold", config.warningThreshold);
  row("criticalThreshold", config.criticalThreshold);
  row("unknownToolThreshold", config.unknownToolThreshold);
  row("globalCircuitBreakerThreshold", config.globalCircuitBreakerThreshold);
  row("detectors.genericRepeat", config.detectors.genericRepeat);
  row("detectors.knownPollNoProgress", config.detectors.knownPollNoProgress);
  row("detectors.pingPong", config.detectors.pingPong);
  row("postCompactionGuard.windowSize", config.postCompactionGuard.windowSize);
  lines.push("");
  lines.push(`  rolling detectors: ${mode.rollingDetectors ? "on" : "off"}; post-compaction guard: ${mode.guard ? "ON" : "off"}; calls recorded: ${mode.recordCalls ? "yes" : "no"}`);
  if (repairs.length === 0) lines.push("  no values were repaired");
  else lines.push(`  ${repairs.length} value${repairs.length === 1 ? " was" : "s were"} repaired (SPEC C3); see above`);
  return { issues, json, text: lines.join("\n") + "\n" };
}
