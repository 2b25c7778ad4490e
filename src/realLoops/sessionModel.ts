// The model a recorded session names, for the catalogue's by-model counts: mini-swe-agent
// trajectories (both formats) record it in info.config.model.model_name near the start of the
// file; formats that record none (tau-bench's runs, Agent Data Protocol entries) get none. Only
// the head of the file is read (and inflated, for .gz): the name sits in its first kilobytes.
import { closeSync, openSync, readSync } from "node:fs";
import { constants, gunzipSync } from "node:zlib";

const HEAD_BYTES = 64 * 1024;
const MODEL_NAME = /"model_name"\s*:\s*"([^"\\]{1,200})"/;

function head(file: string): string {
  const fd = openSync(file, "r");
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const n = readSync(fd, buffer, 0, HEAD_BYTES, 0);
    const bytes = buffer.subarray(0, n);
    // A cut-short gzip stream inflates as far as it goes with a sync flush.
    const gzip = n >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
    return (gzip ? gunzipSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH }) : bytes).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/** The model name the session's file records, or undefined (a #id entry of a multi-run file: none). */
export function sessionModel(ref: string): string | undefined {
  if (ref.includes("#") || ref === "-") return undefined;
  try {
    return MODEL_NAME.exec(head(ref))?.[1];
  } catch {
    // A file the importer read but whose head cannot be inflated alone: the model is not known.
    return undefined;
  }
}
