// `scan` as test cases: one per session. A session the guard blocked or aborted fails (a CI job
// scanning an agent's logs wants to see where the guard stepped in), with the first block or
// abort, its place in the file, and the command that traces the session again; warnings alone
// pass with a note; an unreadable file is an error.
import type { SessionScan } from "../scan/scanSession.js";
import type { JUnitCase } from "./junit.js";

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

export function unreadableCase(file: string, reason: string, target: string): JUnitCase {
  return { name: file, classname: `scan.${target}`, error: { message: "unreadable session", type: "unreadable", text: `${file}: ${reason}` } };
}

/** `file:line` of a place (as importers write `at`), for an annotation. */
export function placeOf(at: string | undefined): { file?: string; line?: number } {
  if (at === undefined) return {};
  const m = /^(.*):(\d+)(?::\d+)?$/.exec(at);
  return m === null ? { file: at } : { file: m[1] as string, line: Number(m[2]) };
}
