// Recorded sessions as a population: every session file under the paths given, read once into
// memory through the importers (streamed and validated there), each with the label the labels
// file gives it. A labels file is a JSON map from session id to "resolved" or "unresolved", as
// ../shared/corpus/mini-swe-agent/labels.json; a session's id is its file name without the
// session extensions.
import { readTextFile } from "../io/textFile.js";
import { inputKind } from "../io/fsErrors.js";
import { basename } from "node:path";
import type { ToolEvent } from "../../models/events.js";
import { isPlainObject } from "../../models/outcomeHash.js";
import { UserError } from "../cli/errors.js";
import { openSession, sessionFiles } from "../import/session.js";

export const SESSION_LABELS = ["resolved", "unresolved"] as const;
export type SessionLabel = (typeof SESSION_LABELS)[number] | "unlabelled";

export interface RecordedSession {
  readonly id: string;
  readonly file: string;
  readonly format: string;
  readonly label: SessionLabel;
  readonly events: readonly ToolEvent[];
}

export function sessionId(file: string): string {
  return basename(file).replace(/(\.traj\.json|\.traj|\.jsonl)$/, "");
}

/** The labels file: each problem names the file and the JSON key. */
export function loadLabels(file: string): ReadonlyMap<string, SessionLabel> {
  if (inputKind(file, "--labels ") === "folder") throw new UserError(`--labels ${file}: is a directory, not a labels file`);
  const text = readTextFile(file, "labels file");
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new UserError(`--labels ${file}: not valid JSON (${(error as Error).message})`);
  }
  if (!isPlainObject(raw)) throw new UserError(`--labels ${file}: must be a JSON object mapping session ids to "resolved" or "unresolved"`);
  const labels = new Map<string, SessionLabel>();
  const problems: string[] = [];
  for (const [id, value] of Object.entries(raw)) {
    if (value === "resolved" || value === "unresolved") labels.set(id, value);
    else problems.push(`${file}: $[${JSON.stringify(id)}]: must be "resolved" or "unresolved" (got ${JSON.stringify(value)})`);
  }
  if (problems.length > 0) throw new UserError(problems.join("\n"));
  return labels;
}

export async function loadRecordedSessions(paths: readonly string[], labels: ReadonlyMap<string, SessionLabel> = new Map()): Promise<RecordedSession[]> {
  const files = sessionFiles(paths);
  if (files.length === 0) throw new UserError(`--sessions ${paths.join(" ")}: no session files (.jsonl, .traj, .traj.json) found`);
  const sessions: RecordedSession[] = [];
  for (const file of files) {
    const opened = openSession(file);
    const events: ToolEvent[] = [];
    for await (const { event } of opened.events) events.push(event);
    if (!events.some((e) => e.type === "call")) continue; // nothing a guard could act on
    const id = sessionId(file);
    sessions.push({ id, file, format: opened.format, label: labels.get(id) ?? "unlabelled", events });
  }
  return sessions;
}

/** What a report says about the sessions it was given; two shards merge only if these agree. */
export interface RecordedSummary {
  readonly paths: readonly string[];
  readonly labels?: string;
  readonly count: number;
  readonly byLabel: Readonly<Record<string, number>>;
}

export function recordedSummary(paths: readonly string[], labels: string | undefined, sessions: readonly RecordedSession[]): RecordedSummary {
  const byLabel: Record<string, number> = {};
  for (const s of sessions) byLabel[s.label] = (byLabel[s.label] ?? 0) + 1;
  return { paths, ...(labels === undefined ? {} : { labels }), count: sessions.length, byLabel };
}
