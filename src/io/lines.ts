// Line-by-line reading of a file or stdin ("-"), so a trace of any length streams through
// in bounded memory.
import { createReadStream, existsSync, statSync } from "node:fs";
import { createInterface } from "node:readline";
import { UserError } from "../cli/errors.js";

export async function* readLines(path: string): AsyncGenerator<string> {
  if (path !== "-") {
    if (!existsSync(path)) throw new UserError(`${path}: no such file`);
    if (statSync(path).isDirectory()) throw new UserError(`${path}: is a directory, expected a .jsonl file`);
  }
  const input = path === "-" ? process.stdin : createReadStream(path, { encoding: "utf8" });
  const reader = createInterface({ input, crlfDelay: Infinity });
  for await (const line of reader) yield line;
}
