// The line of a JSON path (`messages[10]`, `[3].traj[5]`) in a JSON document on disk, so that a
// GitHub annotation for a session in a JSON-document format marks a line (`file=F,line=N`): the
// runner places a mark by file and line only, never by a path inside the file. The document is
// parsed with jsonc-parser's position-tracking tree (each node keeps its offset), not searched
// as text: a key's name can stand in a string anywhere. A compressed file has no line a reader
// can open at, so it gets none, and the annotation says why.
import { closeSync, fstatSync, openSync, readFileSync } from "node:fs";
import { findNodeAtLocation, parseTree, type Segment } from "jsonc-parser";

/** Where a JSON path stands in its file: its line, or why there is none. */
export type JsonPathLine = { readonly line: number } | { readonly noLine: string };

/** The segments of a path as the importers write it: names joined by ".", indexes in brackets. */
export function jsonPathSegments(path: string): Segment[] | undefined {
  const segments: Segment[] = [];
  const step = /(?:^|\.)([A-Za-z_$][\w$-]*)|\[(\d+)\]/y;
  let at = 0;
  while (at < path.length) {
    step.lastIndex = at;
    const m = step.exec(path);
    if (m === null) return undefined;
    segments.push(m[1] !== undefined ? m[1] : Number(m[2]));
    at = step.lastIndex;
  }
  return segments;
}

/** 1-based line of a character offset in a text. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

type Parsed = { readonly text: string; readonly root: ReturnType<typeof parseTree> } | { readonly noLine: string };

/**
 * A reader of JSON paths' lines. It keeps the last document parsed (the sessions of one file
 * come one after another), so a file of many runs is read once, and memory holds one document.
 */
export function jsonPathLines(): (file: string, path: string) => JsonPathLine {
  let last: { file: string; parsed: Parsed } | undefined;
  return (file, path) => {
    if (/\.gz$/i.test(file)) return { noLine: "a compressed file: GitHub can mark no line in it" };
    const segments = jsonPathSegments(path);
    if (segments === undefined) return { noLine: "not a path loopsim can place on a line" };
    if (last?.file !== file) last = { file, parsed: parsedDocument(file) };
    const parsed = last.parsed;
    if ("noLine" in parsed) return parsed;
    const node = parsed.root === undefined ? undefined : findNodeAtLocation(parsed.root, segments);
    if (node === undefined) return { noLine: "the path is not in the file as it is now" };
    return { line: lineAt(parsed.text, node.offset) };
  };
}

/** The line a JSON path starts on in `file` (one look-up; see jsonPathLines). */
export function jsonPathLine(file: string, path: string): JsonPathLine {
  return jsonPathLines()(file, path);
}

function parsedDocument(file: string): Parsed {
  let text: string;
  try {
    const fd = openSync(file, "r");
    try {
      // A FIFO or a device would block or never end: only a regular file is read again.
      if (!fstatSync(fd).isFile()) return { noLine: "not a regular file" };
      text = readFileSync(fd, "utf8");
    } finally {
      closeSync(fd);
    }
  } catch {
    return { noLine: "the file cannot be read again" };
  }
  return { text, root: parseTree(text, [], { allowTrailingComma: false, disallowComments: true }) };
}
