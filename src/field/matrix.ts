// Building the field matrix: load the columns (fetching what is missing unless told not to; a
// column that cannot be loaded becomes "not run" cells with the reason, never a failed run), then
// judge every scenario on every column.
import { needsFetch, resolveTarget } from "../targets/registry.js";
import { loadDrivenRuntime } from "../targets/runtimes/drivenRuntimes.js";
import { releaseLoadOrder, targetRefOf } from "../targets/targetRef.js";
import { compareReleases } from "../targets/openclaw/versions.js";
import { VERSION } from "../io/version.js";
import { targetKind } from "./lineup.js";
import type { LoadedField } from "./load.js";
import { FIELD_REPORT_SCHEMA, headlineOf, totalsOf, type FieldReport, type FieldRow, type FieldTargetInfo } from "./report.js";
import { fieldCell, realCodeOf, type DrivenScope, type FieldSubject } from "./run.js";

export interface FieldRunOptions {
  /** False (--no-fetch): a release or runtime not in the cache is a "not run" column. */
  readonly fetch: boolean;
  readonly driven: DrivenScope;
  readonly onNote?: (line: string) => void;
  /** Called after each column, for a progress line. */
  readonly onColumn?: (name: string, done: number, total: number) => void;
}

export function isCached(name: string): boolean {
  return !needsFetch(name);
}

/** Loads one column, or says why it cannot be run. */
export async function loadSubject(name: string, options: Pick<FieldRunOptions, "fetch" | "onNote" | "driven">): Promise<FieldSubject> {
  const note = options.onNote ?? (() => undefined);
  // An unknown name is the user's mistake (exit 2), never a column of "not run".
  const ref = targetRefOf(name, "--target");
  if (!options.fetch && !isCached(name)) return { kind: "missing", name, reason: `not cached (loopsim targets fetch ${name})` };
  try {
    if (ref.kind === "drivenRuntime") {
      if (options.driven === "none") return { kind: "missing", name, reason: "driven runtimes were not run (--driven none)" };
      return { kind: "driven", name, runtime: await loadDrivenRuntime(name, note) };
    }
    return { kind: "in-process", name, target: await resolveTarget(name) };
  } catch (error) {
    // A build or an adapter is the user's own files: one that does not load is their mistake
    // (exit 2). A release or runtime that cannot be fetched here is a column not run.
    if (ref.kind === "build" || ref.kind === "adapter") throw error;
    return { kind: "missing", name, reason: `could not be loaded: ${(error as Error).message.split("\n")[0]}` };
  }
}

/** Releases load oldest first (a newer release's globals can break an older one loaded after it). */
export function loadOrder(names: readonly string[]): string[] {
  return releaseLoadOrder(names, (n) => n, compareReleases);
}

export async function buildFieldReport(scenarios: readonly { loaded: LoadedField; shownFile: string }[], names: readonly string[], command: string, options: FieldRunOptions): Promise<FieldReport> {
  const cells = new Map<string, Map<string, FieldRow["cells"][string]>>();
  const infos = new Map<string, FieldTargetInfo>();
  const order = loadOrder(names);
  for (const name of order) targetRefOf(name, "--target");
  let done = 0;
  for (const name of order) {
    const subject = await loadSubject(name, options);
    const summary = subject.kind === "in-process" ? subject.target.summary : subject.kind === "driven" ? subject.runtime.summary : subject.reason;
    infos.set(name, { name, kind: targetKind(name), summary });
    const column = new Map<string, FieldRow["cells"][string]>();
    for (const s of scenarios) column.set(s.loaded.scenario.id, await fieldCell(subject, s.loaded, s.shownFile, options.driven));
    cells.set(name, column);
    options.onColumn?.(name, ++done, order.length);
  }
  const rows: FieldRow[] = scenarios.map(({ loaded, shownFile }) => {
    const s = loaded.scenario;
    const rowCells = Object.fromEntries(names.map((n) => [n, cells.get(n)?.get(s.id) ?? { status: "not-run" as const, reason: "not run", replay: "" }]));
    const base = {
      id: s.id,
      file: shownFile,
      url: s.url,
      title: s.title,
      runtime: s.runtime,
      reportedVersion: s.reportedVersion,
      reportedAs: s.reportedAs,
      fixedIn: s.fixedIn,
      ...(s.fixedAs === undefined ? {} : { fixedAs: s.fixedAs }),
      kind: s.kind,
      reported: s.reported,
      expected: s.expected,
      ...(s.adjusted === undefined ? {} : { adjusted: s.adjusted }),
      confidence: s.confidence,
      calls: loaded.trace.calls.length,
      cells: rowCells,
    };
    return { ...base, realCode: realCodeOf(base, names) };
  });
  return {
    schema: FIELD_REPORT_SCHEMA,
    loopsimVersion: VERSION,
    command,
    targets: names.map((n) => infos.get(n) as FieldTargetInfo),
    rows,
    totals: Object.fromEntries(names.map((n) => [n, totalsOf(rows, n)])),
    headline: headlineOf(rows),
  };
}
