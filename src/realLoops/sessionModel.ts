// The model a recorded session names, for the catalogue's by-model counts and the changing-args
// fit's systems: mini-swe-agent trajectories (both formats) record it in info.config.model.model_name.
// Formats that record none (tau-bench's runs, Agent Data Protocol entries) get none. The head of
// the file is read first (and inflated, for .gz: src/io/compressed.ts): the name usually sits in
// its first kilobytes. But info.submission (the run's whole diff) comes before info.config, and a
// large diff pushes the name past the head (24 of the datasets' trajectories: at byte 73,710 to
// 894,456), so a trajectory whose head names no model is read whole before it is said to record none.
import { contentHeadText, contentWhole, plainName } from "../io/compressed.js";

const HEAD_BYTES = 64 * 1024;
const MODEL_NAME = /"model_name"\s*:\s*"([^"\\]{1,200})"/;

/** A mini-swe-agent trajectory file (`x.traj.json`, `x.traj`, each also .gz): its info.config names the model. */
const isTrajectory = (ref: string) => /\.traj(\.json)?$/.test(plainName(ref));

/** The model name the session's file records, or undefined (a #id entry of a multi-run file: none). */
export function sessionModel(ref: string): string | undefined {
  if (ref.includes("#") || ref === "-") return undefined;
  try {
    let name = MODEL_NAME.exec(contentHeadText(ref, HEAD_BYTES))?.[1];
    if (name === undefined && isTrajectory(ref)) name = MODEL_NAME.exec(contentWhole(ref).toString("utf8"))?.[1];
    // A copy of its own: a match is a slice that keeps the whole text alive while the row lives (1,761 rows held 110 MB that way).
    return name === undefined ? undefined : Buffer.from(name, "utf8").toString("utf8");
  } catch {
    // A file the importer read but whose head cannot be read alone: the model is not known.
    return undefined;
  }
}
