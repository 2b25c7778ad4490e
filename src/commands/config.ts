// `loopsim config FILE`: validates a config and shows the effective tools.loopDetection of one
// agent: every value, where it came from, what was repaired and why, and what `enabled` switches on.
import { enabledMode } from "../../models/config.js";
import { formatIssue } from "../../models/configValidation.js";
import { UserError } from "../io/errors.js";
import { issuesMessage, loadConfig, readConfigFile } from "../io/configFile.js";

export function configCommand(path: string, agentId: string | undefined, json: boolean): void {
  const loaded = loadConfig(readConfigFile(path), agentId, path);
  const { config, repairs, sources } = loaded.resolution;
  const mode = enabledMode(config.enabled);
  if (json) {
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
    process.stdout.write(JSON.stringify(report, null, 2) + "\n");
    if (loaded.issues.length > 0) throw new UserError(issuesMessage(path, loaded.issues));
    return;
  }
  if (loaded.issues.length > 0) throw new UserError(issuesMessage(path, loaded.issues));
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
  process.stdout.write(lines.join("\n") + "\n");
}
