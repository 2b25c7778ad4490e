// `loopsim field [PATHS...] --out DIR`: every reported failure of scenarios/field on every target,
// written as field.{md,json,html}; `--check` compares a run with the committed field.json instead
// of writing (exit 1 when a cell changed). `loopsim field replay FILE --target T` replays one cell.
// The matrix documents failures: producing it exits 0 whatever the cells say. `planField` and
// `runField` (and `replayFieldCell`) print and write nothing; src/cli/fieldCommands.ts does.
import { closeSync, openSync, readSync } from "node:fs";
import { join, relative } from "node:path";
import { UserError } from "../io/errors.js";
import { filesUnder } from "../io/filesUnder.js";
import { refuseOverwrite } from "../io/overwrite.js";
import { packageRoot } from "../io/packageRoot.js";
import { readTextFile } from "../io/textFile.js";
import { checkOutputDir } from "../io/writable.js";
import { plural } from "../format/words.js";
import { configVariants, type ConfigVariantName } from "../field/configVariants.js";
import { defaultFieldTargets, threadReleases } from "../field/lineup.js";
import { loadFieldScenario, type LoadedField } from "../field/load.js";
import { buildFieldReport, loadSubject } from "../field/matrix.js";
import { describe } from "../field/judge.js";
import { FIELD_REPORT_SCHEMA, type CellStatus, type FieldReport } from "../field/report.js";
import { headlineLines, MARK, predicateText, renderFieldMarkdown } from "../field/renderMarkdown.js";
import { renderFieldHtml } from "../field/renderHtml.js";
import { judgedCell, notJudged, observeSubject, replayLine, type DrivenScope } from "../field/run.js";

const OUT_FILES = ["field.md", "field.json", "field.html"];

/** What `loopsim field` takes, as the command line (or a library caller) hands it over. */
export interface FieldCommandOptions {
  readonly paths: readonly string[];
  readonly targets: readonly string[];
  readonly out?: string;
  readonly json: boolean;
  readonly force: boolean;
  readonly check: boolean;
  readonly fetch: boolean;
  readonly driven: DrivenScope;
}

/** The field scenarios shipped with loopsim. */
export function defaultFieldDir(): string {
  return join(packageRoot(), "scenarios", "field");
}

function looksLikeField(path: string): boolean {
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.alloc(4096);
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, n).toString("utf8").includes("loopsim/field@");
  } finally {
    closeSync(fd);
  }
}

/** Loads every field scenario under the paths; any invalid file stops the command (exit 2) with every problem. */
export function loadFieldScenarios(paths: readonly string[]): { loaded: LoadedField; shownFile: string }[] {
  const files = filesUnder(paths, (path, name) => name.endsWith(".json") && looksLikeField(path));
  if (files.length === 0) throw new UserError(`no field scenarios (*.json with "schema": "loopsim/field@1") under ${paths.join(", ")}`);
  const problems: string[] = [];
  const loaded: { loaded: LoadedField; shownFile: string }[] = [];
  const ids = new Map<string, string>();
  for (const file of files) {
    const result = loadFieldScenario(file);
    if (!result.ok) {
      problems.push(...result.problems);
      continue;
    }
    const id = result.loaded.scenario.id;
    const other = ids.get(id);
    if (other !== undefined) problems.push(`${file}: id: "${id}" is also the id of ${other}`);
    ids.set(id, file);
    loaded.push({ loaded: result.loaded, shownFile: relative(process.cwd(), file) || file });
  }
  if (problems.length > 0) throw new UserError(`invalid field scenario${problems.length === 1 ? "" : "s"}:\n  ${problems.join("\n  ")}`);
  return loaded;
}

function commandText(options: FieldCommandOptions): string {
  return ["loopsim field", ...options.paths, ...options.targets.map((t) => `--target ${t}`), ...(options.driven === "own" ? [] : [`--driven ${options.driven}`]), ...(options.out === undefined ? [] : [`--out ${options.out}`])].join(" ");
}

/** A parsed field run: the scenarios (loaded), the columns, the committed report to check against, the outputs. */
export interface FieldPlan {
  readonly scenarios: readonly { readonly loaded: LoadedField; readonly shownFile: string }[];
  readonly names: readonly string[];
  readonly command: string;
  readonly out?: string;
  readonly json: boolean;
  /** With --check: the committed report the run is compared with (nothing is written). */
  readonly baseline?: FieldReport;
  readonly fetch: boolean;
  readonly driven: DrivenScope;
}

/**
 * Parses and checks what `field` is given, once, before any cell runs: every scenario loaded (an
 * invalid one stops it, with every problem), --check's committed report read, the output folder
 * checked (not made). Each problem is a user error (exitCode 2).
 */
export function planField(options: FieldCommandOptions): FieldPlan {
  if (options === null || typeof options !== "object" || !Array.isArray(options.paths) || !Array.isArray(options.targets)) throw new UserError("field: paths and targets must be lists (of scenario files or folders, and of target names)");
  const paths = options.paths.length === 0 ? [defaultFieldDir()] : options.paths;
  const scenarios = loadFieldScenarios(paths);
  if (options.check && options.out === undefined) throw new UserError("--check compares with DIR/field.json: give --out DIR");
  if (options.out !== undefined && !options.check) {
    checkOutputDir(options.out);
    refuseOverwrite(options.out, OUT_FILES, options.force);
  }
  const baseline = options.check && options.out !== undefined ? readBaseline(join(options.out, "field.json")) : undefined;
  const names = options.targets.length === 0 ? defaultFieldTargets(threadReleases(scenarios.map((s) => s.loaded.scenario))) : options.targets;
  return { scenarios, names, command: commandText(options), ...(options.out === undefined ? {} : { out: options.out }), json: options.json, ...(baseline === undefined ? {} : { baseline }), fetch: options.fetch, driven: options.driven };
}

/** What a field run made: the matrix in its three forms, or with --check how it compares with the committed one. */
export type FieldRun =
  | { readonly kind: "report"; readonly report: FieldReport; readonly json: string; readonly markdown: string; readonly html: string }
  | {
      readonly kind: "check";
      /** "field matrix unchanged: ..." when nothing changed. */
      readonly text: string;
      /** The cells that changed, as the exit-1 message says them (undefined: none). */
      readonly failing?: string;
    };

/** Where a field run's notes go: what loading a column does (`note`), and each column as it starts (`column`). */
export interface FieldSink {
  readonly note?: (line: string) => void;
  readonly column?: (name: string, done: number, total: number) => void;
}

/** Runs every scenario of a plan on every column into the matrix; writes and prints nothing. */
export async function runField(plan: FieldPlan, sink: FieldSink = {}): Promise<FieldRun> {
  const report = await buildFieldReport(plan.scenarios, plan.names, plan.command, {
    fetch: plan.fetch,
    driven: plan.driven,
    onNote: sink.note ?? (() => undefined),
    onColumn: (name, done, total) => sink.column?.(name, done, total),
  });
  if (plan.baseline !== undefined) return checkAgainst(report, plan.baseline, plan.out ?? "");
  return { kind: "report", report, json: JSON.stringify(report, null, 2) + "\n", markdown: renderFieldMarkdown(report), html: renderFieldHtml(report) };
}

/** What `field` prints when it writes into --out: the headline and where the files went. */
export function fieldWroteText(report: FieldReport, out: string): string {
  return headlineLines(report).join("\n") + `\nwrote ${OUT_FILES.map((f) => join(out, f)).join(", ")}\n`;
}

function readBaseline(file: string): FieldReport {
  try {
    const parsed = JSON.parse(readTextFile(file, "field report")) as FieldReport;
    if (parsed.schema !== FIELD_REPORT_SCHEMA) throw new Error(`schema is not ${FIELD_REPORT_SCHEMA}`);
    return parsed;
  } catch (error) {
    throw new UserError(`${file}: not a field report to check against (${(error as Error).message})`);
  }
}

/** The cells whose verdict differs between two reports (cells not run in `now` are not compared). */
export function changedCells(now: FieldReport, before: FieldReport): { changed: string[]; compared: number; skipped: number } {
  const changed: string[] = [];
  let compared = 0;
  let skipped = 0;
  const beforeRows = new Map(before.rows.map((r) => [r.key, r]));
  for (const row of now.rows) {
    const old = beforeRows.get(row.key);
    if (old === undefined) {
      changed.push(`${row.key}: not in the committed report`);
      continue;
    }
    for (const [target, cell] of Object.entries(row.cells)) {
      if (cell.status === "not-run") {
        skipped++;
        continue;
      }
      const was = old.cells[target]?.status;
      compared++;
      if (was !== cell.status || old.cells[target]?.observed !== cell.observed) changed.push(`${row.key} on ${target}: ${was ?? "absent"} -> ${cell.status}${cell.observed === undefined ? "" : ` (${cell.observed})`}; replay: ${cell.replay}`);
    }
  }
  for (const key of beforeRows.keys()) if (!now.rows.some((r) => r.key === key)) changed.push(`${key}: in the committed report, no longer a row`);
  return { changed, compared, skipped };
}

function checkAgainst(report: FieldReport, baseline: FieldReport, out: string): FieldRun {
  const { changed, compared, skipped } = changedCells(report, baseline);
  const tail = skipped === 0 ? "" : ` (${plural(skipped, "cell")} not run here, not compared)`;
  if (changed.length > 0) return { kind: "check", text: "", failing: `${plural(changed.length, "cell")} of ${join(out, "field.json")} changed; regenerate with \`${baseline.command} --force\` if that is intended:\n  ${changed.join("\n  ")}` };
  return { kind: "check", text: `field matrix unchanged: ${plural(compared, "cell")} agree with ${join(out, "field.json")}${tail}\n` };
}

/** What `loopsim field replay` takes. */
export interface FieldReplayOptions {
  readonly target: string;
  /** The config to judge with: the OpenClaw default, loop detection enabled, or the scenario's own (the default). */
  readonly config?: ConfigVariantName;
  readonly json: boolean;
  readonly fetch: boolean;
  readonly expect?: CellStatus;
}

/** One cell replayed: its verdict, the report as text and as JSON, and the failure of `expect`. */
export interface FieldCellReplay {
  readonly status: CellStatus;
  readonly text: string;
  readonly json: string;
  /** With `expect`: why the verdict is not the expected one (undefined: it is, or none was expected). */
  readonly failing?: string;
}

/**
 * One cell, call by call: what the target did with each call and the verdict; prints nothing
 * (`note` hears what loading the target does). An invalid scenario or an unknown target is a
 * user error.
 */
export async function replayFieldCell(file: string, options: FieldReplayOptions, note: (line: string) => void = () => undefined): Promise<FieldCellReplay> {
  if (typeof file !== "string" || file === "") throw new UserError("field replay: file must be a field scenario file");
  if (options === null || typeof options !== "object" || typeof options.target !== "string") throw new UserError("field replay needs --target NAME");
  const [{ loaded, shownFile }] = loadFieldScenarios([file]) as [{ loaded: LoadedField; shownFile: string }];
  const subject = await loadSubject(options.target, { fetch: options.fetch, driven: "all", onNote: note });
  const s = loaded.scenario;
  const variants = configVariants(s);
  const variant = variants.find((v) => v.name === (options.config ?? "scenario")) ?? (options.config === undefined || options.config === "scenario" ? variants.find((v) => v.primary) : undefined);
  if (variant === undefined) throw new UserError(`${shownFile}: --config ${options.config ?? ""}: this report is judged with ${variants.map((v) => v.name).join(", ")}`);
  const head = [`${s.id} on ${options.target}, ${variant.label}`, `  ${s.url}`, `  reported: ${s.reported}`, `  expected: ${s.expected.text} (checked: ${predicateText(s.expected)})`];
  const skipped = notJudged(subject, loaded, "all");
  const replay = replayLine(shownFile, options.target) + (options.config === undefined || options.config === "scenario" ? "" : ` --config ${options.config}`);
  let status: CellStatus;
  let body: string[];
  let payload: Record<string, unknown>;
  if (skipped !== undefined || subject.kind === "missing") {
    status = skipped?.status ?? "not-run";
    body = [`${MARK[status]}: ${skipped?.reason ?? ""}`];
    payload = { status, reason: skipped?.reason };
  } else {
    const observation = await observeSubject(subject, loaded, variant.config);
    if (typeof observation === "string") {
      status = "not-run";
      body = [`not run: the driven run did not complete: ${observation}`];
      payload = { status, reason: observation };
    } else {
      const cell = judgedCell(loaded, options.target, observation, replay);
      status = cell.status;
      const calls = loaded.trace.calls.map((c, i) => {
        const o = observation.calls[i];
        const flags = [o?.fate ?? "", o?.told === true ? "model told" : "", o?.keptFromModel === true ? "warning kept from the model" : "", o?.detector ?? "", o?.runEndedAfter === true ? "run ended" : ""].filter((x) => x !== "");
        return { call: c.number, run: c.run, tool: c.tool, ...o, line: `${String(c.number).padStart(4)} ${c.run} ${c.tool}: ${flags.join(", ")}` };
      });
      const verdict = status === "failure" ? "FAILS: has the reported failure" : status === "let-through" ? "let through: blocked in time, then the loop went on" : "fixed: behaves as expected, and the loop ends where it is stopped";
      const broken = cell.broken ?? [];
      body = [`${verdict} (${describe(observation)})`, ...(broken.length === 0 ? [] : [`  broken: ${broken.join("; ")}`]), `  ran: ${cell.ran ?? ""}`, `  rests on: ${cell.restsOn ?? ""}`, "calls:", ...calls.map((c) => c.line)];
      payload = { status, config: variant.name, observed: cell.observed, broken, loop: cell.loop, ran: cell.ran, ...(cell.standsInFor === undefined ? {} : { standsInFor: cell.standsInFor }), restsOn: cell.restsOn, calls: calls.map(({ line: _line, ...rest }) => rest) };
    }
  }
  return {
    status,
    text: [...head, ...body].join("\n") + "\n",
    json: JSON.stringify({ scenario: s.id, file: shownFile, target: options.target, replay, ...payload }, null, 2) + "\n",
    ...(options.expect !== undefined && options.expect !== status ? { failing: `${s.id} on ${options.target}: ${status}, expected ${options.expect}` } : {}),
  };
}
