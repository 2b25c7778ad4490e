// `--population sessions:PATH` repeated: the roots parse once into one list (src/grounded/populationSpec.ts),
// each root names its sessions relative to itself (as `loops A B` does), and a root that is missing,
// given twice or inside another is refused naming itself (src/io/distinctRoots.ts). Fixtures only.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parsePopulationArg, populationWords, resolvePopulation } from "../src/grounded/populationSpec.js";
import { UserError } from "../src/io/errors.js";
import { loopsim, tempDir, tempFile } from "./cli/run.js";

const LOOPS = "test/fixtures/real-loops";
const TAU = "test/fixtures/sessions/datasets/tau";

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return (error as Error).message;
  }
  throw new Error("not refused");
};

describe("--population parsed once", () => {
  it("keeps one preset or file as it is, and merges sessions:PATH roots in the order given", () => {
    expect(parsePopulationArg("default")).toEqual({ kind: "named", spec: "default" });
    expect(parsePopulationArg([`sessions:${LOOPS}`])).toEqual({ kind: "sessions", paths: [LOOPS] });
    const both = parsePopulationArg([`sessions:${LOOPS}`, `sessions:${TAU}`]);
    expect(both).toEqual({ kind: "sessions", paths: [LOOPS, TAU] });
    expect(populationWords(both)).toEqual([`--population sessions:${LOOPS}`, `--population sessions:${TAU}`]);
    expect(populationWords(parsePopulationArg("default"))).toEqual([]);
    // One root keeps the report name it always had.
    const one = resolvePopulation(`sessions:${LOOPS}`);
    expect(one.kind === "sessions" && one.grounded.name).toBe(`sessions:${LOOPS}`);
  });
  it("refuses a missing root, a root given twice or inside another, and a preset beside sessions, naming what was given", () => {
    expect(refusal(() => parsePopulationArg([`sessions:${LOOPS}`, "sessions:test/fixtures/no-such-folder"]))).toBe("--population sessions:test/fixtures/no-such-folder: no such file or folder");
    expect(refusal(() => parsePopulationArg([`sessions:${LOOPS}`, `sessions:./${LOOPS}/`]))).toContain(`--population sessions:./${LOOPS}/: the same sessions as --population sessions:${LOOPS}`);
    expect(refusal(() => parsePopulationArg([`sessions:${TAU}`, "sessions:test/fixtures/sessions"]))).toContain(`--population sessions:${TAU}: lies inside --population sessions:test/fixtures/sessions`);
    expect(refusal(() => parsePopulationArg(["default", `sessions:${LOOPS}`]))).toContain("--population default: given with --population sessions:");
    expect(refusal(() => parsePopulationArg(["sessions:"]))).toContain("name the sessions");
    const file = tempFile("twice.json5", JSON.stringify({ sessions: [join(process.cwd(), LOOPS), join(process.cwd(), LOOPS)] }));
    expect(refusal(() => resolvePopulation(file))).toContain("the same sessions as");
  });
});

describe("compare and tune on sessions under two roots", () => {
  it("names each root's sessions relative to it, so a labels file keyed by those names matches; the reproduce line repeats the flag", () => {
    const out = tempDir();
    const r = loopsim(["compare", "--population", `sessions:${LOOPS}`, "--population", `sessions:${TAU}`, "--loops", "real", "--labels", "test/fixtures/real-loops-labels.json", "--targets", "none", "--reaction-grid", "none", "--out", out]);
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(readFileSync(join(out, "compare.json"), "utf8")) as { reproduce: string; grounded: { paths: string[]; sessions: number }; realOutcomes: { sessions: Record<string, number> } };
    expect(json.grounded.paths).toEqual([LOOPS, TAU]);
    // The 3 real-loops sessions match their labels by path relative to their own root; the tau run is unlabelled.
    expect(json.realOutcomes.sessions).toEqual({ n: 4, resolved: 2, unresolved: 1, unknown: 0, unlabelled: 1 });
    expect(json.reproduce).toContain(`--population sessions:${LOOPS} --population sessions:${TAU}`);
  });
  it("exits 2 on a missing root, and on --agents beside repeated sessions", () => {
    const missing = loopsim(["tune", "--population", `sessions:${LOOPS}`, "--population", "sessions:test/fixtures/no-such-folder", "--json"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--population sessions:test/fixtures/no-such-folder: no such file or folder");
    const agents = loopsim(["compare", "--population", `sessions:${LOOPS}`, "--population", `sessions:${TAU}`, "--agents", "10", "--targets", "none"]);
    expect(agents.code).toBe(2);
    expect(agents.stderr).toContain("every recorded session is an agent");
  });
});
