// The rows of a comparison: a guard and the config it runs with. OpenClaw appears as shipped
// (rolling detectors off, the post-compaction guard on), with `enabled: true`, and as any
// release; the peers ignore the config (their numbers are their own).
import { UserError } from "../io/errors.js";
import { GOOSE_COMPARED_LIMIT, PEER_TARGETS } from "../targets/peers/index.js";
import { resolveStepwiseTarget, resolveTarget } from "../targets/registry.js";
import { REFERENCE_TARGET } from "../targets/reference.js";
import type { Target } from "../targets/target.js";
import { evidenceFor } from "../targets/peers/evidence.js";
import { CANDIDATE_NAMES } from "../targets/candidates/index.js";
import { isOpenClawLabel, isRefKind, OPENCLAW_ROW_LABELS } from "../targets/targetRef.js";

export interface CompareRow {
  /** What the report calls it. */
  readonly name: string;
  /** The target it runs, by the name `--target` takes. */
  readonly target: string;
  /** tools.loopDetection block it runs with. */
  readonly block: Record<string, unknown>;
  readonly description: string;
}

const OPENCLAW_ROWS: Readonly<Record<(typeof OPENCLAW_ROW_LABELS)[number], CompareRow>> = {
  "openclaw-default": { name: "openclaw-default", target: REFERENCE_TARGET.name, block: {}, description: "OpenClaw as shipped (the reference, SPEC defaults): rolling detectors off, the post-compaction guard on" },
  "openclaw-enabled": { name: "openclaw-enabled", target: REFERENCE_TARGET.name, block: { enabled: true }, description: "OpenClaw with tools.loopDetection.enabled: true (the reference): warn at 10, block at 20, breaker at 30, results compared" },
};

/** OpenClaw's own rows: the two reference rows, a release and a local build (drawn in OpenClaw's colour). */
export function isOpenClawRow(name: string): boolean {
  return isOpenClawLabel(name);
}

/** `all`: both OpenClaw rows and every peer; Goose at a limit (it ships with its inspector off, like `none`). */
export const ALL_ROW_NAMES: readonly string[] = [
  "openclaw-default",
  "openclaw-enabled",
  ...PEER_TARGETS.map((t) => (t.name === "goose" ? `goose:${GOOSE_COMPARED_LIMIT}` : t.name)),
];

export function rowNames(spec: string): string[] {
  const names = spec.split(",").map((n) => n.trim()).filter((n) => n !== "");
  // `candidates`: the candidate rules (src/targets/candidates), which no runtime ships; never part of `all`.
  const expanded = names.flatMap((n) => (n === "all" ? ALL_ROW_NAMES : n === "candidates" ? CANDIDATE_NAMES : [n]));
  if (expanded.length === 0) throw new UserError("--targets: name at least one target, or all");
  const seen = new Set<string>();
  return expanded.filter((n) => (seen.has(n) ? false : (seen.add(n), true)));
}

/**
 * Each row with its target resolved (releases load from the cache, fetched once if missing).
 * `wholeTrace`: refuse a target that answers whole traces only (a runtime's CLI), or allow it for
 * a caller that runs such rows open-loop (compare's real-outcomes figures).
 */
export async function resolveRows(names: readonly string[], wholeTrace: "refuse" | "allow" = "refuse"): Promise<{ rows: CompareRow[]; targets: Map<string, Target> }> {
  const rows: CompareRow[] = [];
  const targets = new Map<string, Target>();
  for (const name of names) {
    const builtIn = (OPENCLAW_ROWS as Readonly<Record<string, CompareRow | undefined>>)[name];
    const row = builtIn ?? { name, target: name, block: { enabled: true }, description: "" };
    const target = targets.get(row.target) ?? (await (wholeTrace === "allow" ? resolveTarget(row.target) : resolveStepwiseTarget(row.target)));
    targets.set(row.target, target);
    const evidence = evidenceFor(name);
    const summary = evidence === undefined ? target.summary : `${target.summary} (${evidence.text})`;
    rows.push(builtIn ?? { ...row, description: isRefKind(name, "release", "build") ? `${target.summary}, with enabled: true` : summary });
  }
  return { rows, targets };
}
