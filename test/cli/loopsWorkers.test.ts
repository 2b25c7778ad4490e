// `loops --workers N` (src/commands/loopsThreads.ts): the listing stays in one thread and each file's
// sessions are mined by a worker thread, with the inflated content the listing made handed over.
// The catalogue must be the same bytes for any number of threads: plain, gzip and multi-session
// files, an unreadable one, and --strict's first failure by place.
import { spawnSync } from "node:child_process";
import { availableParallelism } from "node:os";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loopsim } from "./run.js";
import { planLoops } from "../../src/api/index.js";

const DATASETS = "test/fixtures/sessions/datasets";
const LOOPING = "test/fixtures/real-loops";
const BAD = "test/fixtures/real-loops-bad";
const DIST_THREADS = new URL("../../dist/src/commands/loopsThreads.js", import.meta.url);

describe("loopsim loops --workers", () => {
  it("writes the same catalogue, notes and exit code for one, two and three threads (gzip, multi-session and unreadable files among them)", () => {
    const runs = ["1", "2", "3"].map((w) => loopsim(["loops", DATASETS, LOOPING, BAD, "--workers", w, "--json"]));
    const one = runs[0] as (typeof runs)[number];
    expect(one.code).toBe(1);
    const catalogue = JSON.parse(one.stdout) as { summary: { sessions: number; stretches: number; bySource: Record<string, unknown> }; unreadable: unknown[] };
    expect([catalogue.summary.sessions, catalogue.summary.stretches, catalogue.unreadable.length]).toEqual([9, 2, 1]);
    expect(Object.keys(catalogue.summary.bySource)).toEqual(expect.arrayContaining(["tau", "gpt-5-cam", "deepseek", "javac-loop.jsonl"]));
    for (const r of runs.slice(1)) expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: one.code, stdout: one.stdout, stderr: one.stderr });
  });

  it("stops with --strict at the same first unreadable session whatever the threads", () => {
    const runs = ["1", "2"].map((w) => loopsim(["loops", BAD, DATASETS, "--strict", "--workers", w]));
    expect(runs[0]?.code).toBe(2);
    expect(runs[0]?.stderr).toContain("broken.jsonl");
    expect(runs[1]).toEqual(runs[0]);
  });

  it("refuses a --workers that is no whole number from 1 to 256, and --workers with --merge, before reading anything", () => {
    for (const workers of [0, 1.5, 257, "2"]) expect(() => planLoops({ paths: [DATASETS], workers: workers as number })).toThrow(/^--workers must be a whole number from 1 to 256/);
    expect(() => planLoops({ merge: ["parts"], workers: 2 })).toThrow(/--workers belong to the runs that made them/);
    expect(loopsim(["loops", DATASETS, "--workers", "0"]).code).toBe(2);
  });

  const built = existsSync(DIST_THREADS);
  const cores = availableParallelism();
  if (!built || cores < 2) it(`SKIPPED: the threads themselves need ${built ? "two cores (this machine has one)" : "the compiled dist/ (npx tsc -p tsconfig.json)"}`, () => undefined);
  else {
    it("starts its threads under a V8 flag given to node (they inherit it), with the catalogue one thread writes", () => {
      // Handing process.execArgv to the worker made Node refuse a V8 flag: an internal error.
      const flagged = spawnSync(process.execPath, ["--max-old-space-size=512", "bin/loopsim.js", "loops", DATASETS, LOOPING, "--workers", "2", "--json"], { encoding: "utf8" });
      const one = loopsim(["loops", DATASETS, LOOPING, "--workers", "1", "--json"]);
      expect({ code: flagged.status, stdout: flagged.stdout, stderr: flagged.stderr }).toEqual({ code: one.code, stdout: one.stdout, stderr: one.stderr });
    });
    it("really starts threads for a listing of several files and gives the rows one thread gives", async () => {
      type Miner = { file(f: string, s: readonly unknown[]): Promise<void>; finish(): Promise<{ rows: unknown[] }>; threads(): number };
      const threads = (await import(DIST_THREADS.href)) as { sessionMiner(w: number, o: unknown): Miner; inThisThread(o: unknown): Miner };
      const refs = (await import(new URL("../../dist/src/import/sessionRefs.js", import.meta.url).href)) as { sessionRefs(p: string[]): Promise<{ refs: { ref: string; id: string; span?: unknown; format?: unknown }[] }> };
      const plan = planLoops({ paths: [DATASETS] });
      if (plan.kind !== "mine") throw new Error("a mine plan");
      const options = { parameters: plan.parameters, labels: plan.labels, strict: false };
      const listed = (await refs.sessionRefs([DATASETS])).refs.map((r, at) => ({ at, ...r }));
      const mine = async (miner: Miner) => {
        for (const s of listed) await miner.file(s.ref.replace(/#.*$/, ""), [s]);
        return { rows: (await miner.finish()).rows, threads: miner.threads() };
      };
      const two = await mine(threads.sessionMiner(2, options));
      const here = await mine(threads.inThisThread(options));
      expect(two.threads).toBe(2);
      expect(two.rows).toEqual(here.rows);
      expect(two.rows.length).toBe(listed.length);
    });
  }
});
