// Building the field matrix: load the columns (fetching what is missing unless told not to; a
// column that cannot be loaded becomes "not run" cells with the reason, never a failed run), then
// judge every scenario on every column.
import { needsFetch, resolveTarget } from "../targets/registry.js";
import { loadDrivenRuntime } from "../targets/runtimes/drivenRuntimes.js";
import { releaseLoadOrder, targetRefOf } from "../targets/targetRef.js";
import { compareReleases } from "../targets/openclaw/versions.js";
import { VERSION } from "../io/version.js";
import { configVariants, rowKey } from "./configVariants.js";
import { readsOpenClawConfig, targetKind } from "./lineup.js";
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
      return { kind: "driven", name, runtime: await loadDrivenRuntime(ref, note) };
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
  const plan = scenarios.flatMap(({ loaded, shownFile }) => {
    const variants = configVariants(loaded.scenario);
    return variants.map((variant) => ({ loaded, shownFile, variant, key: rowKey(loaded.scenario.id, variant.name, variants.length) }));
  });
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
    // Only the reference and the OpenClaw releases read an OpenClaw config; a peer model, Gemini
    // CLI or a driven CLI runs its own, so one run serves every config row of a scenario.
    const configBlind = !readsOpenClawConfig(targetKind(name));
    const once = new Map<string, FieldRow["cells"][string]>();
    for (const p of plan) {
      const id = p.loaded.scenario.id;
      const known = configBlind ? once.get(id) : undefined;
      const cell = known ?? (await fieldCell(subject, p.loaded, p.shownFile, options.driven, configBlind ? undefined : p.variant));
      if (configBlind) once.set(id, cell);
      column.set(p.key, cell);
    }
    cells.set(name, column);
    options.onColumn?.(name, ++done, order.length);
  }
  const rows: FieldRow[] = plan.map(({ loaded, shownFile, variant, key }) => {
    const s = loaded.scenario;
    const rowCells = Object.fromEntries(names.map((n) => [n, cells.get(n)?.get(key) ?? { status: "not-run" as const, reason: "not run", replay: "" }]));
    const base = {
      key,
      id: s.id,
      config: { name: variant.name, label: variant.label, stated: variant.stated, primary: variant.primary },
      configStated: s.configStated ?? null,
      ...(s.reportedProduct === undefined ? {} : { reportedProduct: s.reportedProduct }),
      ...(s.ruleFrom === undefined ? {} : { ruleFrom: s.ruleFrom }),
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
