// SPEC C2 and C4: strict validation of a user's config, every problem at once, each with its
// full path, the bad value and the rule it breaks. Each block is validated alone.
import { DETECTOR_FIELDS, GUARD_FIELDS, NUMBER_FIELDS, TOP_LEVEL_FIELDS, isPositiveInteger } from "./config.js";
import { isPlainObject } from "./outcomeHash.js";

export interface ConfigIssue {
  readonly path: string;
  readonly value: string;
  readonly rule: string;
}

export function describeValue(value: unknown): string {
  if (typeof value === "number") return Number.isNaN(value) ? "NaN" : String(value);
  if (typeof value === "bigint") return `${value.toString()}n`;
  try {
    // JSON has no text for undefined, functions or symbols: their own text stands in.
    const text = (JSON.stringify(value) as string | undefined) ?? String(value);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  } catch {
    return String(value);
  }
}

function issue(path: string, value: unknown, rule: string): ConfigIssue {
  return { path, value: describeValue(value), rule };
}

function checkKeys(block: Record<string, unknown>, allowed: readonly string[], path: string, out: ConfigIssue[]): void {
  for (const key of Object.keys(block)) {
    if (!allowed.includes(key)) {
      out.push(issue(`${path}.${key}`, block[key], `unknown key (allowed: ${allowed.join(", ")})`));
    }
  }
}

/** C2 for one `tools.loopDetection` block found at `path`. */
/** The rule a count (threshold, size) breaks, or undefined. Above 2^53 a JSON number is no longer the integer written: refused rather than run on another value. */
function countRule(value: unknown): string | undefined {
  if (!isPositiveInteger(value)) return "must be a positive integer";
  if (!Number.isSafeInteger(value)) return "must be at most 9007199254740991 (2^53 - 1): larger integers lose precision";
  return undefined;
}

export function validateLoopDetectionBlock(block: unknown, path: string): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  if (!isPlainObject(block)) {
    out.push(issue(path, block, "must be an object"));
    return out;
  }
  checkKeys(block, TOP_LEVEL_FIELDS, path, out);
  if ("enabled" in block && typeof block.enabled !== "boolean") {
    out.push(issue(`${path}.enabled`, block.enabled, "must be a boolean"));
  }
  for (const field of NUMBER_FIELDS) {
    const broken = field in block ? countRule(block[field]) : undefined;
    if (broken !== undefined) out.push(issue(`${path}.${field}`, block[field], broken));
  }
  const warning = block.warningThreshold;
  const critical = block.criticalThreshold;
  const global = block.globalCircuitBreakerThreshold;
  if (isPositiveInteger(warning) && isPositiveInteger(critical) && !(warning < critical)) {
    out.push(issue(`${path}.criticalThreshold`, critical, `must be greater than warningThreshold (${warning})`));
  }
  if (isPositiveInteger(critical) && isPositiveInteger(global) && !(critical < global)) {
    out.push(
      issue(`${path}.globalCircuitBreakerThreshold`, global, `must be greater than criticalThreshold (${critical})`),
    );
  }
  if ("detectors" in block) {
    const detectors = block.detectors;
    if (!isPlainObject(detectors)) {
      out.push(issue(`${path}.detectors`, detectors, "must be an object"));
    } else {
      checkKeys(detectors, DETECTOR_FIELDS, `${path}.detectors`, out);
      for (const field of DETECTOR_FIELDS) {
        if (field in detectors && typeof detectors[field] !== "boolean") {
          out.push(issue(`${path}.detectors.${field}`, detectors[field], "must be a boolean"));
        }
      }
    }
  }
  if ("postCompactionGuard" in block) {
    const guard = block.postCompactionGuard;
    if (!isPlainObject(guard)) {
      out.push(issue(`${path}.postCompactionGuard`, guard, "must be an object"));
    } else {
      checkKeys(guard, GUARD_FIELDS, `${path}.postCompactionGuard`, out);
      const broken = "windowSize" in guard ? countRule(guard.windowSize) : undefined;
      if (broken !== undefined) out.push(issue(`${path}.postCompactionGuard.windowSize`, guard.windowSize, broken));
    }
  }
  return out;
}

/** An OpenClaw config file's root, where only the loop-detection blocks are checked strictly. */
export function validateOpenClawConfig(root: unknown): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  if (!isPlainObject(root)) return [issue("(root)", root, "must be an object")];
  if ("tools" in root) {
    if (!isPlainObject(root.tools)) out.push(issue("tools", root.tools, "must be an object"));
    else if ("loopDetection" in root.tools) {
      out.push(...validateLoopDetectionBlock(root.tools.loopDetection, "tools.loopDetection"));
    }
  }
  if ("agents" in root) {
    const agents = root.agents;
    if (!isPlainObject(agents)) out.push(issue("agents", agents, "must be an object"));
    else if ("list" in agents) {
      if (!Array.isArray(agents.list)) out.push(issue("agents.list", agents.list, "must be an array"));
      else {
        const seen = new Set<string>();
        agents.list.forEach((entry: unknown, index: number) => {
          const path = `agents.list[${index}]`;
          if (!isPlainObject(entry)) {
            out.push(issue(path, entry, "must be an object"));
            return;
          }
          if (typeof entry.id !== "string" || entry.id.trim() === "") {
            out.push(issue(`${path}.id`, entry.id, "must be a non-empty string"));
          } else if (seen.has(entry.id)) {
            out.push(issue(`${path}.id`, entry.id, "duplicate agent id"));
          } else seen.add(entry.id);
          if ("tools" in entry) {
            if (!isPlainObject(entry.tools)) out.push(issue(`${path}.tools`, entry.tools, "must be an object"));
            else if ("loopDetection" in entry.tools) {
              out.push(...validateLoopDetectionBlock(entry.tools.loopDetection, `${path}.tools.loopDetection`));
            }
          }
        });
      }
    }
  }
  return out;
}

export function formatIssue(found: ConfigIssue): string {
  return `${found.path}: ${found.rule} (got ${found.value})`;
}
