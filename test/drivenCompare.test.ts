// Runtimes' own CLIs (whole-trace targets) as rows of compare's real-outcomes figures: run
// open-loop on every session holding a stretch and on a seeded sample of the labelled sessions
// (the stopped shares rest on the sample alone), set against their model, left out of the
// closed-loop sections, refused where a closed-loop run is asked for. A stand-in target
// (test/fixtures/whole-trace-target.mjs) keeps most of it free of any CLI; the real qwen-code
// runs last, and says SKIPPED when it is not in the cache.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { until } from "./waitFor.js";
import { configFrom } from "../models/configResolution.js";
import type { ToolEvent } from "../models/events.js";
import { planCompare, runCompare, type CompareArgs } from "../src/commands/compare.js";
import { RealOutcomesRun, type RealOutcomes } from "../src/grounded/realOutcomes.js";
import { WholeTraceSample } from "../src/grounded/wholeTraceSample.js";
import { cacheRoot } from "../src/targets/openclaw/cache.js";
import { UserError } from "../src/io/errors.js";
import { realOutcomesMarkdown } from "../src/reportParts/realOutcomesSection.js";
import { findBuiltInTarget } from "../src/targets/registry.js";
import { isDrivenRuntimeCached } from "../src/targets/runtimes/drivenRuntimes.js";
import { drivenRuntimeRefOf } from "../src/targets/targetRef.js";
import { runTarget, type Target } from "../src/targets/target.js";
import { loopsim, tempDir } from "./cli/run.js";

const made: string[] = [];
const scratch = (): string => {
  const dir = tempDir();
  made.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const pair = (i: number, tool: string, params: unknown, result: string): ToolEvent[] => [
  { type: "call", runId: "r", callId: `c${i}`, tool, params },
  { type: "outcome", runId: "r", callId: `c${i}`, tool, params, result },
];
const work = (n: number) => Array.from({ length: n }, (_, k) => pair(k, "read", { path: `src/m${k}.ts` }, `module ${"abcdefghijklmnop"[k]}`)).flat();
/** The same call, the same answer, 6 times: a stretch, and Goose at 5 stops it. */
const loop = () => [...work(2), ...Array.from({ length: 6 }, (_, k) => pair(2 + k, "exec", { command: "make" }, "make: *** No rule to make target")).flat()];

/** A whole-trace stand-in for a runtime's CLI: Goose's verdicts, each trace it answers counted. */
function wholeTrace(seen: number[]): Target {
  const goose = findBuiltInTarget("goose:5") as Target;
  return {
    ...goose,
    name: "cli",
    start: () => {
      throw new Error("whole traces only");
    },
    wholeTrace: (config, events) => (seen.push(events.length), runTarget(goose, config, events)),
    // Shorter traces answer later: the runs finish out of the order they started in.
    wholeTraceAsync: async (config, events) => {
      await new Promise((r) => setTimeout(r, 30 - events.length));
      seen.push(events.length);
      return runTarget(goose, config, events);
    },
  };
}

describe("a whole-trace row's sessions", () => {
  const sessions = Array.from({ length: 12 }, (_, k) => ({ id: `s${k}`, events: k % 4 === 0 ? loop() : work(3 + (k % 3)), label: (k % 2 === 0 ? "resolved" : "unresolved") as "resolved" | "unresolved" }));
  const runOf = (order: typeof sessions, size: number, seen: number[] = []): RealOutcomesRun => {
    const goose = findBuiltInTarget("goose:5") as Target;
    const run = new RealOutcomesRun(
      [
        { name: "cli", shipped: true, target: wholeTrace(seen), config: configFrom({ enabled: true }), model: { name: "goose:5", target: goose } },
        { name: "goose:5", shipped: true, target: goose, config: configFrom({ enabled: true }) },
      ],
      { size, seed: 7 },
    );
    for (const s of order) run.session(s.events, s.label, s.id);
    return run;
  };
  const measure = (order: typeof sessions, size: number, seen: number[] = []): RealOutcomes => runOf(order, size, seen).finish();

  it("runs every session holding a stretch and the sample; its stopped shares rest on the sample alone; it agrees with its model", () => {
    const seen: number[] = [];
    const r = measure(sessions, 4, seen);
    const [cli, model] = r.rows;
    // 3 sessions hold a stretch; 4 sampled, some of which may hold one: between 4 and 7 runs.
    expect(seen.length).toBeGreaterThanOrEqual(4);
    expect(seen.length).toBeLessThanOrEqual(7);
    expect(cli?.wholeTrace).toMatchObject({ sessions: seen.length, stretchSessions: 3, sample: { n: 4, of: 12, seed: 7 }, failed: { sessions: 0 } });
    // The catch rate rests on every stretch, as the in-process row's does.
    expect(cli?.caught).toEqual(model?.caught);
    expect(cli?.callsSaved).toEqual(model?.callsSaved);
    expect((cli?.resolvedStopped.n ?? 0) + (cli?.unresolvedStopped.n ?? 0)).toBe(4);
    expect(model?.resolvedStopped.n).toBe(6);
    expect(cli?.wholeTrace?.model).toMatchObject({ name: "goose:5", sameFirstStop: { k: seen.length, n: seen.length }, onlyRuntime: 0, onlyModel: 0, differentCalls: 0 });
    expect(model?.wholeTrace).toBeUndefined();
  });

  it("draws the same sample whatever order the sessions stream in, and the same figures from the same seed, one run at a time or several", async () => {
    const drawn = (order: typeof sessions) => {
      const sample = new WholeTraceSample<unknown>({ size: 5, seed: 3 });
      order.forEach((s, at) => sample.offer({ at, id: s.id, label: s.label, events: s.events, stretches: [] }));
      const { sessions: kept } = sample.finish();
      return kept.map((s) => s.id).sort();
    };
    expect(drawn([...sessions].reverse())).toEqual(drawn(sessions));
    expect(drawn(sessions)).toHaveLength(5);
    expect(JSON.stringify(measure(sessions, 4))).toBe(JSON.stringify(measure(sessions, 4)));
    // Several runs at once (a target that answers without blocking, finishing out of order) tally in the same order: the same bytes.
    const slow = runOf(sessions, 4);
    expect(JSON.stringify(await slow.finishAsync(3))).toBe(JSON.stringify(measure(sessions, 4)));
    // A session the CLI cannot run (a user error: it failed or timed out) is left out of its row and named; the others stand.
    const goose = findBuiltInTarget("goose:5") as Target;
    const flaky: Target = { ...wholeTrace([]), wholeTrace: (config, events) => {
      if (events.length === loop().length) throw new UserError("the driven run did not finish (exit 1)");
      return runTarget(goose, config, events);
    } };
    const run = new RealOutcomesRun([{ name: "cli", shipped: true, target: flaky, config: configFrom({ enabled: true }) }], { size: 12, seed: 7 });
    for (const s of sessions) run.session(s.events, s.label, s.id);
    const withFailures = run.finish();
    const failed = withFailures.rows[0];
    expect(realOutcomesMarkdown(withFailures).join("\n")).toContain("`cli`: 3 sessions (holding 3 stretches) could not be run by the CLI and are left out of its row");
    expect(failed?.wholeTrace?.failed).toMatchObject({ sessions: 3, stretches: 3 });
    expect(failed?.wholeTrace?.failed.reasons[0]).toMatch(/^s0: the driven run did not finish/);
    expect(failed?.caught.n).toBe(0);
    expect((failed?.resolvedStopped.n ?? 0) + (failed?.unresolvedStopped.n ?? 0)).toBe(9);
    // A sample of none: only the sessions holding a stretch run, and no stopped share is claimed.
    const none = measure(sessions, 0).rows[0];
    expect(none?.resolvedStopped.n).toBe(0);
    expect(none?.wholeTrace?.sessions).toBe(3);
  });
});

const FIXTURE = ["--population", "sessions:test/fixtures/real-loops", "--loops", "real", "--labels", "test/fixtures/real-loops-labels.json"];
const FAKE = "./test/fixtures/whole-trace-target.mjs";

describe("compare --loops real with a whole-trace row", () => {
  it("puts it in the real-outcomes figures only, says how it was measured, and gives the same bytes twice", () => {
    const outs = [scratch(), scratch()];
    for (const out of outs) {
      const r = loopsim(["compare", ...FIXTURE, "--targets", `none,${FAKE}`, "--reaction-grid", "none", "--whole-trace-sample", "1", "--out", out]);
      expect(r.code, r.stderr).toBe(0);
    }
    const [a, b] = outs.map((o) => readFileSync(join(o as string, "compare.json"), "utf8"));
    expect(a).toBe(b);
    const json = JSON.parse(a as string) as { rowNames: string[]; realOutcomes: RealOutcomes; reproduce: string };
    expect(json.rowNames).toEqual(["none"]);
    expect(json.realOutcomes.rows.map((r) => r.name)).toEqual(["none", FAKE]);
    expect(json.realOutcomes.rows[1]?.wholeTrace).toMatchObject({ stretchSessions: 2, sample: { n: 1, of: 3, seed: 1 } });
    expect(json.reproduce).toContain("--whole-trace-sample 1");
    const md = readFileSync(join(outs[0] as string, "compare.md"), "utf8");
    expect(md).toMatch(/measured on a seeded sample of 1 of 3 \|/);
    expect(md).toContain("The closed-loop sections of this report (real sessions as agents, real stuck stretches, by family) leave them out");
    expect(md).toContain("is a runtime's own CLI: it is in the section **Real loops, real outcomes** only");
    expect(readFileSync(join(outs[0] as string, "compare.html"), "utf8")).toContain("measured on a seeded sample of 1 of 3");
  });

  it("refuses, with one message and exit 2, what a whole-trace row cannot join", async () => {
    const base: CompareArgs = { targets: `none,${FAKE}`, population: "sessions:test/fixtures/real-loops", agents: 480, seed: 1, loops: "real", labels: "test/fixtures/real-loops-labels.json", reactionGrid: "none" };
    const cases: [CompareArgs, string][] = [
      [{ ...base, population: "default", loops: undefined, labels: undefined, reactionGrid: undefined }, "--population sessions:PATH --loops real --reaction-grid none"],
      [{ ...base, reactionGrid: undefined }, "add --reaction-grid none"],
      [{ ...base, inject: "default" }, "leave --inject out"],
      [{ ...base, targets: FAKE }, "every row is a runtime's own CLI"],
      [{ ...base, targets: "none", wholeTraceSample: 3 }, "no row of --targets is one"],
      [{ ...base, wholeTraceSample: -1 }, "--whole-trace-sample must be a whole number from 0"],
    ];
    for (const [args, says] of cases) await expect((async () => runCompare(await planCompare(args)))(), says).rejects.toThrow(says);
    // A runtime's CLI is refused by its name, before anything is loaded or fetched; on the command line, one line and exit 2.
    await expect(planCompare({ ...base, targets: "none,qwen-code@0.24.4", population: "default", loops: undefined, labels: undefined })).rejects.toThrow("here use the runtime's model instead (qwen-code)");
    const r = loopsim(["compare", "--targets", "none,qwen-code@0.24.4", "--agents", "3"]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });
});

const QWEN = "qwen-code@0.24.4";
const haveQwen = isDrivenRuntimeCached(drivenRuntimeRefOf(QWEN));
if (!haveQwen) console.log(`SKIPPED: compare with ${QWEN} as a row: it is not in the cache (${cacheRoot()}); fetch it with: loopsim targets fetch ${QWEN}`);

/** Whether any process of the group is alive (zombies aside). */
function groupLives(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}


describe.skipIf(!haveQwen)(`compare with ${QWEN} as a row`, () => {
  it("drives the CLI on the sessions holding a stretch, and sets it against its model", () => {
    const r = loopsim(["compare", ...FIXTURE, "--targets", `${QWEN},qwen-code`, "--reaction-grid", "none", "--whole-trace-sample", "0", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as { realOutcomes: RealOutcomes };
    const [cli, model] = json.realOutcomes.rows;
    expect(cli?.wholeTrace).toMatchObject({ sessions: 2, stretchSessions: 2, failed: { sessions: 0 }, model: { name: "qwen-code", sameFirstStop: { k: 2, n: 2 } } });
    expect(cli?.caught).toEqual(model?.caught);
  }, 180_000);

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`${signal === "SIGINT" ? "Ctrl-C (SIGINT to the process group)" : "SIGTERM to loopsim alone"} mid-run leaves no CLI running and no scratch folder`, async () => {
      // A cache of our own that sees the cached runtimes, so its runtimes-sandbox is ours alone.
      const cache = scratch();
      symlinkSync(join(cacheRoot(), "runtimes"), join(cache, "runtimes"));
      const sandbox = join(cache, "runtimes-sandbox");
      const tmp = scratch();
      // One long labelled session (300 steps: far longer to finish than the waits below), drawn as the sample of one.
      const sessions = scratch();
      const long = Array.from({ length: 300 }, (_, k) => pair(k, "read_file", { file_path: `/w/f${k}.txt` }, `text ${k}`)).flat();
      writeFileSync(join(sessions, "long.jsonl"), long.map((e) => JSON.stringify(e)).join("\n") + "\n");
      const labels = join(scratch(), "labels.json");
      writeFileSync(labels, JSON.stringify({ "long.jsonl": "resolved" }));
      const args = ["compare", "--population", `sessions:${sessions}`, "--loops", "real", "--labels", labels, "--targets", `${QWEN},none`, "--reaction-grid", "none", "--whole-trace-sample", "1"];
      const child = spawn(process.execPath, [join(import.meta.dirname, "..", "bin", "loopsim.js"), ...args], {
        env: { ...process.env, LOOPSIM_CACHE: cache, TMPDIR: tmp },
        stdio: "ignore",
        detached: true,
      });
      const pid = child.pid as number;
      const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));
      const runs = () => (existsSync(sandbox) ? readdirSync(sandbox).filter((n) => n.startsWith("run-")) : []);
      expect(await until(() => runs().length > 0, 120_000)).toBe(true);
      if (signal === "SIGINT") process.kill(-pid, "SIGINT");
      else process.kill(pid, "SIGTERM");
      await closed;
      // Its child notices and stops its CLI, then removes the folder: wait for the whole group.
      expect(await until(() => !groupLives(pid), 8_000), "a process of loopsim's group is left").toBe(true);
      expect(await until(() => runs().length === 0, 2_000), `left ${runs().join(", ")}`).toBe(true);
      expect(readdirSync(tmp).filter((n) => n.startsWith("loopsim-"))).toEqual([]);
      // Nor any process of the runtime's (each CLI runs in a group of its own, under our cache).
      const strays = readdirSync("/proc").filter((p) => /^\d+$/.test(p) && (() => {
        try {
          return readFileSync(`/proc/${p}/cmdline`, "utf8").includes(cache);
        } catch {
          return false;
        }
      })());
      expect(strays).toEqual([]);
    }, 180_000);
  }
});
