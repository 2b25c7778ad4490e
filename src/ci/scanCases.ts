// `scan` as test cases: one per session. A session the guard blocked or aborted fails (a CI job
// scanning an agent's logs wants to see where the guard stepped in), with the first block or
// abort, its place in the file, and the command that traces the session again; warnings alone
// pass with a note; an unreadable file is an error.
import type { SessionScan } from "../scan/scanSession.js";
import type { JUnitCase } from "./junit.js";
import type { JsonPathLine } from "./jsonPathLine.js";

export function scanCase(s: SessionScan, target: string, traceArgs: string): JUnitCase {
  const classname = `scan.${target}`;
  const replay = `loopsim trace ${s.file}${traceArgs}`;
  if (s.blocks === 0 && s.aborts === 0) {
    return { name: s.id, classname, ...(s.warnings === 0 ? {} : { output: `${s.warnings} warnings, the first at ${s.firstWarning?.at ?? "?"} (${s.firstWarning?.detector ?? ""}); replay: ${replay}` }) };
  }
  const first = s.firstBlock;
  const lines = [
    `${target} ${s.blocks > 0 ? `blocked ${s.blocks} call${s.blocks === 1 ? "" : "s"}` : ""}${s.blocks > 0 && s.aborts > 0 ? " and " : ""}${s.aborts > 0 ? `aborted the run ${s.aborts} time${s.aborts === 1 ? "" : "s"}` : ""} in ${s.id} (${s.events} events).`,
    ...(first === null ? [] : [`first block: ${first.at}, event ${first.event}: ${first.tool} ${first.args} (${first.detector}, count ${first.count})`]),
    ...(s.firstAbort === null ? [] : [`first abort: ${s.firstAbort.at}, event ${s.firstAbort.event}: ${s.firstAbort.tool}`]),
    ...(s.mostRepeated === null ? [] : [`most repeated: ${s.mostRepeated.tool} ${s.mostRepeated.args}, ${s.mostRepeated.calls} calls, ${s.mostRepeated.distinctResults} distinct results`]),
    `replay: ${replay}`,
  ];
  return { name: s.id, classname, failure: { message: `the guard stepped in: ${s.blocks} blocks, ${s.aborts} aborts`, type: "loop", text: lines.join("\n") } };
}

/**
 * An unreadable file as an error case. The reader's reason often names the file and line itself
 * (`F:12: not valid JSON`): the line becomes the case's place and the path is said once.
 */
export function unreadableCase(file: string, reason: string, target: string): { case: JUnitCase; place: Place } {
  const named = new RegExp(`^(?:(.*?): )?${escapeRegExp(file)}:(\\d+)(?::\\d+)?: (.*)$`, "s").exec(reason);
  const line = named === null ? undefined : Number(named[2]);
  const rest = named === null ? reason.split(`${file}: `).join("") : `${named[1] === undefined ? "" : `${named[1]}: `}${named[3] ?? ""}`;
  const text = line === undefined ? `${file}: ${rest}` : `${file}:${line}: ${rest}`;
  return { case: { name: file, classname: `scan.${target}`, error: { message: "unreadable session", type: "unreadable", text } }, place: { file, ...(line === undefined ? {} : { line }) } };
}

/** Where an annotation marks: a file, its line when known, and a JSON path (said in the message) for documents. */
export interface Place {
  readonly file?: string;
  readonly line?: number;
  /** In a JSON document (`x.traj.json#messages[10]`): the path, said in the message beside the line it starts on. */
  readonly path?: string;
  /** Why a JSON path has no line (a compressed file), said in the message. */
  readonly noLine?: string;
}

/** A JSON document's place with the line its path starts on (`lines`: jsonPathLines()), or the reason there is none. */
export function withJsonLine(place: Place, lines: (file: string, path: string) => JsonPathLine): Place {
  if (place.path === undefined || place.file === undefined || place.line !== undefined) return place;
  const found = lines(place.file, place.path);
  return "line" in found ? { ...place, line: found.line } : { ...place, noLine: found.noLine };
}

/** The place of an importer's `at`: `file:line`, `file:line:column`, or `file#json.path` for a JSON document. */
export function placeOf(at: string | undefined): Place {
  if (at === undefined) return {};
  const m = /^(.*):(\d+)(?::\d+)?$/s.exec(at);
  if (m !== null) return { file: m[1] as string, line: Number(m[2]) };
  const doc = /^(.*?\.(?:json|traj|jsonl)(?:\.gz)?)#(.*)$/s.exec(at);
  if (doc !== null) return { file: doc[1] as string, path: doc[2] as string };
  return { file: at };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Cases named uniquely. Two folders given can hold the same relative names (a/x.jsonl and
 * b/x.jsonl are both "x.jsonl"): JUnit would show one case twice, so those are named by their
 * paths as given instead (a run's `#id` kept).
 */
export function distinctNames<T extends { readonly case: JUnitCase; readonly file: string }>(cases: readonly T[]): T[] {
  const count = new Map<string, number>();
  for (const c of cases) count.set(c.case.name, (count.get(c.case.name) ?? 0) + 1);
  return cases.map((c) => {
    if ((count.get(c.case.name) ?? 0) < 2) return c;
    const hash = c.case.name.indexOf("#");
    const name = c.file.includes("#") || hash === -1 ? c.file : c.file + c.case.name.slice(hash);
    return { ...c, case: { ...c.case, name } };
  });
}
