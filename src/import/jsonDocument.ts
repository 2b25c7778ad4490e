// Streaming one array out of a single-JSON-document session (mini-swe-agent, SWE-agent), element
// by element, so a file far larger than memory goes through. A document that is not valid JSON is
// a user error naming the file.
import { createReadStream } from "node:fs";
import chain from "stream-chain";
import { parser } from "stream-json";
import { pick } from "stream-json/filters/pick.js";
import { streamArray } from "stream-json/streamers/stream-array.js";
import { streamValues } from "stream-json/streamers/stream-values.js";
import { UserError } from "../cli/errors.js";

export async function* arrayElements(file: string, key: string): AsyncGenerator<{ index: number; value: unknown }> {
  const pipeline = chain([createReadStream(file), parser(), pick({ filter: key }), streamArray()]);
  try {
    for await (const item of pipeline as AsyncIterable<{ key: number; value: unknown }>) yield { index: item.key, value: item.value };
  } catch (error) {
    throw new UserError(`${file}: not valid JSON (${(error as Error).message.split("\n")[0]})`);
  }
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
