// The field matrix: reported failures (rows) by targets (columns). A cell says whether the target
// still has the reported failure, behaves as the scenario expects (fixed), cannot be judged (n/a,
// with why), or was not run here (with why), and the command that replays exactly that cell.
import type { FieldExpectation, FieldKind } from "./fieldScenario.js";
import type { TargetKind } from "./lineup.js";

export const FIELD_REPORT_SCHEMA = "loopsim/field-report@1";

export type CellStatus = "failure" | "fixed" | "n/a" | "not-run";

export interface FieldCell {
  readonly status: CellStatus;
  /** What the target did, in one line (judged cells). */
  readonly observed?: string;
  /** Which expectations it broke (failure cells). */
  readonly broken?: readonly string[];
  /** Why the cell is n/a or not run. */
  readonly reason?: string;
  readonly replay: string;
}

/** The reported runtime's own code: where the failure reproduces, and a later version's fix. */
export interface RealCode {
  /** The target that runs the reported runtime's code at (or nearest) the reported version. */
  readonly target?: string;
  readonly status?: CellStatus;
  /** The first later version of the same runtime that behaves as expected. */
  readonly laterFix?: string;
  /** Why its real code is not run here, when it is not. */
  readonly why?: string;
}

export interface FieldRow {
  readonly id: string;
  readonly file: string;
  readonly url: string;
  readonly title: string;
  readonly runtime: string;
  readonly reportedVersion: string | null;
  readonly reportedAs: string;
  readonly fixedIn: string | null;
  readonly fixedAs?: string;
  readonly kind: FieldKind;
  readonly reported: string;
  readonly expected: FieldExpectation & { readonly text: string };
  readonly adjusted?: string;
  readonly confidence: string;
  readonly calls: number;
  readonly realCode: RealCode;
  readonly cells: Readonly<Record<string, FieldCell>>;
}

export interface FieldTargetInfo {
  readonly name: string;
  readonly kind: TargetKind;
  readonly summary: string;
}

export interface FieldTotals {
  readonly failure: number;
  readonly fixed: number;
  readonly na: number;
  readonly notRun: number;
}

export interface FieldReport {
  readonly schema: typeof FIELD_REPORT_SCHEMA;
  readonly loopsimVersion: string;
  readonly command: string;
  readonly targets: readonly FieldTargetInfo[];
  readonly rows: readonly FieldRow[];
  readonly totals: Readonly<Record<string, FieldTotals>>;
  readonly headline: FieldHeadline;
}

export interface FieldHeadline {
  readonly scenarios: number;
  readonly byKind: Readonly<Record<string, number>>;
  /** Scenarios whose runtime's real code runs here and shows the reported failure. */
  readonly reproducedOnRealCode: readonly string[];
  /** Scenarios whose real code runs here and does not show it at the reported version. */
  readonly notReproducedOnRealCode: readonly string[];
  /** Scenarios whose runtime's code does not run here. */
  readonly realCodeNotRun: readonly string[];
  /** Scenarios with a later version that behaves as expected: id -> that version. */
  readonly laterFixes: Readonly<Record<string, string>>;
}

export function totalsOf(rows: readonly FieldRow[], target: string): FieldTotals {
  const count = (s: CellStatus) => rows.filter((r) => r.cells[target]?.status === s).length;
  return { failure: count("failure"), fixed: count("fixed"), na: count("n/a"), notRun: count("not-run") };
}

export function headlineOf(rows: readonly FieldRow[]): FieldHeadline {
  const byKind: Record<string, number> = {};
  for (const r of rows) byKind[r.kind] = (byKind[r.kind] ?? 0) + 1;
  const laterFixes: Record<string, string> = {};
  for (const r of rows) if (r.realCode.laterFix !== undefined) laterFixes[r.id] = r.realCode.laterFix;
  return {
    scenarios: rows.length,
    byKind,
    reproducedOnRealCode: rows.filter((r) => r.realCode.status === "failure").map((r) => r.id),
    notReproducedOnRealCode: rows.filter((r) => r.realCode.target !== undefined && r.realCode.status !== "failure").map((r) => r.id),
    realCodeNotRun: rows.filter((r) => r.realCode.target === undefined).map((r) => r.id),
    laterFixes,
  };
}
