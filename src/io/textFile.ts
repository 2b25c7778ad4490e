// The one rule for reading text, applied to every input (traces, sessions, configs, scenarios,
// populations, labels, report parts): UTF-8, a leading byte-order mark skipped, and invalid UTF-8
// refused with the file and line, because a silently replaced byte changes the args a call hashes to.
// A gzip-compressed file is read through its decompressed content (compressed.ts).
import { isUtf8 } from "node:buffer";
import { contentWhole } from "./compressed.js";
import { UserError } from "./errors.js";
import { withFsErrors } from "./fsErrors.js";

/** A fatal decoder drops a leading BOM itself (ignoreBOM is false by default). */
export const utf8Decoder = (): TextDecoder => new TextDecoder("utf-8", { fatal: true });

/**
 * What utf8Decoder().decode(bytes) gives (a leading BOM dropped; invalid UTF-8 throws), many times
 * faster on large inputs: bytes checked valid by node:buffer's isUtf8 decode the same with
 * Buffer#toString, which skips the fatal decoder's slow path (a 10 MB dataset's sessions took
 * 0.4 s of decoding through TextDecoder).
 */
export function decodeUtf8(bytes: Uint8Array, asText?: string): string {
  if (!isUtf8(bytes)) return utf8Decoder().decode(bytes);
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  // `asText`: Buffer#toString of all of the bytes, made already (src/io/compressed.ts heldText).
  if (asText !== undefined && !bom) return asText;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8", bom ? 3 : 0);
}

/** The 1-based line of the first invalid UTF-8 sequence in bytes. */
export function invalidUtf8Line(bytes: Uint8Array, firstLine = 1): number {
  let line = firstLine;
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === 0x0a) {
      try {
        new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(start, i));
      } catch {
        return line;
      }
      line++;
      start = i + 1;
    }
  }
  return line;
}

export function readTextFile(path: string, what = "file"): string {
  const bytes = withFsErrors(path, `read the ${what}`, () => contentWhole(path));
  try {
    return decodeUtf8(bytes);
  } catch {
    throw new UserError(`${path}:${invalidUtf8Line(bytes)}: not valid UTF-8 (inputs must be UTF-8; a byte-order mark at the start is allowed)`);
  }
}
