// Line-by-line reading of a file or stdin ("-"), so a trace of any length streams through in
// bounded memory. The text rule of textFile.ts holds here too (UTF-8, a leading BOM skipped,
// invalid bytes refused with their line), and a line may not exceed MAX_LINE_CHARS: one runaway
// line would otherwise exhaust memory (a 600 MB line used to end in "Invalid string length").
// A gzip-compressed file (`x.jsonl.gz`) streams through its decompressed content (compressed.ts).
import { contentChunks } from "./compressed.js";
import { UserError } from "./errors.js";
import { fsUserError, inputKind, isFsError } from "./fsErrors.js";
import { invalidUtf8Line, utf8Decoder } from "./textFile.js";

/** 64 Mi characters: far above any real event, far below V8's string limit. */
export const MAX_LINE_CHARS = 64 * 1024 * 1024;

export async function* readLines(path: string): AsyncGenerator<string> {
  if (path !== "-") {
    if (inputKind(path) === "folder") throw new UserError(`${path}: is a directory, expected a .jsonl file`);
  }
  const input = path === "-" ? process.stdin : contentChunks(path);
  const decoder = utf8Decoder();
  // The unfinished line is kept as pieces and searched only in the newest text, so a long line
  // costs one pass, not one pass per chunk.
  let pieces: string[] = [];
  let pendingLength = 0;
  let line = 1;
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      let text: string;
      try {
        text = decoder.decode(chunk, { stream: true });
      } catch {
        throw new UserError(`${path}:${invalidUtf8Line(chunk, line)}: not valid UTF-8 (inputs must be UTF-8; a byte-order mark at the start is allowed)`);
      }
      let start = 0;
      let cut = text.indexOf("\n");
      while (cut >= 0) {
        const head = text.slice(start, cut);
        if (pendingLength + head.length > MAX_LINE_CHARS) throw tooLong(path, line);
        const whole = pieces.length === 0 ? head : pieces.join("") + head;
        pieces = [];
        pendingLength = 0;
        yield stripCr(whole);
        line++;
        start = cut + 1;
        cut = text.indexOf("\n", start);
      }
      if (start < text.length) {
        pieces.push(text.slice(start));
        pendingLength += text.length - start;
      }
      if (pendingLength > MAX_LINE_CHARS) throw tooLong(path, line);
    }
    const rest = decoder.decode();
    if (rest !== "") pieces.push(rest);
  } catch (error) {
    if (isFsError(error)) throw fsUserError(error, path, "read");
    throw error;
  }
  if (pieces.length > 0) yield stripCr(pieces.join(""));
}

const tooLong = (path: string, line: number): UserError => new UserError(`${path}:${line}: line longer than ${MAX_LINE_CHARS} characters (the limit of one event; is this a JSONL file?)`);

const stripCr = (line: string): string => (line.endsWith("\r") ? line.slice(0, -1) : line);
