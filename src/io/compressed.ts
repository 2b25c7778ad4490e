// Reading an input that may be gzip-compressed, as published datasets are (`x.traj.json.gz`,
// `x.jsonl.gz`): the one place files are opened for their content, so every command that takes a
// session path reads `.gz` transparently. A file is gzip when its content starts with the gzip
// magic bytes (1f 8b) or its name ends in `.gz` (then it must be gzip: a `.gz` file that is not
// is refused, not read as text). Compressed content is streamed through node:zlib, never unpacked
// to disk; a corrupt or cut-short gzip is a user error that names the file.
import { closeSync, createReadStream, openSync, readFileSync, readSync, statSync } from "node:fs";
import { isAscii } from "node:buffer";
import { Readable } from "node:stream";
import { constants, createGunzip, gunzipSync } from "node:zlib";
import { UserError } from "./errors.js";
import { withFsErrors } from "./fsErrors.js";

const GZIP_MAGIC_0 = 0x1f;
const GZIP_MAGIC_1 = 0x8b;

/** A file's name without a trailing `.gz`: what the content is (`x.traj.json.gz` -> `x.traj.json`). */
export function plainName(path: string): string {
  return path.endsWith(".gz") ? path.slice(0, -3) : path;
}

function startsWithGzipMagic(path: string): boolean {
  const fd = openSync(path, "r");
  try {
    const magic = Buffer.alloc(2);
    const n = readSync(fd, magic, 0, 2, 0);
    return n === 2 && magic[0] === GZIP_MAGIC_0 && magic[1] === GZIP_MAGIC_1;
  } finally {
    closeSync(fd);
  }
}

/** Whether the file's content is to be gunzipped. */
export function isGzip(path: string): boolean {
  if (path.endsWith(".gz")) return true;
  return withFsErrors(path, "read it", () => startsWithGzipMagic(path));
}

/** The user error for a gzip stream node:zlib could not inflate. */
export function gzipError(path: string, error: unknown): UserError {
  const why = error instanceof Error ? error.message : String(error);
  return new UserError(`${path}: not a valid gzip file (${why}); a .gz input must be whole gzip-compressed data`);
}

/** The most bytes deflate can make of one byte (its ratio is at most about 1032:1): a bound on what a trailer may truthfully claim. */
const DEFLATE_MAX_RATIO = 1032;
/** The largest single output buffer inflateWhole asks for; a larger content comes in more of them. */
const MAX_OUTPUT_CHUNK = 256 * 1024 * 1024;

/**
 * gunzipSync(compressed, options), with its output in one buffer of the size the gzip trailer
 * records (ISIZE, the content's length mod 2^32) instead of 16 KiB chunks joined at the end: about
 * a quarter less CPU over the datasets' files (each chunk is a call into zlib, an allocation, and a
 * copy into the joined buffer). The size is only a hint for the buffer: inflating gives the same
 * bytes whatever it is, and a trailer that lies (a corrupt file, a member of several) costs only
 * more chunks, or a buffer no larger than the compressed bytes could inflate to. A failure is
 * left to gunzipSync itself, so that the error is the one it gives (test/loopsFastPaths.test.ts
 * holds inflateWhole to gunzipSync).
 */
export function inflateWhole(compressed: Buffer, options: { readonly maxOutputLength?: number; readonly finishFlush?: number } = {}): Buffer {
  const claimed = compressed.length >= 18 ? compressed.readUInt32LE(compressed.length - 4) : 0;
  // One byte more than the content: a buffer it fills exactly would be followed by a second one to learn that nothing is left.
  const chunkSize = Math.max(constants.Z_MIN_CHUNK, Math.min(claimed + 1, compressed.length * DEFLATE_MAX_RATIO, options.maxOutputLength ?? MAX_OUTPUT_CHUNK, MAX_OUTPUT_CHUNK));
  try {
    return gunzipSync(compressed, { ...options, chunkSize });
  } catch {
    // Which error comes first may depend on the chunks (too large, or corrupt): the plain call says which, as it always did.
    return gunzipSync(compressed, options);
  }
}

const isZlibError = (error: unknown): boolean => error instanceof Error && typeof (error as NodeJS.ErrnoException).code === "string" && /^Z_|^ERR_(?:ZLIB|BUFFER_TOO_LARGE)/.test((error as NodeJS.ErrnoException).code as string);

/**
 * The file's content, decompressed when it is gzip, chunk by chunk. File-system errors come
 * through as they are (callers name them with fsErrors.ts); an inflate error is a user error.
 */
export async function* contentChunks(path: string): AsyncGenerator<Buffer> {
  if (!isGzip(path)) {
    yield* createReadStream(path) as AsyncIterable<Buffer>;
    return;
  }
  const source = createReadStream(path);
  const gunzip = createGunzip();
  source.on("error", (error) => gunzip.destroy(error));
  source.pipe(gunzip);
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) yield chunk;
  } catch (error) {
    if (isZlibError(error)) throw gzipError(path, error);
    throw error;
  } finally {
    source.destroy();
  }
}

/** contentChunks as a byte stream, for stream parsers (stream-json). */
export function contentStream(path: string): Readable {
  return Readable.from(contentChunks(path), { objectMode: false });
}

/**
 * Up to `max` bytes from the start of the content (decompressed when gzip), read synchronously:
 * format detection looks at a file's head. Only as much of a compressed file is inflated as the
 * head needs: a growing prefix is inflated with a sync flush, which yields what a partial stream
 * holds without calling it cut short.
 */
let headCache: { path: string; mtimeMs: number; size: number; inflated: Buffer; whole: boolean; complete: boolean; text?: { max: number; value: string }; wholeText?: string; held?: HeldFor } | undefined;

/** Who reads a file held whole: this thread, which then takes its text from the head's (contentHeadText), or another thread, which decodes it there (takeHeld). */
export type HeldFor = "this thread" | "another thread";

export function contentHead(path: string, max: number): Buffer {
  return withFsErrors(path, "read it", () => {
    // Listing a file asks for its head three times (empty? binary? which format?): a compressed
    // head is inflated once for all three.
    const stats = statSync(path);
    const cached = headCache;
    if (cached !== undefined && cached.path === path && cached.mtimeMs === stats.mtimeMs && cached.size === stats.size && (cached.whole || cached.inflated.length >= max)) return cached.inflated.subarray(0, max);
    const fd = openSync(path, "r");
    try {
      if (!isGzip(path)) {
        const buffer = Buffer.alloc(max);
        const n = readSync(fd, buffer, 0, max, 0);
        return buffer.subarray(0, n);
      }
      const size = stats.size;
      let want = Math.min(size, 64 * 1024);
      for (;;) {
        const compressed = Buffer.alloc(want);
        const n = readSync(fd, compressed, 0, want, 0);
        let inflated: Buffer | undefined;
        // The whole file: inflated as contentWhole inflates it, so that the read which follows the
        // listing takes it from here (a small .gz file is then inflated once). One that is cut
        // short or corrupt still gives its head, as a partial stream does.
        let complete = false;
        if (want >= size) {
          try {
            inflated = inflateWhole(compressed.subarray(0, n));
            complete = true;
          } catch {
            inflated = undefined;
          }
        }
        try {
          inflated ??= gunzipSync(compressed.subarray(0, n), { finishFlush: constants.Z_SYNC_FLUSH });
        } catch (error) {
          throw gzipError(path, error);
        }
        if (inflated.length >= max || want >= size) {
          headCache = { path, mtimeMs: stats.mtimeMs, size, inflated, whole: want >= size, complete };
          return inflated.subarray(0, max);
        }
        want = Math.min(size, want * 4);
      }
    } finally {
      closeSync(fd);
    }
  });
}

/**
 * Inflates a whole .gz file at once and keeps it as the last file's head, whole and checked, when
 * it inflates within `max` bytes: for a reader that looks at a file's head and then reads all of
 * it (loops lists each file and reads it straight after), the file is inflated once, where
 * inflating a head first inflated the first 64 KiB of a large file twice. A file that is not
 * whole gzip, or too large, is left to the ordinary reads, which say what is wrong with it.
 */
export function holdWhole(path: string, max: number, reader: HeldFor = "this thread", given?: { readonly mtimeMs: number; readonly size: number; isFile(): boolean }): void {
  if (!path.endsWith(".gz")) return;
  try {
    // The caller's stat of the file, taken right before, when it has one (the listing does): one system call fewer a file.
    const stats = given ?? statSync(path);
    if (!stats.isFile() || stats.size > max) return;
    const cached = headCache;
    if (cached !== undefined && cached.complete && cached.path === path && cached.mtimeMs === stats.mtimeMs && cached.size === stats.size) return;
    const compressed = readFileSync(path);
    if (compressed.length !== stats.size) return; // changed while it was read: the ordinary reads see it
    headCache = { path, mtimeMs: stats.mtimeMs, size: stats.size, inflated: inflateWhole(compressed, { maxOutputLength: max }), whole: true, complete: true, held: reader };
  } catch {
    // cut short, corrupt, too large once inflated, unreadable: nothing held
  }
}

/** The whole inflated content holdWhole keeps for `path`, with the file's stats, handed over and no longer kept here; undefined when none is held. */
export function takeHeld(path: string): { readonly mtimeMs: number; readonly size: number; readonly inflated: Buffer } | undefined {
  const cached = headCache;
  if (cached === undefined || cached.held === undefined || !cached.complete || cached.path !== path) return undefined;
  headCache = undefined;
  // The bytes may be moved to the other thread (left empty here): no range of them is kept either.
  if (inflatedCache?.content.buffer === cached.inflated.buffer) inflatedCache = undefined;
  return { mtimeMs: cached.mtimeMs, size: cached.size, inflated: cached.inflated };
}

/**
 * Keeps content another thread inflated (takeHeld there) as holdWhole would have kept it here: a
 * worker that reads the file next takes it from here when the file's stats still match, and
 * inflates nothing (loops --workers: the listing thread inflates each file once for all).
 */
export function holdInflated(path: string, mtimeMs: number, size: number, inflated: Buffer): void {
  headCache = { path, mtimeMs, size, inflated, whole: true, complete: true, held: "this thread" };
}

/**
 * contentHead(path, max) as UTF-8 text (what format detection reads). The text of a compressed
 * head is kept with it: when the head was the whole file, the reader of the whole document takes
 * the text from here (heldText) instead of decoding the same bytes again.
 */
export function contentHeadText(path: string, max: number): string {
  const bytes = contentHead(path, max);
  const cached = headCache;
  const ofCached = cached !== undefined && cached.path === path && bytes.buffer === cached.inflated.buffer && bytes.byteOffset === cached.inflated.byteOffset;
  if (ofCached && cached.text !== undefined && cached.text.max === max) return cached.text.value;
  let value: string;
  if (ofCached && cached.held === "this thread" && bytes.length < cached.inflated.length && isAscii(bytes)) {
    // A whole file held for its reader (holdWhole): its text is made once, and an ASCII head,
    // one character a byte, is the start of it.
    cached.wholeText ??= cached.inflated.toString("utf8");
    value = cached.wholeText.slice(0, bytes.length);
  } else value = bytes.toString("utf8");
  if (ofCached) {
    cached.text = { max, value };
    // A head that is the whole content is its whole text too (for the next, shorter head and the reader).
    if (bytes.length === cached.inflated.length) cached.wholeText ??= value;
  }
  return value;
}

/**
 * Buffer#toString of all of `bytes`, when they are the held content of the last file and its text
 * was made already; else undefined. The reader takes the text: it is no longer kept here (a
 * document's text held while its sessions are mined only grows the heap).
 */
export function heldText(bytes: Buffer): string | undefined {
  const cached = headCache;
  if (cached === undefined || bytes !== cached.inflated) return undefined;
  const text = cached.wholeText ?? (cached.text !== undefined && cached.text.max >= bytes.length ? cached.text.value : undefined);
  cached.wholeText = undefined;
  cached.text = undefined;
  return text;
}

/**
 * The whole content, decompressed when gzip (for small documents: labels, configs, a session
 * parsed whole). With `max`, content that inflates past it is an error (a RangeError, not a user
 * error: the caller falls back to streaming), so a small file cannot inflate without bound.
 */
export function contentWhole(path: string, max?: number): Buffer {
  const cached = headCache;
  if (cached !== undefined && cached.complete && cached.path === path && (max === undefined || cached.inflated.length <= max)) {
    // The head of this file was the whole of it, inflated and checked in full: no second inflation.
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats !== undefined && stats.mtimeMs === cached.mtimeMs && stats.size === cached.size) return cached.inflated;
  }
  const bytes = readFileSync(path);
  if (!(path.endsWith(".gz") || (bytes.length >= 2 && bytes[0] === GZIP_MAGIC_0 && bytes[1] === GZIP_MAGIC_1))) return bytes;
  try {
    return max === undefined ? inflateWhole(bytes) : inflateWhole(bytes, { maxOutputLength: max });
  } catch (error) {
    if (max !== undefined && error instanceof RangeError) throw error;
    throw gzipError(path, error);
  }
}

/**
 * A byte range of the content. A plain file is read at its place; a gzip file cannot be sought
 * in, so its content is inflated once and kept for the next range of the same file (a file of
 * many sessions is read session by session, in order).
 */
let inflatedCache: { path: string; mtimeMs: number; size: number; content: Buffer } | undefined;

export function contentRange(path: string, start: number, end: number): Buffer | undefined {
  if (!isGzip(path)) return undefined;
  const stats = statSync(path);
  if (inflatedCache === undefined || inflatedCache.path !== path || inflatedCache.mtimeMs !== stats.mtimeMs || inflatedCache.size !== stats.size) {
    inflatedCache = { path, mtimeMs: stats.mtimeMs, size: stats.size, content: contentWhole(path) };
  }
  return end <= inflatedCache.content.length ? inflatedCache.content.subarray(start, end) : Buffer.alloc(0);
}
