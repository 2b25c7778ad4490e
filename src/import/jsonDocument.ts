// Streaming one array out of a single-JSON-document session (mini-swe-agent, SWE-agent), element
// by element, so a file far larger than memory goes through. A document that is not valid JSON is
// a user error naming the file. A gzip-compressed document streams through its decompressed
// content (src/io/compressed.ts); byte places are places in that content.
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { Readable } from "node:stream";
import { contentChunks, contentRange, contentStream, contentWhole, heldText } from "../io/compressed.js";
import { decodeUtf8 } from "../io/textFile.js";
import { UserError } from "../io/errors.js";

/**
 * stream-json and stream-chain, loaded the first time a document is streamed: a document up to
 * WHOLE_DOCUMENT_LIMIT is parsed whole (every session of the public datasets is), and their
 * thirty-odd modules were about a tenth of `loops`' start-up, in every worker thread too.
 */
async function streaming() {
  const [{ default: chain }, { parser }, { pick }, { streamArray }, { streamValues }] = await Promise.all([import("stream-chain"), import("stream-json"), import("stream-json/filters/pick.js"), import("stream-json/streamers/stream-array.js"), import("stream-json/streamers/stream-values.js")]);
  return { chain, parser, pick, streamArray, streamValues };
}

export async function* arrayElements(file: string, key: string): AsyncGenerator<{ index: number; value: unknown }> {
  const whole = wholeArrayElements(file, key);
  if (whole !== undefined) yield* whole;
  else yield* streamedElements(file, key);
}

/**
 * What arrayElements yields, as a plain (sync) iterable, when the document is parsed whole;
 * undefined when it must be streamed (too large, not valid JSON, or the member is there but no
 * array: the stream then says what is wrong, with its place). An importer that reads a whole
 * document goes through it without an async step per element (src/import/types.ts wholeEvents).
 */
export function wholeArrayElements(file: string, key: string): Iterable<{ index: number; value: unknown }> | undefined {
  const whole = wholeDocument(file);
  if (whole === undefined) return undefined;
  const doc = whole.doc;
  if (doc === null || typeof doc !== "object" || Array.isArray(doc) || !(key in doc)) return []; // as the stream's pick finds nothing
  const array = (doc as Record<string, unknown>)[key];
  return Array.isArray(array) ? elementsOf(doc, array) : undefined;
}

function* elementsOf(doc: object, array: readonly unknown[]): Generator<{ index: number; value: unknown }> {
  for (let index = 0; index < array.length; index++) yield { index, value: array[index] };
  // The array is read last (every importer reads a member such as info first): the document
  // is let go now, not kept until the next file's, while the session it held is mined.
  if (lastWhole?.doc === doc) lastWhole = undefined;
}

/** arrayElements through stream-json, element by element, in bounded memory whatever the file's size. */
export async function* streamedElements(file: string, key: string): AsyncGenerator<{ index: number; value: unknown }> {
  const { chain, parser, pick, streamArray } = await streaming();
  const input = counted(file);
  const pipeline = chain([input.stream, parser(), pick({ filter: key }), streamArray()]);
  try {
    for await (const item of pipeline as AsyncIterable<{ key: number; value: unknown }>) yield { index: item.key, value: item.value };
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw notJson(file, error, input.bytes(), input.ended());
  }
}

/** The content as a stream that counts the bytes it delivered, to say where a document went wrong. */
function counted(file: string): { stream: Readable; bytes: () => number; ended: () => boolean } {
  let bytes = 0;
  let ended = false;
  async function* chunks(): AsyncGenerator<Buffer> {
    for await (const chunk of contentChunks(file)) {
      bytes += chunk.length;
      yield chunk;
    }
    ended = true;
  }
  return { stream: Readable.from(chunks(), { objectMode: false }), bytes: () => bytes, ended: () => ended };
}

/** A parse failure with its place: cut short at the end, or bad within the first N bytes read. */
function notJson(file: string, error: unknown, read: number, ended: boolean): UserError {
  const why = (error as Error).message.split("\n")[0];
  const where = ended ? `cut short: the document ends at byte ${read} before it is closed` : `within bytes ${Math.max(0, read - 65536)}-${read}`;
  return new UserError(`${file}: not valid JSON (${where}; ${why})`);
}

/**
 * Documents up to this size (decompressed) are parsed whole with JSON.parse, many times faster
 * than stream-json's parser (a dataset of 1,761 sessions: reading went from about 12 s of CPU to
 * about a third of it); larger ones stream in bounded memory.
 */
export const WHOLE_DOCUMENT_LIMIT = 64 * 1024 * 1024;

let lastWhole: { file: string; mtimeMs: number; size: number; doc: unknown } | undefined;

/**
 * The whole document, parsed, when it is small enough and well formed; undefined otherwise, and the
 * streaming path then reads it (and reports what is wrong, with its place). Invalid UTF-8 also
 * falls to the streaming path. The last document is kept for the next read of the same file (an
 * importer reads `info` and then `messages`).
 */
function wholeDocument(file: string): { doc: unknown } | undefined {
  let stats: { mtimeMs: number; size: number; isFile: () => boolean };
  try {
    stats = statSync(file);
  } catch {
    return undefined; // the streaming path names the file-system error
  }
  if (!stats.isFile()) return undefined; // a pipe is read once, as a stream
  if (lastWhole !== undefined && lastWhole.file === file && lastWhole.mtimeMs === stats.mtimeMs && lastWhole.size === stats.size) return { doc: lastWhole.doc };
  if (stats.size > WHOLE_DOCUMENT_LIMIT) return undefined;
  let doc: unknown;
  try {
    const bytes = contentWhole(file, WHOLE_DOCUMENT_LIMIT);
    doc = JSON.parse(decodeUtf8(bytes, heldText(bytes)));
  } catch {
    return undefined;
  }
  lastWhole = { file, mtimeMs: stats.mtimeMs, size: stats.size, doc };
  return { doc };
}

/** What topValue gives, when the document is parsed whole (a box, so that an absent member is told from a document that must be streamed); undefined otherwise. */
export function wholeTopValue(file: string, key: string): { readonly value: unknown } | undefined {
  const whole = wholeDocument(file);
  if (whole === undefined) return undefined;
  const doc = whole.doc;
  return { value: doc !== null && typeof doc === "object" && !Array.isArray(doc) ? (doc as Record<string, unknown>)[key] : undefined };
}

/** A small top-level member (info, instance_id), read in its own pass. */
export async function topValue(file: string, key: string): Promise<unknown> {
  const whole = wholeTopValue(file, key);
  if (whole !== undefined) return whole.value;
  const { chain, parser, pick, streamValues } = await streaming();
  const pipeline = chain([contentStream(file), parser(), pick({ filter: key }), streamValues()]);
  try {
    for await (const item of pipeline as AsyncIterable<{ value: unknown }>) return item.value;
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new UserError(`${file}: not valid JSON (${(error as Error).message.split("\n")[0]})`);
  }
  return undefined;
}

/** Where one element of a top-level array lies in its file: bytes [start, end), and its position. */
export interface ElementSpan {
  readonly index: number;
  readonly start: number;
  readonly end: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
const isOpen = (b: number) => b === 0x7b || b === 0x5b;
const isClose = (b: number) => b === 0x7d || b === 0x5d;

/**
 * The elements of a top-level array, each with its bytes, found in one pass that only tracks
 * strings and nesting (each element is then parsed on its own, with JSON.parse). This is what lets
 * a file of many sessions be listed once and each session read straight from its bytes later:
 * stream-json knows no byte offsets. Memory holds one element at a time.
 */
export async function* topArraySpans(file: string): AsyncGenerator<{ span: ElementSpan; text: string }> {
  let depth = 0; // 0 outside the array, 1 between its elements, 2+ inside one
  let inString = false;
  let escaped = false;
  let closed = false;
  let expectValue = true; // after `[` or a comma
  let primitive = false; // a number, true, false or null at the top level
  let start = -1;
  let index = 0;
  let pieces: Buffer[] = [];
  let offset = 0;
  const problem = (at: number, what: string) => new UserError(`${file}: not valid JSON (at byte ${at}: ${what})`);
  for await (const chunk of contentChunks(file)) {
    let from = 0; // where the current element's bytes begin in this chunk
    const ended: { span: ElementSpan; text: string }[] = [];
    const finish = (endInChunk: number) => {
      pieces.push(chunk.subarray(from, endInChunk));
      const bytes = pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces);
      ended.push({ span: { index: index++, start, end: offset + endInChunk }, text: bytes.toString("utf8") });
      pieces = [];
      start = -1;
      primitive = false;
      expectValue = false;
    };
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i] as number;
      if (inString) {
        if (escaped) escaped = false;
        else if (b === BACKSLASH) escaped = true;
        else if (b === QUOTE) {
          inString = false;
          if (depth === 1) finish(i + 1);
        }
        continue;
      }
      if (primitive) {
        if (!(isSpace(b) || b === COMMA || b === 0x5d)) continue;
        finish(i);
      }
      if (isSpace(b)) continue;
      if (depth === 0) {
        if (closed) throw problem(offset + i, "more after the top-level array");
        if (b !== 0x5b) throw problem(offset + i, "an ADP file is one JSON array of trajectories");
        depth = 1;
        continue;
      }
      if (depth === 1) {
        if (b === COMMA) {
          if (expectValue) throw problem(offset + i, "a comma where a value belongs");
          expectValue = true;
          continue;
        }
        if (b === 0x5d) {
          if (expectValue && index > 0) throw problem(offset + i, "a comma before the closing bracket");
          depth = 0;
          closed = true;
          continue;
        }
        if (!expectValue) throw problem(offset + i, "a comma is missing between two elements");
        start = offset + i;
        from = i;
        if (isOpen(b)) depth = 2;
        else if (b === QUOTE) inString = true;
        else primitive = true;
        continue;
      }
      if (b === QUOTE) inString = true;
      else if (isOpen(b)) depth++;
      else if (isClose(b)) {
        depth--;
        if (depth === 1) finish(i + 1);
      }
    }
    if (start >= 0) pieces.push(chunk.subarray(from));
    offset += chunk.length;
    yield* ended;
  }
  if (!closed) throw new UserError(`${file}: not valid JSON (cut short: the document ends at byte ${offset} before it is closed)`);
}

/** One element's value, parsed from its bytes; a bad one names its file, position and bytes. */
export function parseElement(file: string, span: ElementSpan, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UserError(`${file}: not valid JSON (element [${span.index}], bytes ${span.start}-${span.end}: ${(error as Error).message.split("\n")[0]})`);
  }
}

/** The bytes of one element, read straight from its place in the file. */
export function readSpan(file: string, span: ElementSpan): string {
  const inflated = contentRange(file, span.start, span.end);
  if (inflated !== undefined) {
    if (inflated.length !== span.end - span.start) throw new UserError(`${file}: changed while it was read (element [${span.index}] at bytes ${span.start}-${span.end} is past its end)`);
    return inflated.toString("utf8");
  }
  const fd = openSync(file, "r");
  try {
    const buffer = Buffer.alloc(span.end - span.start);
    let got = 0;
    while (got < buffer.length) {
      const n = readSync(fd, buffer, got, buffer.length - got, span.start + got);
      if (n === 0) throw new UserError(`${file}: changed while it was read (element [${span.index}] at bytes ${span.start}-${span.end} is past its end)`);
      got += n;
    }
    return buffer.toString("utf8");
  } finally {
    closeSync(fd);
  }
}
