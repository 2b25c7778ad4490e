// Outcome labels for the catalogue, read from the labels files published beside the datasets, as
// they are: flat (instance -> resolved), nested (run -> instance -> resolved), or keyed by a run id
// (tau-bench's `<task_id>/trial<k>` -> success). A labels file labels the sessions in its own
// folder and below; a session takes the value whose keys are all parts of its path (its folders,
// its instance, its #id). Values are kept as the dataset writes them (resolved, unresolved_empty_patch,
// success, eval_error ...) and grouped into an outcome: resolved, failed, or other. The miner never
// sees labels: they only split the catalogue's counts.
import { dirname, relative, resolve } from "node:path";
import { outcomeOfLabel, parseLabelsFile } from "../sessions/recorded.js";

export const OUTCOMES = ["resolved", "failed", "other"] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** A label's outcome by the shared vocabulary (src/sessions/recorded.ts): resolved, failed (unresolved, unresolved_empty_patch, failure), or other (eval_error, no_eval, a word it does not know). */
export function outcomeOf(label: string): Outcome {
  const outcome = outcomeOfLabel(label);
  return outcome === "resolved" ? "resolved" : outcome === "unresolved" ? "failed" : "other";
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

/** A labels file, parsed once by the parse every reader of labels shares (parseLabelsFile), indexed for matching. */
export function loadDatasetLabels(file: string): DatasetLabels {
  const byLast = new Map<string, Entry[]>();
  for (const { keys, value } of parseLabelsFile(file).entries) {
    const last = keys[keys.length - 1] as string;
    byLast.set(last, [...(byLast.get(last) ?? []), { keys, value: typeof value === "string" ? value : JSON.stringify(value) }]);
  }
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
    if (inside.startsWith("..") || inside === "") continue;
    const parts = partsOf(hash < 0 ? inside : `${inside}${ref.slice(hash)}`);
    for (const part of parts) for (const entry of labels.byLast.get(part) ?? []) if (entry.keys.every((k) => parts.has(k))) return entry.value;
  }
  return undefined;
}
