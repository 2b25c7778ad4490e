// The sessions under the paths a command is given, each named by where it is: its path relative
// to the folder given (a file given directly keeps the path as typed), plus `#id` for each
// trajectory of a multi-session file (Agent Data Protocol, a tau-bench list of runs). A file that cannot be listed (not
// readable, empty, not JSON, of no known format) is reported with the reason, never fatal: the
// caller goes on with the rest and says so in its summary (or stops at the first with --strict).
import { statSync, type Stats } from "node:fs";
import { relative } from "node:path";
import { adpEntries } from "./adp.js";
import { openaiChatEntries } from "./openaiChat.js";
import { WHOLE_DOCUMENT_LIMIT, type ElementSpan } from "./jsonDocument.js";
import { detectFormat, type DetectedFormat } from "./detect.js";
import { contentHead, holdWhole, plainName, type HeldFor } from "../io/compressed.js";
import { filesUnder } from "../io/filesUnder.js";
import { inputKind } from "../io/fsErrors.js";
import { UserError } from "../io/errors.js";

export interface SessionRef {
  /** What openSession takes: a file, or `file#id`. */
  readonly ref: string;
  /** The session's name in reports and labels: relative path, plus `#id`. */
  readonly id: string;
  /** In a multi-session file, where its bytes lie, so that reading it never re-reads the file. */
  readonly span?: ElementSpan;
  /** The format the listing detected from the file's content: the reader need not detect it again. */
  readonly format?: DetectedFormat;
}

/** A file that could not be read as a session, and why (its line or JSON path when known). */
export interface BadFile {
  readonly file: string;
  readonly reason: string;
}

/** Session file names, plain or gzip-compressed as datasets are published (`x.traj.json.gz`). */
const SESSION_NAME = /\.(jsonl|traj|traj\.json|json)(\.gz)?$/;

/** The first line of an error, without the file name it may start with (the report names it). */
export function reasonOf(error: unknown, file?: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const first = message.split("\n")[0] ?? message;
  return file !== undefined && first.startsWith(`${file}: `) ? first.slice(file.length + 2) : first;
}

/** One file of a listing: its sessions (none: a plain .json file that is no session, passed over), or why it cannot be read. */
export type ListedFile = { readonly file: string; readonly refs: readonly SessionRef[] } | { readonly file: string; readonly bad: BadFile };

/**
 * The files under the paths, listed one at a time in a stable order, so a reader can read each
 * file's sessions while its content is still at hand (src/io/compressed.ts keeps the last file's
 * inflated head: a small .gz file is then inflated once, not once to list it and again to read
 * it). `strict` turns the first bad file into the error; `readsWhole` says the caller reads each
 * JSON document whole right after it is listed, in this thread or another (src/io/compressed.ts holdWhole).
 */
export async function* listedFiles(paths: readonly string[], strict = false, readsWhole?: HeldFor): AsyncGenerator<ListedFile> {
  for (const path of paths) {
    if (path === "-") {
      yield { file: "-", refs: [{ ref: "-", id: "<stdin>" }] };
      continue;
    }
    const isFolder = inputKind(path) === "folder";
    const files = filesUnder([path], (_p, name) => SESSION_NAME.test(name) && !plainName(name).endsWith(".trajectory.jsonl"));
    for (const file of files) {
      const id = isFolder ? relative(path, file) : file;
      let listed: SessionRef[];
      try {
        listed = await listFile(file, id, !isFolder, readsWhole);
      } catch (error) {
        const problem = { file, reason: reasonOf(error, file) };
        if (strict) throw new UserError(`${problem.file}: ${problem.reason} (--strict stops at the first unreadable file)`);
        yield { file, bad: problem };
        continue;
      }
      yield { file, refs: listed };
    }
  }
}

/** Refs and bad files, in a stable order; `strict` turns the first bad file into the error. */
export async function sessionRefs(paths: readonly string[], strict = false): Promise<{ refs: SessionRef[]; bad: BadFile[]; ignored: string[] }> {
  const refs: SessionRef[] = [];
  const bad: BadFile[] = [];
  /** Plain .json files found in a folder whose content is no session (a labels file): not inputs. */
  const ignored: string[] = [];
  for await (const listed of listedFiles(paths, strict)) {
    if ("bad" in listed) bad.push(listed.bad);
    else {
      if (listed.refs.length === 0) ignored.push(listed.file);
      refs.push(...listed.refs);
    }
  }
  return { refs, bad, ignored };
}

/**
 * What a plain .json file that is no session is, by its shape, for the note that passes it over:
 * datasets keep their evaluation reports and labels beside the sessions (a SWE-bench report has
 * `resolved_ids`; a labels file maps names to label words, flat or by run).
 */
export function nonSessionKind(file: string): string {
  let head: string;
  try {
    head = contentHead(file, 64 * 1024).toString("utf8");
  } catch {
    return "other";
  }
  if (/"(?:resolved_ids|unresolved_ids|total_instances)"\s*:/.test(head)) return "SWE-bench evaluation report";
  if (/^\s*\{\s*"[^"]*"\s*:\s*(?:"|\{\s*"[^"]*"\s*:\s*")/.test(head) && /"(?:resolved|unresolved|success|failure|unresolved_empty_patch|eval_error|no_eval)"/.test(head)) return "labels file";
  return "other";
}

/** The note about plain .json files passed over in folders, or nothing: what each kind is, named. */
export function ignoredNote(ignored: readonly string[]): string | undefined {
  if (ignored.length === 0) return undefined;
  const byKind = new Map<string, string[]>();
  for (const file of ignored) {
    const kind = nonSessionKind(file);
    byKind.set(kind, [...(byKind.get(kind) ?? []), file]);
  }
  const kinds = [...byKind].map(([kind, files]) => `${kind === "other" ? `${files.length} of no session format` : `${files.length} ${kind}${files.length === 1 ? "" : "s"}`}: ${files.slice(0, 3).join(", ")}${files.length > 3 ? ", ..." : ""}`);
  return `${ignored.length} .json file${ignored.length === 1 ? "" : "s"} in the folders given ${ignored.length === 1 ? "is" : "are"} no session and ${ignored.length === 1 ? "was" : "were"} passed over (${kinds.join("; ")}); name a file directly to have it checked`;
}

async function listFile(file: string, id: string, named: boolean, readsWhole?: HeldFor): Promise<SessionRef[]> {
  // One stat for the file's existence, its kind and holdWhole's look (they were three calls, at
  // about 1,500 files a run: issue 35, ninth pass). Any error is "no such file", as existsSync's false was.
  let stats: Stats;
  try {
    stats = statSync(file);
  } catch {
    throw new UserError("no such file");
  }
  // A caller that reads each file whole straight after listing it: a JSON document is inflated once
  // for the listing's look at its head and the reading (JSONL sessions are streamed line by line).
  if (readsWhole !== undefined && !plainName(file).endsWith(".jsonl")) holdWhole(file, WHOLE_DOCUMENT_LIMIT, readsWhole, stats);
  // A FIFO, socket or device has no size to speak of: it is not an empty file, it is no session file (issue 36).
  if (!stats.isFile()) throw new UserError("not a regular file (a FIFO, socket or device): name a session file");
  if (stats.size === 0 || contentHead(file, 1).length === 0) throw new UserError("empty file: no session in it");
  if (looksBinary(file)) throw new UserError("binary content (NUL bytes in its first 4 KiB), not a text session");
  const format = detectFormat(file);
  const name = plainName(file);
  if (name.endsWith(".json") && !name.endsWith(".traj.json")) {
    // Plain .json files in a folder are sessions only when their content says so (a labels
    // file beside the sessions is not one); a .json file named directly must be one.
    if (format === undefined && !named) return [];
  }
  if (format === undefined && nonSessionKind(file) !== "other") throw new UserError(`a ${nonSessionKind(file)}, not a session (sessions are ${"openclaw, claude-code, codex, swe-agent, mini-swe-agent, adp, openai-chat"} files or loopsim traces)`);
  if (format === undefined) throw new UserError("not a session format loopsim reads (openclaw, claude-code, codex, swe-agent, mini-swe-agent, adp, openai-chat) nor a loopsim trace");
  const entries = format === "adp" ? await adpEntries(file) : format === "openai-chat" ? await openaiChatEntries(file) : undefined;
  if (entries === undefined) return [{ ref: file, id, format }];
  return entries.map((trajectory) => ({ ref: ownCopy(`${file}#${trajectory.id}`), id: ownCopy(`${id}#${trajectory.id}`), span: trajectory.span, format }));
}

/**
 * A string that holds only its own characters. An id the JSON parser cut out of a 64 KiB chunk
 * keeps that whole chunk alive while the ref lives: 20,000 refs held 110 MB that way.
 */
function ownCopy(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

function looksBinary(file: string): boolean {
  return contentHead(file, 4096).includes(0);
}

/** The bad files as lines for stderr and reports. */
export function badFileLines(bad: readonly BadFile[]): string[] {
  return bad.map((b) => `${b.file === "-" ? "<stdin>" : b.file}: skipped: ${b.reason}`);
}
