// The candidate guard rules on the field matrix beside the shipped guards' models (issue 35, item
// 5: candidates run on the real data, the field matrix and the simulated families). The committed
// report is one a run makes today: the run is cheap (in-process columns only), so the suite makes
// it again and `field --check` fails on any cell that differs.
import { describe, expect, it } from "vitest";
import { loopsim } from "./run.js";

const COLUMNS = ["reference", "gemini-cli", "qwen-code", "openhands", "roo-code", "cline", "kilo", "opencode", "crush", "crewai", "crewai-react", "goose", "candidate:failure-signature:3", "candidate:failure-signature:5", "candidate:no-effect:3", "candidate:recheck:3", "candidate:no-new-fact:3"];

describe("reports/real-loops/candidates-field", () => {
  it("is what `loopsim field` makes today with its columns", () => {
    const r = loopsim(["field", ...COLUMNS.flatMap((t) => ["--target", t]), "--out", "reports/real-loops/candidates-field", "--check"]);
    expect(r.stderr + r.stdout).toContain("field matrix unchanged");
    expect(r.code).toBe(0);
  });
});
