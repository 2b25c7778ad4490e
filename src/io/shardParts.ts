// The partial results of `--shard I/N` (tune, compare), read back and checked as one run: each
// file parses and carries its schema; all share their inputs and N; each part's rows are exactly
// its shard's (a header is a claim, not a fact: an edited or cut file is refused); and every shard
// is given once.
import { isPlainObject } from "../../models/outcomeHash.js";
import { UserError } from "./errors.js";
import { readdirSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { inputKind } from "./fsErrors.js";
import { readTextFile } from "./textFile.js";

export interface ShardPart<I, R> {
  readonly shard: { readonly index: number; readonly of: number };
  readonly inputs: I;
  readonly rows: readonly R[];
}

export interface ShardLayout<I, R> {
  readonly schema: string;
  /** The command that writes such parts, for the error message. */
  readonly writer: string;
  /** What the inputs hold, for the error message. */
  readonly inputsAre: string;
  /** What a row stands for: configs, guards. */
  readonly rowsAre: string;
  /** The ids of the rows shard `index` of `of` must hold, in order. */
  expected(inputs: I, index: number, of: number): readonly string[];
  /** A row's id, or undefined when the row is malformed. */
  idOf(row: unknown): string | undefined;
}

/**
 * The part files named, with each folder among them replaced by the parts it holds (files named
 * like `prefix-I-of-N.json`), in shard order: `merge DIR` after a distributed run.
 */
export function partsIn(paths: readonly string[], prefix: string): string[] {
  const found: string[] = [];
  const pattern = new RegExp(`^${prefix}-(\\d+)-of-(\\d+)\\.json$`);
  for (const path of paths) {
    if (inputKind(path) !== "folder") {
      found.push(path);
      continue;
    }
    const parts = readdirSync(path)
      .map((name) => ({ name, m: pattern.exec(name) }))
      .filter((x): x is { name: string; m: RegExpExecArray } => x.m !== null)
      .sort((a, b) => Number(a.m[1]) - Number(b.m[1]));
    if (parts.length === 0) throw new UserError(`${path}: no ${prefix}-I-of-N.json files in this folder${otherKindHint(path, prefix)}`);
    found.push(...parts.map((x) => join(path, x.name)));
  }
  return found;
}

/** A part file's schema, to tell which kind of shards a merge is given (undefined when unreadable: the reader of the parts says why). */
export function schemaOf(path: string | undefined): unknown {
  try {
    return (JSON.parse(readTextFile(path ?? "", "partial result")) as { schema?: unknown }).schema;
  } catch {
    return undefined;
  }
}

export function readShardParts<I, R>(paths: readonly string[], layout: ShardLayout<I, R>): ShardPart<I, R>[] {
  const parts = paths.map((path): ShardPart<I, R> => {
    let raw: unknown;
    try {
      raw = JSON.parse(readTextFile(path, "partial result"));
    } catch (error) {
      throw new UserError(`${path}: not a readable partial result (${(error as Error).message})`);
    }
    if (!isPlainObject(raw) || raw.schema !== layout.schema) throw new UserError(`${path}: schema: expected "${layout.schema}" (write parts with ${layout.writer} --shard I/N)`);
    if (!isPlainObject(raw.shard) || !Number.isInteger(raw.shard.index) || !Number.isInteger(raw.shard.of) || !Array.isArray(raw.rows) || !isPlainObject(raw.inputs)) throw new UserError(`${path}: shard, inputs and rows: malformed partial result`);
    return raw as unknown as ShardPart<I, R>;
  });
  const first = parts[0];
  if (first === undefined) throw new UserError("merging needs at least one part");
  const inputs = JSON.stringify(first.inputs);
  parts.forEach((p, i) => {
    if (JSON.stringify(p.inputs) !== inputs) throw new UserError(`${paths[i]}: its inputs differ from ${paths[0]}'s in ${differingKeys(p.inputs, first.inputs).join(", ")} (the parts of one run share ${layout.inputsAre})`);
    if (p.shard.of !== first.shard.of) throw new UserError(`${paths[i]}: shard ${p.shard.index}/${p.shard.of} does not belong with ${first.shard.index}/${first.shard.of}`);
    const expected = layout.expected(first.inputs, p.shard.index, p.shard.of);
    const got = p.rows.map((row, k) => {
      const id = layout.idOf(row);
      if (id === undefined) throw new UserError(`${paths[i]}: rows[${k}]: not a result row`);
      return id;
    });
    if (JSON.stringify(got) !== JSON.stringify(expected)) throw new UserError(`${paths[i]}: its rows (${got.length}) are not exactly shard ${p.shard.index}/${p.shard.of}'s ${expected.length} ${layout.rowsAre}; was the file edited or cut?`);
  });
  // A shard given twice (the same file twice, or two runs' parts mixed) is named before any
  // missing one: the missing shard is usually the twin's.
  const byIndex = new Map<number, string>();
  parts.forEach((p, i) => {
    const path = paths[i] as string;
    const twin = byIndex.get(p.shard.index);
    if (twin !== undefined) throw new UserError(sameFile(twin, path) ? `${path} is given twice; give each part once` : `${twin} and ${path} are both shard ${p.shard.index}/${p.shard.of}; give each shard once`);
    byIndex.set(p.shard.index, path);
  });
  const seen = new Set(parts.map((p) => p.shard.index));
  const missing = Array.from({ length: first.shard.of }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length > 0) throw new UserError(`${[...new Set(paths.map((p) => dirname(p)))].join(", ")}: missing shard${missing.length === 1 ? "" : "s"} ${missing.map((m) => `${m}/${first.shard.of}`).join(", ")} (found ${[...seen].sort((a, b) => a - b).map((m) => `${m}/${first.shard.of}`).join(", ")})`);
  if (seen.size !== parts.length) throw new UserError("a shard is given twice");
  return parts;
}

/** The top-level keys whose values differ between two parts' inputs (or "their values" when none does). */
export function differingKeys(a: unknown, b: unknown): string[] {
  if (!isPlainObject(a) || !isPlainObject(b)) return ["their values"];
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  return keys.length === 0 ? ["their key order"] : keys;
}

function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return resolve(a) === resolve(b);
  }
}

/** Parts of the other command in the folder: the merge that reads them. */
function otherKindHint(path: string, prefix: string): string {
  const names = readdirSync(path);
  if (prefix === "partial" && names.some((n) => /^compare-partial-\d+-of-\d+\.json$/.test(n))) return "; it holds compare parts: merge them with loopsim compare --merge " + path;
  if (prefix === "compare-partial" && names.some((n) => /^partial-\d+-of-\d+\.json$/.test(n))) return "; it holds tune parts: merge them with loopsim merge " + path;
  return "";
}
