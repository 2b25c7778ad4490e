// Reading an OpenClaw config file (JSON or JSON5) and turning it into the effective
// tools.loopDetection of one agent. Every problem is reported at once with its path.
import { inputKind } from "./fsErrors.js";
import { readTextFile } from "./textFile.js";
import JSON5 from "json5";
import type { ResolvedConfig } from "../../models/config.js";
import { DEFAULT_CONFIG } from "../../models/config.js";
import { findAgentBlock, listAgentIds, resolveEffectiveConfig, type Resolution } from "../../models/configResolution.js";
import { formatIssue, validateOpenClawConfig, type ConfigIssue } from "../../models/configValidation.js";
import { UserError } from "./errors.js";

export function readConfigFile(path: string): unknown {
  if (inputKind(path) === "folder") throw new UserError(`${path}: is a directory, not a config file`);
  const text = readTextFile(path, "config file");
  try {
    return JSON5.parse(text);
  } catch (error) {
    const e = error as Error & { lineNumber?: number; columnNumber?: number };
    const place = e.lineNumber !== undefined ? `${path}:${e.lineNumber}:${e.columnNumber ?? 0}` : path;
    throw new UserError(`${place}: not valid JSON5 (${e.message.replace(/^JSON5: /, "")})`);
  }
}

export interface LoadedConfig {
  readonly root: unknown;
  readonly issues: readonly ConfigIssue[];
  readonly resolution: Resolution;
}

/** Validates the whole root (C2) and resolves the agent's effective block (C3, C4). */
export function loadConfig(root: unknown, agentId: string | undefined, where: string): LoadedConfig {
  const issues = validateOpenClawConfig(root);
  if (agentId !== undefined && issues.length === 0 && !findAgentBlock(root, agentId).found) {
    const known = listAgentIds(root);
    throw new UserError(`${where}: agent "${agentId}" is not in agents.list (known: ${known.length > 0 ? known.join(", ") : "none"})`);
  }
  return { root, issues, resolution: resolveEffectiveConfig(root, agentId) };
}

export function issuesMessage(where: string, issues: readonly ConfigIssue[]): string {
  const lines = issues.map((found) => `  ${where}: ${formatIssue(found)}`);
  return `${where}: ${issues.length} invalid value${issues.length === 1 ? "" : "s"} in the loop-detection config:\n${lines.join("\n")}`;
}

/** The effective config for a command's --config/--agent options; exit 2 on any issue. */
export function configFromOptions(configPath: string | undefined, agentId: string | undefined): ResolvedConfig {
  if (configPath === undefined) {
    if (agentId !== undefined) throw new UserError(`--agent ${agentId} needs --config FILE (the file that lists the agents)`);
    return DEFAULT_CONFIG;
  }
  const loaded = loadConfig(readConfigFile(configPath), agentId, configPath);
  if (loaded.issues.length > 0) throw new UserError(issuesMessage(configPath, loaded.issues));
  return loaded.resolution.config;
}
