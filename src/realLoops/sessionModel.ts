// The model a recorded session names, for the catalogue's by-model counts: mini-swe-agent
// trajectories (both formats) record it in info.config.model.model_name near the start of the
// file; formats that record none (tau-bench's runs, Agent Data Protocol entries) get none. Only
// the head of the file is read (and inflated, for .gz: src/io/compressed.ts): the name sits in its
// first kilobytes.
import { contentHeadText } from "../io/compressed.js";

const HEAD_BYTES = 64 * 1024;
const MODEL_NAME = /"model_name"\s*:\s*"([^"\\]{1,200})"/;

/** The model name the session's file records, or undefined (a #id entry of a multi-run file: none). */
export function sessionModel(ref: string): string | undefined {
  if (ref.includes("#") || ref === "-") return undefined;
  try {
    const name = MODEL_NAME.exec(contentHeadText(ref, HEAD_BYTES))?.[1];
    // A copy of its own: a match is a slice that keeps the whole 64 KiB head alive while the row lives (1,761 rows held 110 MB that way).
    return name === undefined ? undefined : Buffer.from(name, "utf8").toString("utf8");
  } catch {
    // A file the importer read but whose head cannot be read alone: the model is not known.
    return undefined;
  }
}
