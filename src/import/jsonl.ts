// Reading a JSONL session at the boundary: one object per line, blank lines skipped, a malformed
// line is a user error naming file:line, and a malformed *last* line is a session still being
// written: reported in the stats, everything before it used.
import { UserError } from "../io/errors.js";
import { readLines } from "../io/lines.js";
import type { ImportStats } from "./types.js";

export interface JsonLine {
  readonly line: number;
  readonly value: Record<string, unknown>;
}

export async function* jsonLines(file: string, stats: ImportStats): AsyncGenerator<JsonLine> {
  let pending: { line: number; text: string } | undefined;
  let n = 0;
  const parse = (p: { line: number; text: string }, last: boolean): JsonLine | undefined => {
    let value: unknown;
    try {
      value = JSON.parse(p.text);
    } catch (error) {
      if (last) {
        stats.truncatedLastLine = true;
        stats.notes.push(`${file}:${p.line}: the last line is cut short (a session still being written?); it is left out and the rest is used`);
        return undefined;
      }
      throw new UserError(`${file}:${p.line}: not valid JSON (${(error as Error).message})`);
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) throw new UserError(`${file}:${p.line}: each line must be a JSON object`);
    return { line: p.line, value: value as Record<string, unknown> };
  };
  for await (const text of readLines(file)) {
    n++;
    if (text.trim() === "") continue;
    if (pending !== undefined) {
      const parsed = parse(pending, false);
      if (parsed !== undefined) yield parsed;
    }
    pending = { line: n, text };
  }
  if (pending !== undefined) {
    const parsed = parse(pending, true);
    if (parsed !== undefined) yield parsed;
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
