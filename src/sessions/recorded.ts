// Recorded sessions as a population. Every session under the paths given, named by where it is
// (its path relative to the folder given, plus #id inside a multi-session file), is streamed in
// turn: read through the importers, handed to the caller, and dropped, so a folder of any size
// goes through in the memory of one session. A file that cannot be read is reported and skipped
// (with --strict, the first one stops the command). Labels come from a JSON map, matched by the
// session's id or by a key the user names, with values mapped as the user says; what matches no
// session and what cannot be read are reported, never a whole-file failure.
import { readTextFile } from "../io/textFile.js";
import { inputKind } from "../io/fsErrors.js";
import { basename } from "node:path";
import { jsonExcerpt } from "../format/words.js";
import type { ToolEvent } from "../../models/events.js";
import { isPlainObject } from "../../models/outcomeHash.js";
import { CheckFailed, UserError } from "../io/errors.js";
import { openSession, wholeSessionEvents } from "../import/session.js";
import type { ElementSpan } from "../import/jsonDocument.js";
import type { DetectedFormat } from "../import/detect.js";
import { badFileLines, reasonOf, sessionRefs, type BadFile } from "../import/sessionRefs.js";
import type { Shard } from "../io/shardSpec.js";

export const SESSION_LABELS = ["resolved", "unresolved"] as const;
/**
 * What a session's label says about its outcome. `unknown` is a label that says the outcome was
 * not established (the evaluation failed or never ran: eval_error, no_eval): kept apart from
 * resolved and unresolved, never counted as either, and not lumped with sessions no label names.
 */
export type SessionOutcome = (typeof SESSION_LABELS)[number] | "unknown";
export type SessionLabel = SessionOutcome | "unlabelled";

/**
 * The label words the public datasets use, and the outcome each means: SWE-bench's evaluation
 * (resolved, unresolved, unresolved_empty_patch: a run that submitted no patch; eval_error,
 * no_eval) and tau-bench's reward (success, failure). `--label-map` adds or overrides words.
 */
export const LABEL_VOCABULARY: ReadonlyMap<string, SessionOutcome> = new Map([
  ["resolved", "resolved"],
  ["success", "resolved"],
  ["unresolved", "unresolved"],
  ["unresolved_empty_patch", "unresolved"],
  ["failure", "unresolved"],
  ["eval_error", "unknown"],
  ["no_eval", "unknown"],
]);

/** How a labels file's keys name sessions. */
export const LABEL_KEYS = ["id", "instance", "file"] as const;
export type LabelKey = (typeof LABEL_KEYS)[number];

export interface RecordedSession {
  readonly id: string;
  readonly file: string;
  readonly format: string;
  readonly label: SessionLabel;
  readonly events: readonly ToolEvent[];
}

/** The instance a session is about: the file name without session extensions, or the #id. */
export function instanceKey(id: string): string {
  const hash = id.lastIndexOf("#");
  if (hash >= 0 && /\.json(\.gz)?$/.test(id.slice(0, hash))) return id.slice(hash + 1);
  return basename(id).replace(/(\.traj\.json|\.traj|\.jsonl|\.json)(\.gz)?$/, "");
}

/** The file part of a session id (a multi-session file's sessions are `file.json#id`). */
const fileOfId = (id: string): string => id.replace(/(\.json(?:\.gz)?)#.*$/, "$1");

export function keyOf(id: string, key: LabelKey): string {
  if (key === "id") return id;
  if (key === "file") return basename(fileOfId(id));
  return instanceKey(id);
}

export interface Labels {
  readonly file: string;
  readonly key: LabelKey;
  /**
   * A nested file, `{run: {instance: label}}` (mini-swe-agent runs: gpt-5-cam's and deepseek's
   * labels.json): a session matches by run folder and instance, whatever --label-key says. Its
   * keys in byKey are `<run>/<instance>`.
   */
  readonly nested: boolean;
  readonly byKey: ReadonlyMap<string, SessionOutcome>;
  /** Values that were neither a label nor mapped to one: reported, left unlabelled. */
  readonly unknownValues: readonly string[];
}

/** `--label-map empty_patch=unresolved,submitted=resolved` (also VALUE=unknown). */
export function parseLabelMap(spec: string | undefined): ReadonlyMap<string, SessionOutcome> {
  const map = new Map<string, SessionOutcome>();
  if (spec === undefined) return map;
  for (const part of spec.split(",").map((p) => p.trim()).filter((p) => p !== "")) {
    const [from, to] = part.split("=").map((x) => x.trim());
    if (from === undefined || from === "" || (to !== "resolved" && to !== "unresolved" && to !== "unknown")) throw new UserError(`--label-map ${spec}: each entry is VALUE=resolved, VALUE=unresolved or VALUE=unknown (got "${part}")`);
    map.set(from, to);
  }
  return map;
}

const jsonPath = (...keys: string[]): string => `$${keys.map((k) => `[${JSON.stringify(k)}]`).join("")}`;

/** One label of a labels file: its keys (`[session]`, or `[run, instance]`), its word as written, and its JSON path. */
export interface LabelEntry {
  readonly keys: readonly [string] | readonly [string, string];
  readonly value: unknown;
  readonly path: string;
}

/**
 * A labels file's JSON, parsed once at the edge for every reader of labels: flat
 * `{"session": "label"}` or nested `{"run": {"instance": "label"}}`, never a mix. Problems with the
 * file as a whole are user errors naming the JSON path; values are returned as written (what a
 * value means is the reader's: loadLabels maps it onto an outcome).
 */
export function parseLabelsFile(file: string): { readonly nested: boolean; readonly entries: readonly LabelEntry[] } {
  if (inputKind(file, "--labels ") === "folder") throw new UserError(`--labels ${file}: is a directory, not a labels file (name the labels.json inside it)`);
  const text = readTextFile(file, "labels file");
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new UserError(`--labels ${file}: not valid JSON (${(error as Error).message})`);
  }
  if (!isPlainObject(raw)) throw new UserError(`--labels ${file}: $: must be a JSON object mapping sessions to labels ({"session": "resolved"}) or runs to such maps ({"run": {"instance": "resolved"}})`);
  const top = Object.entries(raw);
  const nested = top.length > 0 && top.every(([, v]) => isPlainObject(v));
  if (!nested) {
    const run = top.find(([, v]) => isPlainObject(v));
    if (run !== undefined) throw new UserError(`--labels ${file}: ${jsonPath(run[0])}: a map of labels where the other entries are labels; a file is either {"session": "label"} or {"run": {"instance": "label"}} throughout`);
    return { nested, entries: top.map(([id, value]) => ({ keys: [id] as const, value, path: jsonPath(id) })) };
  }
  const entries: LabelEntry[] = [];
  for (const [run, instances] of top) {
    if (run.includes("/")) throw new UserError(`--labels ${file}: ${jsonPath(run)}: a run is one folder name of the sessions' paths, without "/"`);
    for (const [instance, value] of Object.entries(instances as Record<string, unknown>)) entries.push({ keys: [run, instance] as const, value, path: jsonPath(run, instance) });
  }
  return { nested, entries };
}

/** What a label word means (LABEL_VOCABULARY, then --label-map), or undefined for a word loopsim does not know. */
export function outcomeOfLabel(value: unknown, valueMap: ReadonlyMap<string, SessionOutcome> = new Map()): SessionOutcome | undefined {
  return typeof value === "string" ? (valueMap.get(value) ?? LABEL_VOCABULARY.get(value)) : undefined;
}

/**
 * The labels file for tune --sessions and compare --sessions (and any reader that matches labels
 * to sessions), from parseLabelsFile. Flat keys name sessions as --label-key says; nested ones match
 * by run folder and instance. A value that is no label is reported and left unlabelled.
 */
export function loadLabels(file: string, key: LabelKey = "id", valueMap: ReadonlyMap<string, SessionOutcome> = new Map()): Labels {
  const { nested, entries } = parseLabelsFile(file);
  // Null prototype: a session named __proto__ or constructor is a plain key here.
  const byKey = new Map<string, SessionOutcome>();
  const unknownValues: string[] = [];
  for (const entry of entries) {
    const mapped = outcomeOfLabel(entry.value, valueMap);
    if (mapped !== undefined) byKey.set(entry.keys.join("/"), mapped);
    else unknownValues.push(`${file}: ${entry.path}: ${jsonExcerpt(entry.value)} is not resolved or unresolved (nor ${[...LABEL_VOCABULARY.keys()].filter((w) => w !== "resolved" && w !== "unresolved").join(", ")}, which loopsim also reads; map it with --label-map VALUE=resolved|unresolved|unknown); left unlabelled`);
  }
  return { file, key, nested, byKey, unknownValues };
}

/**
 * The key of the labels file a session matches, or undefined. Nested labels: the session's
 * instance (its file's name without extensions, or its #id) under a run that is one of the folders
 * of its path (the nearest one that has a label for it wins).
 */
export function labelKeyOf(id: string, labels: Labels): string | undefined {
  if (!labels.nested) {
    const k = keyOf(id, labels.key);
    return labels.byKey.has(k) ? k : undefined;
  }
  const instance = instanceKey(id);
  const folders = fileOfId(id).split(/[\\/]/).slice(0, -1);
  for (let i = folders.length - 1; i >= 0; i--) {
    const k = `${folders[i] as string}/${instance}`;
    if (labels.byKey.has(k)) return k;
  }
  return undefined;
}

/** What reading the sessions found, beside the sessions themselves. */
export interface RecordedRead {
  /** Sessions read. */
  readonly count: number;
  /** Files skipped as unreadable, with why. */
  readonly bad: readonly BadFile[];
  /** Label keys that matched no session. */
  readonly unmatchedLabels: readonly string[];
  /** Label keys that matched more than one session (an instance solved by several systems). */
  readonly ambiguousLabels: readonly string[];
  /** Sessions read, by their outcome label. */
  readonly byLabel: Readonly<Record<string, number>>;
}

export interface ReadOptions {
  readonly labels?: Labels;
  readonly strict?: boolean;
  /** How the command's user named the sessions, for messages (default: `--sessions PATH...`). */
  readonly given?: string;
  /** A shard by session (`--shard I/N --by sessions`): only this shard's slice of the sessions is read. */
  readonly slice?: Shard;
}

/**
 * A shard's slice of the listed sessions: those at positions I-1, I-1+N, I-1+2N ... of the one
 * stable listing every shard makes, so the slices of 1..N cover each session once, whatever the
 * machines. Each comes with its position in the whole listing, which the merge orders by.
 */
export function sliceOf<T>(refs: readonly T[], slice: Shard | undefined): { readonly ref: T; readonly at: number }[] {
  const all = refs.map((ref, at) => ({ ref, at }));
  return slice === undefined ? all : all.filter(({ at }) => at % slice.of === slice.index - 1);
}

/** What a shard by session read, in a form that adds up across shards (src/io/sessionShards.ts). */
export interface ReadCounts {
  readonly count: number;
  readonly byLabel: Readonly<Record<string, number>>;
  readonly bad: readonly BadFile[];
}

/** The reads of every shard as one: counts added, unreadable files once each, in file order. */
export function addReads(parts: readonly ReadCounts[]): RecordedRead {
  const byLabel: Record<string, number> = {};
  const bad = new Map<string, BadFile>();
  for (const p of parts) {
    for (const [label, n] of Object.entries(p.byLabel)) byLabel[label] = (byLabel[label] ?? 0) + n;
    for (const b of p.bad) if (!bad.has(b.file)) bad.set(b.file, b);
  }
  return {
    count: parts.reduce((n, p) => n + p.count, 0),
    bad: [...bad.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)),
    unmatchedLabels: [],
    ambiguousLabels: [],
    byLabel: Object.fromEntries(Object.keys(byLabel).sort().map((k) => [k, byLabel[k] as number])),
  };
}

/** A session's label by the labels file, or unlabelled. */
export function labelOf(id: string, labels: Labels | undefined): SessionLabel {
  if (labels === undefined) return "unlabelled";
  const k = labelKeyOf(id, labels);
  return k === undefined ? "unlabelled" : (labels.byKey.get(k) ?? "unlabelled");
}

/**
 * What reading sessions found, counted as they come (in-process or from worker threads): how many,
 * by label (in sorted order, whatever order they came in), which label keys matched, and the
 * files that could not be read.
 */
export class ReadTally {
  private count = 0;
  private readonly byLabel: Record<string, number> = {};
  private readonly matched = new Map<string, number>();

  constructor(private readonly labels: Labels | undefined) {}

  session(id: string, label: SessionLabel): void {
    this.count++;
    this.byLabel[label] = (this.byLabel[label] ?? 0) + 1;
    const key = this.labels === undefined || label === "unlabelled" ? undefined : labelKeyOf(id, this.labels);
    if (key !== undefined) this.matched.set(key, (this.matched.get(key) ?? 0) + 1);
  }

  read(bad: readonly BadFile[]): RecordedRead {
    return {
      count: this.count,
      bad: [...bad].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)),
      unmatchedLabels: this.labels === undefined ? [] : [...this.labels.byKey.keys()].filter((k) => !this.matched.has(k)),
      ambiguousLabels: [...this.matched.entries()].filter(([, n]) => n > 1).map(([k]) => k),
      byLabel: Object.fromEntries(Object.keys(this.byLabel).sort().map((k) => [k, this.byLabel[k] as number])),
    };
  }
}

/**
 * A whole session's events through its importer (a session is held at a time, never a folder),
 * without model text: sessions held whole feed tune, compare and calibrate, whose figures are
 * about tool calls, and text can outweigh a session's calls many times over. Content rules on a
 * recorded session's text run where it streams: `trace` and `scan`.
 */
export async function readSessionEvents(ref: string, span?: ElementSpan, detected?: DetectedFormat): Promise<{ events: ToolEvent[]; format: string }> {
  // A session its importer reads without a stream is taken in one go (no await per event).
  const now = detected === undefined ? undefined : wholeSessionEvents(ref, detected, { text: false, span });
  if (now !== undefined) {
    const events: ToolEvent[] = [];
    for (const { event } of now.events) events.push(event);
    return { events, format: now.format };
  }
  const opened = await openSession(ref, "auto", { text: false, span, ...(detected === undefined ? {} : { detected }) });
  const events: ToolEvent[] = [];
  for await (const { event } of opened.events) events.push(event);
  return { events, format: opened.format };
}

/**
 * Streams every session with at least one call to `each`, one at a time, in a stable order.
 * Sessions with no call are passed over (nothing a guard could act on).
 */
export async function forEachRecordedSession(paths: readonly string[], options: ReadOptions, each: (session: RecordedSession, at: number) => void | Promise<void>): Promise<RecordedRead> {
  const { refs, bad } = await sessionRefs(paths, options.strict === true);
  if (refs.length === 0 && bad.length === 0) throw new UserError(`${options.given ?? `--sessions ${paths.join(" ")}`}: no session files (.jsonl, .traj, .traj.json, .json, each also .gz) found`);
  const tally = new ReadTally(options.labels);
  for (const { ref: { ref, id, span, format: detected }, at } of sliceOf(refs, options.slice)) {
    let events: ToolEvent[];
    let format: string;
    try {
      ({ events, format } = await readSessionEvents(ref, span, detected));
    } catch (error) {
      if (options.strict === true || !(error instanceof UserError)) throw error;
      bad.push({ file: ref, reason: reasonOf(error, ref) });
      continue;
    }
    if (!events.some((e) => e.type === "call")) continue;
    const session: RecordedSession = { id, file: ref, format, label: labelOf(id, options.labels), events };
    tally.session(id, session.label);
    await each(session, at);
  }
  return tally.read(bad);
}

/** The lines a command prints on stderr about what it could not read or match. */
export function readProblems(read: RecordedRead, labels: Labels | undefined, inShard?: Shard): string[] {
  const lines: string[] = [];
  for (const b of read.bad) lines.push(`${b.file}: skipped: ${b.reason}`);
  if (labels !== undefined) {
    lines.push(...labels.unknownValues);
    if (read.unmatchedLabels.length > 0) lines.push(`--labels ${labels.file}: ${read.unmatchedLabels.length} label${read.unmatchedLabels.length === 1 ? "" : "s"} matched no session${inShard === undefined ? "" : ` in this shard (${inShard.index}/${inShard.of}: it reads its slice of the sessions, and the other shards hold the rest)`} by ${labels.nested ? "run folder and instance" : `--label-key ${labels.key}`} (e.g. ${read.unmatchedLabels.slice(0, 3).map((k) => JSON.stringify(k)).join(", ")})`);
    if (read.ambiguousLabels.length > 0) lines.push(`--labels ${labels.file}: ${read.ambiguousLabels.length} label${read.ambiguousLabels.length === 1 ? "" : "s"} matched several sessions by ${labels.nested ? "run folder and instance" : `--label-key ${labels.key}`} (e.g. ${read.ambiguousLabels.slice(0, 3).map((k) => JSON.stringify(k)).join(", ")})${labels.nested ? "" : "; --label-key id names one session each"}`);
  }
  return lines;
}

/**
 * Before any report is written: sessions were asked for and not one could be read. A report of
 * "0.0% (n=0)" would look like a finding; this is the user's input to fix (exit 2).
 */
export function refuseNoReadable(read: RecordedRead | undefined, given: string): void {
  if (read === undefined || read.count > 0 || read.bad.length === 0) return;
  throw new UserError(`${given}: no readable sessions (${read.bad.length} file${read.bad.length === 1 ? "" : "s"} could not be read):\n${badFileLines(read.bad).join("\n")}`);
}

/** After the report is out: the problems on stderr, and exit 1 when a file was skipped. */
export function failOnUnreadable(read: RecordedRead, labels?: Labels, inShard?: Shard): void {
  for (const line of readProblems(read, labels, inShard)) process.stderr.write(`loopsim: ${line}\n`);
  if (read.bad.length > 0) throw new CheckFailed(`${read.bad.length} unreadable file${read.bad.length === 1 ? "" : "s"} skipped; the report covers the other ${read.count} sessions (--strict stops at the first)`);
}

/** What a report says about the sessions it was given; two shards merge only if these agree. */
export interface RecordedSummary {
  readonly paths: readonly string[];
  readonly labels?: string;
  readonly labelKey?: LabelKey;
  readonly count: number;
  readonly byLabel: Readonly<Record<string, number>>;
  /** Files skipped because they could not be read, with why. */
  readonly unreadable: readonly BadFile[];
}

export function recordedSummary(paths: readonly string[], labels: Pick<Labels, "file" | "key"> | undefined, read: RecordedRead): RecordedSummary {
  return { paths, ...(labels === undefined ? {} : { labels: labels.file, labelKey: labels.key }), count: read.count, byLabel: read.byLabel, unreadable: read.bad };
}
