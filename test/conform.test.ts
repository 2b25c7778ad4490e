// `conform` on the built-in targets: the reference keeps every rule it can be judged on; each
// bug-zoo variant fails at least one rule, among them one it is known to break; a target without
// a guard gets n/a for the guard rules, never pass; and the example adapter loads and is judged.
import { describe, expect, it } from "vitest";
import { resolve } from "node:path";
import { conformTarget } from "../src/conform/run.js";
import { rulesOf } from "../src/conform/rules.js";
import { REFERENCE_TARGET, EngineSession } from "../src/targets/reference.js";
import { resolveTarget } from "../src/targets/registry.js";
import type { Target, TargetOutput } from "../src/targets/target.js";
import { ZOO_TARGETS } from "../src/targets/zoo/variants.js";

const OPTIONS = { seed: 20261202, depth: 0.5, outDir: undefined };

const failing = (cells: Record<string, { status: string }>) => Object.entries(cells).filter(([, c]) => c.status === "fail").map(([r]) => r);

const ADAPTER = resolve(import.meta.dirname, "..", "examples", "custom-target", "consecutive-guard.mjs");
let adapterRun: Promise<{ target: Target; result: ReturnType<typeof conformTarget> }> | undefined;
/** The example adapter, loaded and judged once: two tests read the same deterministic run. */
function adapterConformance() {
  adapterRun ??= resolveTarget(ADAPTER).then((target) => ({ target, result: conformTarget(target, OPTIONS) }));
  return adapterRun;
}

describe("conform", () => {
  it("the reference keeps every rule it can be judged on", () => {
    const result = conformTarget(REFERENCE_TARGET, OPTIONS);
    expect(failing(result.cells)).toEqual([]);
    const notJudged = Object.entries(result.cells).filter(([, c]) => c.status !== "pass").map(([r]) => r);
    // C2 (file validation) and D3 (each engine's own keys and words) are outside any run.
    expect(notJudged).toEqual(["C2", "D3"]);
  });

  it.each(ZOO_TARGETS.map((t) => [t.name, t] as const))("%s fails a rule it is known to break", (_name, target) => {
    const result = conformTarget(target, OPTIONS);
    const fails = failing(result.cells);
    const known = rulesOf(target.breaks);
    console.log(`${target.name}: fails ${fails.join(",")}; known to break ${known.join(",")}`);
    expect(fails.length).toBeGreaterThan(0);
    expect(fails.filter((r) => known.includes(r))).not.toEqual([]);
  });

  it("a target without a guard gets n/a on the guard rules, not pass", () => {
    const guardless: Target = {
      ...REFERENCE_TARGET,
      name: "test:no-guard",
      capabilities: { ...REFERENCE_TARGET.capabilities, guard: false },
      start: (config) => {
        const inner = new EngineSession({ ...config, enabled: config.enabled === undefined ? false : config.enabled });
        return { step: (event) => inner.step(event).map((o): TargetOutput => (o.kind === "compaction" ? { ...o, armed: false } : o)) };
      },
    };
    const result = conformTarget(guardless, OPTIONS);
    for (const rule of ["G1", "G2", "G3", "G4", "G5", "K6"]) {
      expect(result.cells[rule]?.status, rule).toBe("n/a");
      expect(result.cells[rule]?.reason ?? "").toMatch(/no post-compaction guard/);
    }
  });

  it("the example adapter for an outside detector loads, runs and is judged", async () => {
    const { target, result } = await adapterConformance();
    expect(target.name).toBe("consecutive-guard");
    // No warnings and results never compared: it cannot keep the counting rules...
    expect(failing(result.cells)).toEqual(expect.arrayContaining(["S1", "D2"]));
    // ...and it declares no guard and no warning level, so those rules are not judged.
    expect(result.cells.G3?.status).toBe("n/a");
    expect(result.cells.W1?.status).toBe("n/a");
  });
});

describe("conform --merge", () => {
  it("renders one matrix from several runs' JSON, and refuses runs with another seed", async () => {
    const { loopsim, tempDir } = await import("./cli/run.js");
    const { join } = await import("node:path");
    const { writeFileSync, readFileSync } = await import("node:fs");
    const dir = tempDir();
    const a = loopsim(["conform", "--target", "reference", "--json", "--depth", "1"]);
    const b = loopsim(["conform", "--target", "zoo:warning-buckets-of-10", "--json", "--depth", "1"]);
    writeFileSync(join(dir, "a.json"), a.stdout);
    writeFileSync(join(dir, "b.json"), b.stdout);
    const merged = loopsim(["conform", "--merge", join(dir, "a.json"), join(dir, "b.json"), "--out", join(dir, "m")]);
    expect(merged.code, merged.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, "m", "conformance.json"), "utf8"));
    expect(report.targets.map((t: { target: string }) => t.target)).toEqual(["reference", "zoo:warning-buckets-of-10"]);
    const c = loopsim(["conform", "--target", "reference", "--json", "--seed", "7"]);
    writeFileSync(join(dir, "c.json"), c.stdout);
    const refused = loopsim(["conform", "--merge", join(dir, "a.json"), join(dir, "c.json")]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/seed 7, depth 1 differ/);
  });
});

describe("replay hints work for every kind of target, and blame only what the trace can show", () => {
  it("a module-path target's law hint names the module (it replays the failure), and a probe row without --out still has a replay command that works", async () => {
    const { loopsim, tempDir } = await import("./cli/run.js");
    const { existsSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { result } = await adapterConformance();
    const rows = result.checks.filter((c) => c.status === "fail");
    const law = rows.find((c) => c.kind === "law");
    const probe = rows.find((c) => c.kind === "probe");
    expect(law?.counterexample?.replay).toMatch(new RegExp(`^loopsim conform --target ${ADAPTER.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} --law `));
    const lawArgs = (law?.counterexample?.replay ?? "").split(" ").slice(1);
    const again = loopsim(lawArgs);
    expect(again.stderr).not.toMatch(/unknown target/);
    expect(again.code, again.stderr).toBe(1);
    expect(probe?.counterexample?.replay ?? "").not.toBe("");
    const [write, replay] = (probe?.counterexample?.replay ?? "").split("; ");
    const cwd = tempDir();
    expect(loopsim((write ?? "").split(" ").slice(1), undefined, cwd).code).toBe(1);
    const file = (replay ?? "").split(" ").at(-1) ?? "";
    expect(existsSync(join(cwd, file)), file).toBe(true);
    const replayed = loopsim((replay ?? "").split(" ").slice(1), undefined, cwd);
    expect(replayed.stderr).not.toMatch(/unknown target/);
    expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
  });

  it("a law failure whose trace has no compaction does not blame R4 (zoo:contiguous-streak fails K4, not R4)", () => {
    const target = ZOO_TARGETS.find((t) => t.name === "zoo:contiguous-streak") as Target;
    const result = conformTarget(target, { ...OPTIONS, depth: 1 });
    expect(result.cells.K4?.status).toBe("fail");
    expect(result.cells.R4?.status).not.toBe("fail");
  });
});
