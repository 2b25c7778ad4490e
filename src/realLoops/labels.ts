// Outcome labels for the catalogue, read from the labels files published beside the datasets, as
// they are: flat (instance -> resolved), nested (run -> instance -> resolved), or keyed by a run id
// (tau-bench's `<task_id>/trial<k>` -> success). A labels file labels the sessions in its own
// folder and below; a session takes the value whose keys are all parts of its path (its folders,
// its instance, its #id). Values are kept as the dataset writes them (resolved, unresolved_empty_patch,
// success, eval_error ...) and grouped into an outcome: resolved, failed, or other. The miner never
// sees labels: they only split the catalogue's counts.
import { dirname, relative, resolve, sep } from "node:path";
import { isPlainObject } from "../../models/outcomeHash.js";
import { UserError } from "../io/errors.js";
import { inputKind } from "../io/fsErrors.js";
import { readTextFile } from "../io/textFile.js";

export const OUTCOMES = ["resolved", "failed", "other"] as const;
export type Outcome = (typeof OUTCOMES)[number];

const RESOLVED = new Set(["resolved", "success", "succeeded", "solved", "pass", "passed"]);
const FAILED = /^(?:unresolved|failure|failed|fail|unsolved)(?:_|$)/;

/** A label's outcome: resolved, failed (unresolved, unresolved_empty_patch, failure), or other (eval_error, no_eval). */
export function outcomeOf(label: string): Outcome {
  if (RESOLVED.has(label)) return "resolved";
  return FAILED.test(label) ? "failed" : "other";
}

interface Entry {
  readonly keys: readonly string[];
  readonly value: string;
}

export interface DatasetLabels {
  readonly file: string;
  /** The folder whose sessions the file labels (resolved). */
  readonly scope: string;
  /** Entries by their last key. */
  readonly byLast: ReadonlyMap<string, readonly Entry[]>;
}

export function loadDatasetLabels(file: string): DatasetLabels {
  if (inputKind(file, "--labels ") === "folder") throw new UserError(`--labels ${file}: is a directory, not a labels file`);
  let raw: unknown;
  try {
    raw = JSON.parse(readTextFile(file, "labels file"));
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new UserError(`--labels ${file}: not valid JSON (${(error as Error).message})`);
  }
  if (!isPlainObject(raw)) throw new UserError(`--labels ${file}: must be a JSON object mapping sessions (or runs, then sessions) to labels`);
  const byLast = new Map<string, Entry[]>();
  const walk = (value: unknown, keys: string[], at: string) => {
    if (typeof value === "string" || typeof value === "boolean") {
      const entry = { keys, value: String(value) };
      const last = keys[keys.length - 1] as string;
      byLast.set(last, [...(byLast.get(last) ?? []), entry]);
    } else if (isPlainObject(value)) for (const [k, v] of Object.entries(value)) walk(v, [...keys, k], `${at}[${JSON.stringify(k)}]`);
    else if (value !== null) throw new UserError(`--labels ${file}: ${at}: a label (a string) or an object of them, not ${Array.isArray(value) ? "a list" : typeof value}`);
  };
  walk(raw, [], "$");
  return { file, scope: resolve(dirname(file)), byLast };
}

/** The parts of a session's path a labels key may name: its folders, its file's instance name, its #id. */
function partsOf(path: string): Set<string> {
  const hash = path.indexOf("#");
  const file = hash < 0 ? path : path.slice(0, hash);
  const parts = new Set(file.split(/[\\/]/).filter((p) => p !== ""));
  const base = file.split(/[\\/]/).at(-1) ?? "";
  parts.add(base.replace(/(\.traj\.json|\.traj|\.jsonl|\.json)(\.gz)?$/, ""));
  if (hash >= 0) parts.add(path.slice(hash + 1));
  return parts;
}

/** The label of the session at `ref` (its file, plus #id), from the first labels file whose folder holds it. */
export function labelFor(ref: string, files: readonly DatasetLabels[]): string | undefined {
  const hash = ref.indexOf("#");
  const absolute = resolve(hash < 0 ? ref : ref.slice(0, hash));
  for (const labels of files) {
    const inside = relative(labels.scope, absolute);
    if (inside.startsWith("..") || inside === "" || inside.startsWith(sep + sep)) continue;
    const parts = partsOf(hash < 0 ? inside : `${inside}${ref.slice(hash)}`);
    for (const part of parts) for (const entry of labels.byLast.get(part) ?? []) if (entry.keys.every((k) => parts.has(k))) return entry.value;
  }
  return undefined;
}
