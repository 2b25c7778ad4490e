// SPEC D1-D3: from a call's counts to its verdict. Thresholds are inclusive; the first row of the
// D2 table that matches wins.
import { match } from "ts-pattern";
import type { ResolvedConfig } from "./config.js";
import type { CallCounts } from "./history/types.js";
import { isPlainObject } from "./outcomeHash.js";
import type { Detector, Finding, Level } from "./verdict.js";

/** D1 */
export function isKnownPoll(tool: string, params: unknown): boolean {
  if (tool === "command_status") return true;
  if (tool !== "process" || !isPlainObject(params)) return false;
  return params.action === "poll" || params.action === "log";
}

export function detect(
  config: ResolvedConfig,
  tool: string,
  argsHash: string,
  poll: boolean,
  counts: CallCounts,
): Finding | undefined {
  const { warningThreshold: warning, criticalThreshold: critical, detectors } = config;
  const result = counts.noProgressResult ?? "";
  if (counts.unknownStreak >= config.unknownToolThreshold) {
    return finding("critical", "unknown_tool_repeat", tool, counts.unknownStreak, `unknown-tool:${tool}:${counts.unknownName ?? ""}`);
  }
  if (counts.noProgress >= config.globalCircuitBreakerThreshold) {
    return finding("critical", "global_circuit_breaker", tool, counts.noProgress, `global:${tool}:${argsHash}:${result}`);
  }
  if (poll && detectors.knownPollNoProgress) {
    if (counts.noProgress >= critical) {
      return finding("critical", "known_poll_no_progress", tool, counts.noProgress, `poll:${tool}:${argsHash}:${result}`);
    }
    if (counts.noProgress >= warning) {
      return finding("warning", "known_poll_no_progress", tool, counts.noProgress, `poll:${tool}:${argsHash}:${result}`);
    }
  }
  if (detectors.pingPong && counts.pingPong >= warning) {
    const pair = [argsHash, counts.pingPongPartner ?? ""].sort().join("|");
    const level: Level = counts.pingPong >= critical && counts.pingPongEvidence ? "critical" : "warning";
    return finding(level, "ping_pong", tool, counts.pingPong, `pingpong:${pair}`);
  }
  if (!poll && detectors.genericRepeat) {
    if (counts.noProgress >= critical) {
      return finding("critical", "generic_repeat", tool, counts.noProgress, `generic:${tool}:${argsHash}:${result}`);
    }
    if (counts.repeat >= warning) {
      return finding("warning", "generic_repeat", tool, counts.repeat, `generic:${tool}:${argsHash}`);
    }
  }
  return undefined;
}

function finding(level: Level, detector: Detector, tool: string, count: number, warningKey: string): Finding {
  return { level, detector, count, warningKey, message: message(level, detector, tool, count) };
}

function message(level: Level, detector: Detector, tool: string, count: number): string {
  const prefix = level === "critical" ? "CRITICAL:" : "WARNING:";
  const action = level === "critical" ? "This call is blocked." : "Change approach before it is blocked.";
  const body = match(detector)
    .with("unknown_tool_repeat", () => `${tool} was called ${count} times in a row as an unavailable tool. Use a tool that exists.`)
    .with("global_circuit_breaker", () => `${tool} returned identical outcomes ${count} times with no progress; the global circuit breaker tripped.`)
    .with("known_poll_no_progress", () => `polling loop: ${tool} was polled ${count} times with no change in its result.`)
    .with("ping_pong", () => `ping-pong loop: ${tool} alternated with another call ${count} times without progress.`)
    .with("generic_repeat", () =>
      level === "critical"
        ? `${tool} was called ${count} times with the same arguments and identical outcomes.`
        : `${tool} was called ${count} times with the same arguments; repeating it risks identical outcomes.`,
    )
    .exhaustive();
  return `${prefix} ${body} ${action}`;
}
