// Beyond one machine: `--shard auto` reads the shard from each batch engine's variables, and four
// auto-sharded runs started the way each engine starts them merge (from their folder) into exactly
// the unsharded report.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseShard } from "../src/io/shardSpec.js";
import { tempDir } from "./cli/run.js";

const BIN = join(import.meta.dirname, "..", "bin", "loopsim.js");
const FIXTURES = join(import.meta.dirname, "fixtures", "sessions");
const ENGINE_VARIABLES = ["LOOPSIM_SHARD_INDEX", "LOOPSIM_SHARD_COUNT", "JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_COUNT", "CI_NODE_INDEX", "CI_NODE_TOTAL", "AWS_BATCH_JOB_ARRAY_INDEX"];

/** The environment without any engine's shard variables, plus the ones given. */
function envWith(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ENGINE_VARIABLES) delete env[name];
  return { ...env, ...extra };
}

const ENGINES: { name: string; shard: string; env: (i: number) => Record<string, string> }[] = [
  { name: "Kubernetes Indexed Job", shard: "auto", env: (i) => ({ JOB_COMPLETION_INDEX: String(i - 1), LOOPSIM_SHARD_COUNT: "4" }) },
  { name: "Slurm job array", shard: "auto", env: (i) => ({ SLURM_ARRAY_TASK_ID: String(i + 9), SLURM_ARRAY_TASK_MIN: "10", SLURM_ARRAY_TASK_COUNT: "4" }) },
  { name: "GitLab CI parallel", shard: "auto", env: (i) => ({ CI_NODE_INDEX: String(i), CI_NODE_TOTAL: "4" }) },
  { name: "AWS Batch array job", shard: "auto/4", env: (i) => ({ AWS_BATCH_JOB_ARRAY_INDEX: String(i - 1) }) },
  { name: "GitHub Actions matrix", shard: "auto", env: (i) => ({ LOOPSIM_SHARD_INDEX: String(i), LOOPSIM_SHARD_COUNT: "4" }) },
];

describe("--shard auto", () => {
  it("reads each engine's variables as the right shard", () => {
    for (const engine of ENGINES) {
      for (let i = 1; i <= 4; i++) expect(parseShard(engine.shard, envWith(engine.env(i))), `${engine.name} task ${i}`).toEqual({ index: i, of: 4 });
    }
  });
  it("says what is missing or wrong", () => {
    expect(() => parseShard("auto", envWith({}))).toThrow(/no batch engine's shard variables are set/);
    expect(() => parseShard("auto", envWith({ JOB_COMPLETION_INDEX: "0" }))).toThrow(/gives the index but not the count: use --shard auto\/N or set LOOPSIM_SHARD_COUNT/);
    expect(() => parseShard("auto", envWith({ CI_NODE_INDEX: "5", CI_NODE_TOTAL: "4" }))).toThrow(/shard 5 of 4 is out of range/);
    expect(() => parseShard("auto", envWith({ CI_NODE_INDEX: "x", CI_NODE_TOTAL: "4" }))).toThrow(/CI_NODE_INDEX=x is not a whole number/);
    expect(() => parseShard("2/1")).toThrow(/out of range/);
    expect(() => parseShard("banana")).toThrow(/expected I\/N \(for example 1\/4\), auto, or auto\/N/);
  });
  it("four auto-sharded tune --sessions runs, started as Kubernetes and as Slurm start them, merge into the unsharded report", () => {
    const common = ["tune", "--agents", "6", "--grid", "warningThreshold=5,8,15", "--sessions", FIXTURES, "--force", "--workers", "1"];
    const whole = tempDir();
    // The fixtures folder holds one malformed session on purpose: reported, and exit 1.
    const unsharded = spawnSync(process.execPath, [BIN, ...common, "--out", whole], { encoding: "utf8", env: envWith({}) });
    expect(unsharded.status, unsharded.stderr).toBe(1);
    const expected = readFileSync(join(whole, "report.json"), "utf8");
    // Every engine's variables are checked above; these two are the ones examples/distributed uses.
    for (const engine of ENGINES.filter((e) => /Kubernetes|Slurm/.test(e.name))) {
      const parts = tempDir();
      for (let i = 1; i <= 4; i++) {
        const run = spawnSync(process.execPath, [BIN, ...common, "--shard", engine.shard, "--out", parts], { encoding: "utf8", env: envWith(engine.env(i)) });
        expect(run.status, `${engine.name} task ${i}: ${run.stderr}`).toBe(1);
      }
      const merged = tempDir();
      const merge = spawnSync(process.execPath, [BIN, "merge", parts, "--out", merged], { encoding: "utf8", env: envWith({}) });
      expect(merge.status, merge.stderr).toBe(0);
      expect(readFileSync(join(merged, "report.json"), "utf8"), engine.name).toBe(expected);
    }
  });
});

describe("the distributed examples", () => {
  it("the Kubernetes manifest and the Slurm script run a sharded tune with --shard auto and merge the folder", () => {
    const dir = join(import.meta.dirname, "..", "examples", "distributed");
    const k8s = readFileSync(join(dir, "kubernetes-indexed-job.yaml"), "utf8");
    expect(k8s).toMatch(/completionMode: Indexed/);
    expect(k8s).toMatch(/"--shard", "auto"/);
    expect(k8s).toMatch(/name: LOOPSIM_SHARD_COUNT\n\s+value: "4"/);
    expect(k8s).toMatch(/completions: 4/);
    expect(k8s).toMatch(/"merge", "\/data\/results"/);
    const slurm = readFileSync(join(dir, "slurm-array.sh"), "utf8");
    expect(slurm).toMatch(/--array=1-4/);
    expect(slurm).toMatch(/--shard auto/);
    expect(slurm).toMatch(/merge '\$results\/parts'/);
    expect(spawnSync("bash", ["-n", join(dir, "slurm-array.sh")]).status).toBe(0);
  });
});
