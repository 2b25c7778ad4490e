// The field matrix: reported failures (rows) by targets (columns). A cell says whether the target
// still has the reported failure, behaves as the scenario expects (fixed), cannot be judged (n/a,
// with why), or was not run here (with why), and the command that replays exactly that cell.
import type { ConfigVariantName } from "./configVariants.js";
import type { FieldExpectation, FieldKind } from "./fieldScenario.js";
import type { LoopEnd } from "./judge.js";
import type { TargetKind } from "./lineup.js";
import { regressionText, type Regression, type TimelinePoint } from "./timeline.js";

/** @2: cells judge the loop to its end (let-through), rows are per config, cells name what ran. */
export const FIELD_REPORT_SCHEMA = "loopsim/field-report@2";

/** "let-through": blocked in time, then the loop's later calls ran (not fixed). */
export type CellStatus = "failure" | "let-through" | "fixed" | "n/a" | "not-run";

export const JUDGED: readonly CellStatus[] = ["failure", "let-through", "fixed"];

export interface FieldCell {
  readonly status: CellStatus;
  /** What the target did, in one line (judged cells). */
  readonly observed?: string;
  /** Which expectations it broke (failure cells). */
  readonly broken?: readonly string[];
  /** Why the cell is n/a or not run. */
  readonly reason?: string;
  /** Judged cells: where the guard first stopped the loop, how many looping calls ran after. */
  readonly loop?: LoopEnd;
  /** The product and version that ran (or the model), and what it stands in for. */
  readonly ran?: string;
  readonly standsInFor?: string;
  /** Judged cells: whose rule the verdict rests on (the runtime's own stop, a fix PR's rule). */
  readonly restsOn?: string;
  readonly replay: string;
}

/** The reported runtime's own code: where the failure reproduces, and a later version's fix. */
export interface RealCode {
  /** The target that runs the reported runtime's code at (or nearest) the reported version. */
  readonly target?: string;
  readonly status?: CellStatus;
  /** The first later version from which every version judged behaves as expected. */
  readonly laterFix?: string;
  /** Why its real code is not run here, when it is not. */
  readonly why?: string;
  /** Every version of the runtime judged here, oldest first. */
  readonly timeline?: readonly TimelinePoint[];
  /** Fixed stretches that a later version lost again. */
  readonly regressions?: readonly Regression[];
}

export interface FieldRow {
  /** Unique in the report: the scenario id, with ":default", ":enabled", ":scenario" for an OpenClaw report. */
  readonly key: string;
  readonly id: string;
  /** The config this row is judged with. */
  readonly config: { readonly name: ConfigVariantName; readonly label: string; readonly stated: boolean; readonly primary: boolean };
  /** What the thread says of its config, or null when it says nothing. */
  readonly configStated: string | null;
  readonly reportedProduct?: string;
  readonly ruleFrom?: string;
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
  readonly letThrough: number;
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
  /** Scenarios with a later version from which every version behaves as expected: id -> that version. */
  readonly laterFixes: Readonly<Record<string, string>>;
  /** Rows (scenario:config) whose fix a later version lost: key -> "fixed in X, back in Y; ...". */
  readonly regressions: Readonly<Record<string, string>>;
  /** Cells blocked in time that then let the loop go on, over all rows and columns. */
  readonly letThroughCells: number;
  /** OpenClaw reports whose verdict on the real code turns on the config: key of the row -> its verdict. */
  readonly configDependent: Readonly<Record<string, string>>;
  /** OpenClaw reports whose thread states its config, and those whose config is assumed. */
  readonly configStated: readonly string[];
  readonly configAssumed: readonly string[];
}

/** A target's totals over the rows judged with the config each scenario gives (one row per report). */
export function totalsOf(rows: readonly FieldRow[], target: string): FieldTotals {
  const primary = rows.filter((r) => r.config.primary);
  const count = (s: CellStatus) => primary.filter((r) => r.cells[target]?.status === s).length;
  return { failure: count("failure"), letThrough: count("let-through"), fixed: count("fixed"), na: count("n/a"), notRun: count("not-run") };
}

/** Not fixed on its own code: the failure, or a block that lets the loop go on. */
const notFixed = (status: CellStatus | undefined) => status === "failure" || status === "let-through";

export function headlineOf(rows: readonly FieldRow[]): FieldHeadline {
  const primary = rows.filter((r) => r.config.primary);
  const byKind: Record<string, number> = {};
  for (const r of primary) byKind[r.kind] = (byKind[r.kind] ?? 0) + 1;
  const laterFixes: Record<string, string> = {};
  for (const r of primary) if (r.realCode.laterFix !== undefined) laterFixes[r.id] = r.realCode.laterFix;
  const regressions: Record<string, string> = {};
  for (const r of rows) if ((r.realCode.regressions ?? []).length > 0) regressions[r.key] = (r.realCode.regressions ?? []).map(regressionText).join("; ");
  const configDependent: Record<string, string> = {};
  const byId = new Map<string, FieldRow[]>();
  for (const r of rows) byId.set(r.id, [...(byId.get(r.id) ?? []), r]);
  for (const group of byId.values()) {
    if (group.length < 2) continue;
    const verdicts = new Set(group.map((r) => (notFixed(r.realCode.status) ? "reproduces" : r.realCode.status)));
    if (verdicts.size > 1) for (const r of group) configDependent[r.key] = `${notFixed(r.realCode.status) ? "reproduces" : "does not reproduce"} on ${r.realCode.target ?? "-"}`;
  }
  const openclaw = primary.filter((r) => r.runtime === "openclaw");
  return {
    scenarios: primary.length,
    byKind,
    reproducedOnRealCode: primary.filter((r) => notFixed(r.realCode.status)).map((r) => r.id),
    notReproducedOnRealCode: primary.filter((r) => r.realCode.target !== undefined && !notFixed(r.realCode.status)).map((r) => r.id),
    realCodeNotRun: primary.filter((r) => r.realCode.target === undefined).map((r) => r.id),
    laterFixes,
    regressions,
    letThroughCells: rows.reduce((n, r) => n + Object.values(r.cells).filter((c) => c.status === "let-through").length, 0),
    configDependent,
    configStated: openclaw.filter((r) => r.configStated !== null).map((r) => r.id),
    configAssumed: openclaw.filter((r) => r.configStated === null).map((r) => r.id),
  };
}
