// `replay` as test cases: one per scenario file, failing with the timeline's difference and the
// command that shows it again; an invalid file is an error, a skipped one skipped.
import type { JUnitCase, JUnitSuite } from "./junit.js";

/** What replay knows of one file (its ReplayOutcome). */
export interface ReplayedFile {
  readonly file: string;
  readonly id: string | null;
  readonly status: "pass" | "fail" | "updated" | "invalid" | "skipped";
  readonly diff?: readonly string[];
  readonly problems?: readonly string[];
}

export function replayCases(outcomes: readonly ReplayedFile[], against: string | undefined): JUnitSuite {
  const classname = `replay.${against ?? "scenarios"}`;
  const cases = outcomes.map((o): JUnitCase => {
    const name = o.id === null ? o.file : `${o.id} (${o.file})`;
    const replay = `loopsim replay ${o.file}${against === undefined ? "" : ` --target ${against}`}`;
    if (o.status === "invalid") return { name, classname, error: { message: `invalid scenario file`, type: "invalid", text: [...(o.problems ?? []), `replay: ${replay}`].join("\n") } };
    if (o.status === "skipped") return { name, classname, skipped: (o.problems ?? []).join("; ") };
    if (o.status === "fail") return { name, classname, failure: { message: `${o.file} did not replay as expected`, type: "replay", text: [...(o.diff ?? []), `replay: ${replay}`].join("\n") } };
    return { name, classname };
  });
  return { name: `loopsim replay${against === undefined ? "" : ` --target ${against}`}`, cases };
}
