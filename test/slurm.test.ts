// A real Slurm cluster (issue 31): munge, slurmctld and slurmd on localhost, with their config and
// state in a scratch folder (test/slurm/localCluster.sh), run examples/distributed/slurm-array.sh
// as written, sharded by config and by session at once; each waits for its merge job, and both
// merged reports must be the unsharded report byte for byte. The daemons are stopped by their
// pid files after the test, whatever happened. Where Slurm is not installed (.ci/run installs
// Debian's slurm-wlm and munge) or cannot start (not root, no hostname), it says SKIPPED and why.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tuneCommand } from "../src/cli/simulationOutput.js";
import { tempDir } from "./cli/run.js";

const ROOT = join(import.meta.dirname, "..");
const CLUSTER = join(import.meta.dirname, "slurm", "localCluster.sh");
const SCRIPT = join(ROOT, "examples", "distributed", "slurm-array.sh");
const FIXTURES = join(import.meta.dirname, "fixtures", "sessions");
const TUNE = ["--agents", "2", "--grid", "warningThreshold=5,8"];

const missing = ["munged", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo"].filter((b) => spawnSync("sh", ["-c", `command -v ${b}`]).status !== 0);
const notRoot = process.getuid?.() !== 0;
const why = missing.length > 0 ? `Slurm is not installed (no ${missing.join(", ")}; .ci/run installs Debian's slurm-wlm and munge)` : notRoot ? "slurmd needs root here" : undefined;
if (why !== undefined) console.log(`SKIPPED: the real Slurm cluster test: ${why}`);

describe.skipIf(why !== undefined)("a real Slurm cluster runs examples/distributed/slurm-array.sh", () => {
  const dir = tempDir();
  const env = { ...process.env, SLURM_CONF: join(dir, "slurm.conf") };
  let startProblem: string | undefined;
  beforeAll(() => {
    const started = spawnSync("bash", [CLUSTER, "start", dir], { encoding: "utf8", timeout: 60_000 });
    if (started.status !== 0) {
      const logs = ["munged.log", "slurmctld.log", "slurmd.log"].filter((f) => existsSync(join(dir, f))).map((f) => `${f}: ${readFileSync(join(dir, f), "utf8").trim().split("\n").slice(-3).join(" | ")}`);
      startProblem = `${started.stderr.trim() || `exit ${started.status}`}; ${logs.join("; ")}`;
    }
  }, 70_000);
  afterAll(() => {
    spawnSync("bash", [CLUSTER, "stop", dir], { timeout: 20_000 });
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it("by config and by session, the merge job's report equals the unsharded one", async (context) => {
    if (startProblem !== undefined) {
      console.log(`SKIPPED: the real Slurm cluster test: the cluster did not start: ${startProblem}`);
      context.skip();
    }
    const sessions = join(dir, "sessions");
    mkdirSync(sessions);
    for (const f of ["adp-mini.json", "claude-parallel.jsonl", "pi-tree.jsonl"]) copyFileSync(join(FIXTURES, f), join(sessions, f));
    const whole = join(dir, "whole");
    const write = process.stderr.write;
    process.stderr.write = (() => true) as typeof process.stderr.write;
    try {
      await tuneCommand({ sessions: [sessions], population: "default", agents: 2, seed: 1, grid: "warningThreshold=5,8", out: whole, workers: 1, force: true, json: false });
    } finally {
      process.stderr.write = write;
    }
    const submitted = ["configs", "sessions"].map((by) => {
      const run = spawnSync("bash", [SCRIPT, sessions, join(dir, by), by, ...TUNE], { encoding: "utf8", env, timeout: 30_000 });
      expect(run.status, run.stderr).toBe(0);
      return { by, jobs: run.stdout.trim().split(/\s+/) };
    });
    // Wait until no job of ours is queued; a merge whose dependency failed is reported, not awaited.
    const ours = submitted.flatMap((s) => s.jobs).join(",");
    for (let tick = 0; tick < 240; tick++) {
      const queue = spawnSync("squeue", ["-h", "-j", ours, "-o", "%i %T %r"], { encoding: "utf8", env }).stdout.trim();
      if (queue === "") break;
      if (/DependencyNeverSatisfied/.test(queue)) throw new Error(`a shard failed, so its merge cannot run: ${queue}\n${logsOf(dir)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    for (const { by } of submitted) {
      for (const name of ["report.json", "report.md", "report.html"]) {
        const merged = join(dir, by, "report", name);
        expect(existsSync(merged), `${by}: no ${name} from the merge job\n${logsOf(dir)}`).toBe(true);
        expect(readFileSync(merged, "utf8"), `${by}: ${name}`).toBe(readFileSync(join(whole, name), "utf8"));
      }
    }
  }, 150_000);
});

/** Every job's output, for a failure message. */
function logsOf(dir: string): string {
  return ["configs", "sessions"]
    .filter((by) => existsSync(join(dir, by)))
    .flatMap((by) => readdirSync(join(dir, by)).filter((f) => f.endsWith(".out")).map((f) => `${by}/${f}: ${readFileSync(join(dir, by, f), "utf8").trim()}`))
    .join("\n");
}
