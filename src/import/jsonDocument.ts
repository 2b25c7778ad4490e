// Streaming one array out of a single-JSON-document session (mini-swe-agent, SWE-agent), element
// by element, so a file far larger than memory goes through. A document that is not valid JSON is
// a user error naming the file.
import { createReadStream, statSync } from "node:fs";
import chain from "stream-chain";
import { parser } from "stream-json";
import { pick } from "stream-json/filters/pick.js";
import { streamArray } from "stream-json/streamers/stream-array.js";
import { streamValues } from "stream-json/streamers/stream-values.js";
import { UserError } from "../io/errors.js";

export async function* arrayElements(file: string, key: string): AsyncGenerator<{ index: number; value: unknown }> {
  const input = counted(file);
  const pipeline = chain([input.stream, parser(), pick({ filter: key }), streamArray()]);
  try {
    for await (const item of pipeline as AsyncIterable<{ key: number; value: unknown }>) yield { index: item.key, value: item.value };
  } catch (error) {
    throw notJson(file, error, input.bytes());
  }
}

/** A read stream that counts the bytes it delivered, to say where a document went wrong. */
function counted(file: string): { stream: ReturnType<typeof createReadStream>; bytes: () => number } {
  const stream = createReadStream(file);
  let bytes = 0;
  stream.on("data", (chunk) => {
    bytes += chunk.length;
  });
  return { stream, bytes: () => bytes };
}

/** A parse failure with its place: cut short at the end, or bad within the first N bytes read. */
function notJson(file: string, error: unknown, read: number): UserError {
  const why = (error as Error).message.split("\n")[0];
  let size = -1;
  try {
    size = statSync(file).size;
  } catch {
    // gone meanwhile: no size to compare
  }
  const where = read >= size && size >= 0 ? `cut short: the document ends at byte ${size} before it is closed` : `within bytes ${Math.max(0, read - 65536)}-${read}`;
  return new UserError(`${file}: not valid JSON (${where}; ${why})`);
}

/** A small top-level member (info, instance_id), read in its own pass. */
export async function topValue(file: string, key: string): Promise<unknown> {
  const pipeline = chain([createReadStream(file), parser(), pick({ filter: key }), streamValues()]);
  try {
    for await (const item of pipeline as AsyncIterable<{ value: unknown }>) return item.value;
  } catch (error) {
    throw new UserError(`${file}: not valid JSON (${(error as Error).message.split("\n")[0]})`);
  }
  return undefined;
}

/** The elements of a document that is one top-level array (Agent Data Protocol files). */
export async function* topArrayElements(file: string): AsyncGenerator<{ index: number; value: unknown }> {
  const input = counted(file);
  const pipeline = chain([input.stream, parser(), streamArray()]);
  try {
    for await (const item of pipeline as AsyncIterable<{ key: number; value: unknown }>) yield { index: item.key, value: item.value };
  } catch (error) {
    throw notJson(file, error, input.bytes());
  }
}
