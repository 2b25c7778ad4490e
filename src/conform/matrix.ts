// The conformance matrix: SPEC rules (rows) by targets (columns). A cell fails when any check
// covering the rule failed, passes when some passed and none failed, and is n/a when every check
// covering it was n/a; "untested" when no check judged it: none covers it, or the failing check
// that covers it stopped at another rule ("not judged", named so a failing count never falls
// silently when another counterexample wins a shrink).
import type { Target } from "../targets/target.js";
import type { CheckResult, Counterexample } from "./check.js";
import { SPEC_RULES } from "./rules.js";

export interface Cell {
  readonly status: "pass" | "fail" | "n/a" | "untested";
  readonly checks: number;
  readonly reason?: string;
  readonly counterexample?: Counterexample;
  /** Names of the failing checks. */
  readonly failing?: readonly string[];
}

export interface TargetConformance {
  readonly target: string;
  readonly summary: string;
  readonly notes: readonly string[];
  readonly capabilities: Target["capabilities"];
  readonly checks: readonly CheckResult[];
  readonly cells: Readonly<Record<string, Cell>>;
  readonly counts: { readonly pass: number; readonly fail: number; readonly na: number; readonly untested: number };
}

export const CONFORMANCE_SCHEMA = "loopsim/conformance@1";

export interface ConformanceReport {
  readonly schema: typeof CONFORMANCE_SCHEMA;
  readonly loopsimVersion: string;
  readonly seed: number;
  readonly depth: number;
  readonly rules: typeof SPEC_RULES;
  readonly targets: readonly TargetConformance[];
}

/** Rules a target cannot be judged on, whatever its checks say, with the reason. */
export function unjudgeable(target: Target): Map<string, string> {
  const c = target.capabilities;
  const out = new Map<string, string>();
  if (!c.guard) for (const r of ["G1", "G2", "G3", "G4", "G5", "K6"]) out.set(r, `${target.name} has no post-compaction guard (or it is not driven)`);
  if (!c.warningLevel) for (const r of ["W1", "K5"]) out.set(r, `${target.name} has no warning level`);
  else if (!c.warningPolicy) for (const r of ["W1", "W2", "K5"]) out.set(r, `${target.name} does not model the caller's warning policy`);
  if (!c.rollingDetectors) for (const r of ["S1", "S2", "S3", "S4", "D1", "D2", "W1", "W2"]) out.set(r, `${target.name} has no rolling detectors`);
  return out;
}

export function cellsOf(checks: readonly CheckResult[], excluded: ReadonlyMap<string, string> = new Map()): Record<string, Cell> {
  const cells: Record<string, Cell> = {};
  for (const rule of SPEC_RULES) {
    const why = excluded.get(rule.id);
    if (why !== undefined) {
      cells[rule.id] = { status: "n/a", checks: 0, reason: why };
      continue;
    }
    const mine = checks.filter((c) => c.rules.includes(rule.id));
    const failing = mine.filter((c) => c.status === "fail");
    const firstFail = failing.find((c) => c.counterexample !== undefined) ?? failing[0];
    if (firstFail !== undefined) {
      cells[rule.id] = { status: "fail", checks: mine.length, reason: `${firstFail.name}: ${firstFail.reason ?? ""}`, counterexample: firstFail.counterexample, failing: failing.map((c) => c.name) };
    } else if (mine.some((c) => c.status === "pass")) cells[rule.id] = { status: "pass", checks: mine.length };
    else if (notJudged(checks, rule.id) !== undefined) cells[rule.id] = { status: "untested", checks: mine.length, reason: notJudged(checks, rule.id) };
    else if (mine.length > 0) cells[rule.id] = { status: "n/a", checks: mine.length, reason: mine[0]?.reason ?? "" };
    else cells[rule.id] = { status: "untested", checks: 0, reason: "no check covers this rule" };
  }
  return cells;
}

/** Why a rule has no verdict when a failing check that covers it blamed other rules first. */
function notJudged(checks: readonly CheckResult[], rule: string): string | undefined {
  const stopped = checks.filter((c) => c.status === "fail" && c.unjudged?.includes(rule) === true);
  if (stopped.length === 0) return undefined;
  return `${NOT_JUDGED}: ${stopped.map((c) => `${c.name} failed on ${c.rules.join(", ")} first`).join("; ")}; fix that and run again`;
}

/** How a cell's reason starts when a failing check left its rule unjudged (conform's headline counts them). */
export const NOT_JUDGED = "not judged";

/** Rules a failing check left unjudged, so a headline can say so. */
export function unjudgedRules(column: TargetConformance): string[] {
  return Object.entries(column.cells)
    .filter(([, cell]) => cell.status === "untested" && cell.reason?.startsWith(`${NOT_JUDGED}:`) === true)
    .map(([id]) => id);
}

export function summarise(target: Target, checks: readonly CheckResult[]): TargetConformance {
  const cells = cellsOf(checks, unjudgeable(target));
  const values = Object.values(cells);
  return {
    target: target.name,
    summary: target.summary,
    notes: target.notes,
    capabilities: target.capabilities,
    checks,
    cells,
    counts: {
      pass: values.filter((c) => c.status === "pass").length,
      fail: values.filter((c) => c.status === "fail").length,
      na: values.filter((c) => c.status === "n/a").length,
      untested: values.filter((c) => c.status === "untested").length,
    },
  };
}
