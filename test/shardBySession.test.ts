// Shards by session (issue 31): `--shard I/N --by sessions` runs a slice of the sessions under every
// config or guard, and the merge adds the tallies (and puts the grounded agents back in the
// listing's order) before any share, median or interval is computed, so four shards merge into
// the unsharded report byte for byte: tune and compare, recorded sessions and grounded populations.
// In-process (the commands themselves, one worker) to stay cheap.
import { describe, expect, it } from "vitest";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { planTune, type TuneArgs } from "../src/commands/tune.js";
import { planCompare, type CompareArgs } from "../src/commands/compare.js";
import { compareCommand, mergeCompareCommand, mergeTuneCommand, tuneCommand } from "../src/cli/simulationOutput.js";
import { scanPlanned as scanCommand } from "../src/cli/scanOutput.js";
import { configFrom } from "../models/configResolution.js";
import { REFERENCE_TARGET } from "../src/targets/reference.js";
import { tempDir } from "./cli/run.js";

const FIXTURES = join(import.meta.dirname, "fixtures", "sessions");

/** A few good sessions of several formats, an ADP file of three among them (the fixtures' malformed ones left out). */
function sessions(): string {
  const dir = join(tempDir(), "s");
  mkdirSync(dir);
  for (const f of ["adp-mini.json", "claude-parallel.jsonl", "codex-outstanding.jsonl", "pi-tree.jsonl", "swe-agent-example.traj", "mini-timeouts.traj.json"]) copyFileSync(join(FIXTURES, f), join(dir, f));
  return dir;
}

const quiet = async (run: () => Promise<void> | void): Promise<void> => {
  const write = process.stderr.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    await run();
  } finally {
    process.stderr.write = write;
  }
};

const files = (dir: string, names: readonly string[]) => names.map((n) => readFileSync(join(dir, n), "utf8"));

describe("--shard I/N --by sessions", () => {
  const S = sessions();
  const tuneBase = (extra: Partial<TuneArgs>): TuneArgs => ({ population: "default", agents: 2, seed: 3, grid: "warningThreshold=5,8", out: "", workers: 1, force: true, json: false, ...extra });
  it.each([
    ["tune --sessions", { sessions: [S] }],
    ["tune --population sessions:PATH --inject", { population: `sessions:${S}`, inject: "repeat,poll@10-20" }],
    ["tune --sessions --inject (grounded beside the simulated population)", { sessions: [S], inject: "repeat@10-20", labels: undefined }],
  ] as const)("%s: four shards merge into the unsharded report", async (_name, extra) => {
    const whole = tempDir();
    await quiet(() => tuneCommand(tuneBase({ ...extra, out: whole })));
    const parts = tempDir();
    for (let i = 1; i <= 4; i++) await quiet(() => tuneCommand(tuneBase({ ...extra, out: parts, shard: `${i}/4`, by: "sessions" })));
    const merged = tempDir();
    await quiet(() => mergeTuneCommand([parts], merged, true, false));
    const names = ["report.json", "report.md", "report.html"];
    // Grounded agents run under the default reaction grid: the parts carry every point, so the merge keeps its section.
    if ("inject" in extra) expect(readFileSync(join(whole, "report.json"), "utf8")).toContain('"reactionGrid"');
    expect(files(merged, names)).toEqual(files(whole, names));
  });

  const compareBase = (extra: Partial<CompareArgs>): CompareArgs => ({ targets: "openclaw-default,openclaw-enabled,gemini-cli", population: "default", agents: 2, seed: 3, workers: 1, force: true, json: false, ...extra });
  it.each([
    ["compare --sessions", { sessions: [S] }],
    ["compare --population sessions:PATH --inject", { population: `sessions:${S}`, inject: "ping-pong@10-20" }],
  ] as const)("%s: four shards merge into the unsharded report", async (_name, extra) => {
    const whole = tempDir();
    await quiet(() => compareCommand(compareBase({ ...extra, out: whole })));
    const parts = tempDir();
    for (let i = 1; i <= 4; i++) await quiet(() => compareCommand(compareBase({ ...extra, out: parts, shard: `${i}/4`, by: "sessions" })));
    const merged = tempDir();
    await quiet(() => mergeCompareCommand([parts], merged, false, true));
    const names = ["compare.json", "compare.md", "compare.html"];
    if ("inject" in extra) expect(readFileSync(join(whole, "compare.json"), "utf8")).toContain('"reactionGrid"');
    expect(files(merged, names)).toEqual(files(whole, names));
  });

  it("scan --shard I/N scans every N-th session of the listing: the shards' sessions are the whole scan's, once each", async () => {
    const ids = async (shard?: { index: number; of: number }): Promise<string[]> => {
      const out = tempDir();
      const stdout = process.stdout.write;
      process.stdout.write = (() => true) as typeof process.stdout.write;
      try {
        await scanCommand([S], { config: configFrom({}), configLabel: "OpenClaw defaults", target: REFERENCE_TARGET, json: true, out, force: true, ...(shard === undefined ? {} : { shard }) });
      } finally {
        process.stdout.write = stdout;
      }
      return (JSON.parse(readFileSync(join(out, "scan.json"), "utf8")) as { sessions: { id: string }[] }).sessions.map((x) => x.id);
    };
    const whole = await ids();
    const parts = [await ids({ index: 1, of: 3 }), await ids({ index: 2, of: 3 }), await ids({ index: 3, of: 3 })];
    expect(parts.flat().sort()).toEqual([...whole].sort());
    expect(parts[0]).toEqual(whole.filter((_, i) => i % 3 === 0));
  });

  it("a shard by session says that labels matching none of its sessions are this shard's view, not the whole run's", async () => {
    const labels = join(tempDir(), "labels.json");
    writeFileSync(labels, JSON.stringify(Object.fromEntries(readdirSync(S).map((f) => [f, "resolved"]))));
    let said = "";
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string) => ((said += chunk), true)) as typeof process.stderr.write;
    try {
      await tuneCommand(tuneBase({ sessions: [S], labels, out: tempDir(), shard: "1/4", by: "sessions" }));
    } finally {
      process.stderr.write = write;
    }
    expect(said).toMatch(/matched no session in this shard \(1\/4: it reads its slice of the sessions, and the other shards hold the rest\)/);
  });

  it("is refused by the plan, before anything runs: without sessions to slice, without --shard, and for an unknown kind (named in each command's words)", async () => {
    await expect(planTune(tuneBase({ out: tempDir(), shard: "1/2", by: "sessions" }))).rejects.toThrow(/--by sessions needs sessions to slice/);
    await expect(planTune(tuneBase({ out: tempDir(), sessions: [S], by: "sessions" }))).rejects.toThrow(/--by sessions goes with --shard/);
    await expect(planTune(tuneBase({ out: tempDir(), sessions: [S], shard: "1/2", by: "guards" }))).rejects.toThrow(/--by guards: expected configs or sessions/);
    await expect(planCompare(compareBase({ out: tempDir(), sessions: [S], shard: "1/2", by: "banana" }))).rejects.toThrow(/--by banana: expected guards or sessions/);
    await expect(planCompare(compareBase({ out: tempDir(), sessions: [S], shard: "1/2", by: "configs" }))).rejects.toThrow(/--by configs: expected guards or sessions/);
    const plan = await planCompare(compareBase({ sessions: [S], shard: "1/2", by: "guards" }));
    expect(plan.slice).toBeUndefined();
    expect(plan.grounding.shard).toEqual({ index: 1, of: 2 });
  });
});
