// `npm run bench`: the engine's speed and memory, printed as a table and written to
// bench/results.json. Every ratio is measured within one run, the two sides interleaved, and
// reported as the median of several repetitions; nothing here is a pass/fail test.
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configFrom } from "../models/configResolution.js";
import { createEngine, engineStep, type HistoryKind } from "../models/engine.js";
import type { ToolEvent } from "../models/events.js";
import { DEFAULT_DIGEST, type DigestName } from "../models/digest.js";
import { stableSerialize } from "../models/stableSerialize.js";
import { writeFileAtomic } from "../src/io/atomicWrite.js";
import { FAMILY_NAMES } from "../src/sim/families.js";
import { simulate } from "../src/sim/simulate.js";
import { loopHeavyTrace, manyRunsTrace, mixedTrace, mixedTraceLines } from "./traces.js";
import { sessionsAtScale } from "./sessionsAtScale.js";
import { groundedAtScale } from "./groundedAtScale.js";
import { scaleBench } from "./scale.js";
import { realRuntimes } from "./realRuntimes.js";
import { cachedReleases, cacheRoot } from "../src/targets/openclaw/cache.js";
import { loadReleaseTarget } from "../src/targets/openclaw/releaseTarget.js";
import { REFERENCE_TARGET } from "../src/targets/reference.js";
import { runTarget, type Target } from "../src/targets/target.js";
import { loopsBench } from "./loopsBench.js";

const ROOT = join(import.meta.dirname, "..", "..");
const REPS = Number(process.env.BENCH_REPS ?? 5);
const STREAM_EVENTS = Number(process.env.BENCH_STREAM_EVENTS ?? 10_000_000);

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};
const round = (x: number, places = 2): number => Math.round(x * 10 ** places) / 10 ** places;

function timeMs(fn: () => void): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function runTrace(events: readonly ToolEvent[], historySize: number, history: HistoryKind = "incremental", digest: DigestName = DEFAULT_DIGEST): void {
  const state = createEngine(configFrom({ enabled: true, historySize }), { history, digest });
  for (const event of events) engineStep(state, event);
}

const callsIn = (events: readonly ToolEvent[]) => events.filter((e) => e.type === "call").length;

function serializeOnly(events: readonly ToolEvent[]): void {
  let total = 0;
  for (const e of events) {
    if (e.type !== "call" && e.type !== "outcome") continue;
    total += stableSerialize(e.params).length;
    if (e.type === "outcome") total += stableSerialize(e.result).length;
  }
  if (total < 0) throw new Error("unreachable");
}

/** Median over REPS of a/b, a and b timed alternately. */
function ratio(a: () => void, b: () => void): { ratio: number; aMs: number; bMs: number } {
  a();
  b(); // warm-up
  const rs: number[] = [];
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < REPS; i++) {
    const ta = timeMs(a);
    const tb = timeMs(b);
    as.push(ta);
    bs.push(tb);
    rs.push(ta / tb);
  }
  return { ratio: round(median(rs)), aMs: round(median(as)), bMs: round(median(bs)) };
}

function callsPerSec(events: readonly ToolEvent[]): number {
  runTrace(events, 30);
  const times = Array.from({ length: REPS }, () => timeMs(() => runTrace(events, 30)));
  return Math.round(callsIn(events) / (median(times) / 1000));
}

async function streamPeakRss(): Promise<{ peakRssMB: number; eventsPerSec: number; events: number }> {
  const dir = mkdtempSync(join(tmpdir(), "loopsim-bench-"));
  const file = join(dir, "trace.jsonl");
  try {
    await new Promise<void>((resolve, reject) => {
      const out = createWriteStream(file);
      out.on("error", reject);
      const lines = mixedTraceLines(STREAM_EVENTS / 2);
      const pump = (): void => {
        let chunk = "";
        for (let i = 0; i < 2000; i++) {
          const next = lines.next();
          if (next.done === true) {
            out.end(chunk, () => resolve());
            return;
          }
          chunk += next.value + "\n";
        }
        if (out.write(chunk)) setImmediate(pump);
        else out.once("drain", pump);
      };
      pump();
    });
    const start = process.hrtime.bigint();
    const result = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [join(ROOT, "bin", "loopsim.js"), "trace", file, "--json"], { env: { ...process.env, LOOPSIM_REPORT_RSS: "1" }, stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("error", reject);
      child.on("close", (code) => (code === 0 ? resolve(stderr) : reject(new Error(`trace exited ${code}: ${stderr}`))));
    });
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const kb = Number(/peak rss (\d+) kB/.exec(result)?.[1] ?? "NaN");
    return { peakRssMB: round(kb / 1024, 1), eventsPerSec: Math.round(STREAM_EVENTS / seconds), events: STREAM_EVENTS };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * loopsim against the newest cached OpenClaw release, on the same events, in one process, the two
 * engines timed alternately: OpenClaw's time / loopsim's time (above 1: loopsim is faster).
 */
async function vsOpenClaw(log: (line: string) => void): Promise<{ release: string; mixed: number; loopHeavy: number; manyRuns: number } | { skipped: string }> {
  const newest = cachedReleases().at(-1);
  if (newest === undefined) {
    const why = `no OpenClaw release in the cache (${cacheRoot()}); fetch one with: node bin/loopsim.js targets fetch openclaw@latest`;
    log(`vsOpenClaw              skipped: ${why}`);
    return { skipped: why };
  }
  let release: Target;
  try {
    release = await loadReleaseTarget(newest, () => undefined);
  } catch (error) {
    const why = `openclaw@${newest} did not load (${(error as Error).message})`;
    log(`vsOpenClaw              skipped: ${why}`);
    return { skipped: why };
  }
  const config = configFrom({ enabled: true });
  const traces = { mixed: mixedTrace(30_000), loopHeavy: loopHeavyTrace(30_000), manyRuns: manyRunsTrace(30_000) };
  const out = { release: release.name, mixed: 0, loopHeavy: 0, manyRuns: 0 };
  for (const name of ["mixed", "loopHeavy", "manyRuns"] as const) {
    const events = traces[name];
    out[name] = ratio(() => runTarget(release, config, events), () => runTarget(REFERENCE_TARGET, config, events)).ratio;
  }
  const verdict = (name: string, got: number, goal: number) => (got >= goal ? `${name} met` : `${name} missed by ${round(goal / got)}x`);
  log(`vsOpenClaw              ${release.name} time / loopsim time, 30k calls: mixed ${out.mixed}x  loopHeavy ${out.loopHeavy}x  manyRuns ${out.manyRuns}x  (goals 3, 100, 3: ${verdict("mixed", out.mixed, 3)}, ${verdict("loopHeavy", out.loopHeavy, 100)}, ${verdict("manyRuns", out.manyRuns, 3)}; README "Performance" says what the profile shows)`);
  return out;
}

async function main(): Promise<void> {
  const log = (line: string) => process.stdout.write(line + "\n");
  log(`loopsim bench: node ${process.version}, ${REPS} repetitions, medians`);
  if (process.env.BENCH_ONLY === "vsOpenClaw") {
    mergeResults({ vsOpenClaw: await vsOpenClaw(log) });
    return;
  }
  if (process.env.BENCH_ONLY === "scale") {
    mergeResults({ scale: await scaleBench(log) });
    return;
  }
  if (process.env.BENCH_ONLY === "sessions") {
    const only = await sessionsAtScale(log);
    mergeResults({ sessionsAtScale: only });
    return;
  }
  if (process.env.BENCH_ONLY === "grounded") {
    mergeResults({ groundedAtScale: await groundedAtScale(log) });
    return;
  }
  if (process.env.BENCH_ONLY === "realRuntimes") {
    mergeResults({ realRuntimes: await realRuntimes(log, REPS) });
    return;
  }
  if (process.env.BENCH_ONLY === "loops") {
    const only = await loopsBench(log);
    if (only !== undefined) mergeResults({ loops: only });
    return;
  }
  if (process.env.BENCH_ONLY === "cliStart") {
    mergeResults({ cliStart: cliStart(log) });
    return;
  }
  if (process.env.BENCH_ONLY === "stream") {
    const only = await streamPeakRss();
    log(`streamPeakRssMB         ${only.peakRssMB}  (loopsim trace --json over ${only.events} events, ${only.eventsPerSec} events/s; goal under 200)`);
    return;
  }
  const mixed = mixedTrace(100_000);
  const loopHeavy = loopHeavyTrace(100_000);
  const manyRuns = manyRunsTrace(100_000);
  const engineCallsPerSec = { mixed: callsPerSec(mixed), loopHeavy: callsPerSec(loopHeavy), manyRuns: callsPerSec(manyRuns) };
  log(`engineCallsPerSec       mixed ${engineCallsPerSec.mixed}  loopHeavy ${engineCallsPerSec.loopHeavy}  manyRuns ${engineCallsPerSec.manyRuns}  (goal 500000 on mixed)`);

  const small = mixedTrace(10_000, 2, 10_000);
  const vs30 = ratio(() => runTrace(small, 30, "scanning"), () => runTrace(small, 30));
  const vs3000 = ratio(() => runTrace(small, 3000, "scanning"), () => runTrace(small, 3000));
  const engineVsOracle = { historySize30: vs30.ratio, historySize3000: vs3000.ratio };
  log(`engineVsOracle          oracle time / engine time: historySize 30 -> ${vs30.ratio}, 3000 -> ${vs3000.ratio}  (goal at 3000: 10 or more)`);

  const digests = ratio(() => runTrace(mixed, 30, "incremental", "sha256"), () => runTrace(mixed, 30));
  const sha256VsWalk128 = digests.ratio;
  log(`sha256VsWalk128         engine time with the SHA-256 digest / with walk128 (the default), mixed: ${sha256VsWalk128}`);

  const ser = ratio(() => runTrace(mixed, 30), () => serializeOnly(mixed));
  const engineVsSerialization = ser.ratio;
  log(`engineVsSerialization   engine time / stable serialization of the same params and results: ${ser.ratio}  (goal 2.0 or less)`);

  const single = mixedTrace(60_000, 3, 60_000);
  const perCall: Record<string, number> = {};
  const sizes = [30, 300, 3000, 30_000];
  runTrace(single, 30);
  const samples = new Map<number, number[]>(sizes.map((s) => [s, []]));
  for (let i = 0; i < REPS; i++) for (const size of sizes) samples.get(size)?.push(timeMs(() => runTrace(single, size)));
  for (const size of sizes) perCall[String(size)] = round((median(samples.get(size) ?? []) * 1000) / callsIn(single), 3);
  const growthRatio = round((perCall["30000"] ?? 0) / (perCall["30"] ?? 1));
  const historyGrowth = { microsPerCall: perCall, ratio30000to30: growthRatio };
  log(`historyGrowth           us/call at historySize 30 ${perCall["30"]}, 300 ${perCall["300"]}, 3000 ${perCall["3000"]}, 30000 ${perCall["30000"]}; t(30000)/t(30) = ${growthRatio}  (goal 1.5 or less: ${growthRatio <= 1.5 ? "met" : `missed by ${round(growthRatio - 1.5)}`})`);

  const config = configFrom({ enabled: true });
  let attempts = 0;
  const simMs = timeMs(() => {
    for (let seed = 0; seed < 20; seed++) for (const family of FAMILY_NAMES) for (const model of ["small", "flagship"] as const) attempts += simulate({ family, seed, calls: 80, model }, config).summary.attempts;
  });
  const simulateCallsPerSec = Math.round(attempts / (simMs / 1000));
  log(`simulateCallsPerSec     ${simulateCallsPerSec}  (closed loop: agent, world, context model and engine)`);

  const tuneDir = mkdtempSync(join(tmpdir(), "loopsim-bench-tune-"));
  const tuneStart = process.hrtime.bigint();
  const tune = spawnSync(process.execPath, [join(ROOT, "bin", "loopsim.js"), "tune", "--out", tuneDir, "--force"], { encoding: "utf8" });
  const tuneDefaultSeconds = round(Number(process.hrtime.bigint() - tuneStart) / 1e9, 1);
  rmSync(tuneDir, { recursive: true, force: true });
  if (tune.status !== 0) throw new Error(`tune failed: ${tune.stderr}`);
  log(`tuneDefaultSeconds      ${tuneDefaultSeconds}  (the default sweep, as npm start runs it; goal under 120)`);

  const versus = await vsOpenClaw(log);

  const stream = await streamPeakRss();
  log(`streamPeakRssMB         ${stream.peakRssMB}  (loopsim trace --json over ${stream.events} events, ${stream.eventsPerSec} events/s; goal under 200)`);

  const atScale = await sessionsAtScale(log);
  const grounded = await groundedAtScale(log);
  const real = await realRuntimes(log, REPS);

  const results = { node: process.version, repetitions: REPS, engineCallsPerSec, engineVsOracle, sha256VsWalk128, engineVsSerialization, historyGrowth, simulateCallsPerSec, tuneDefaultSeconds, vsOpenClaw: versus, streamPeakRssMB: stream.peakRssMB, streamEventsPerSec: stream.eventsPerSec, sessionsAtScale: atScale, groundedAtScale: grounded, realRuntimes: real };
  // Merged, not replaced: the rows only a BENCH_ONLY run makes (scale, cliStart) stay.
  mergeResults(results);
  log("wrote bench/results.json");
}

/**
 * What one CLI start costs: `loopsim --version` and a bare `node -e 0`, interleaved. Every test
 * of the CLI and every line of a shell loop over sessions pays it, so it is worth keeping small:
 * the CLI loads a command's modules only when that command runs.
 */
function cliStart(log: (line: string) => void): { loopsimMs: number; nodeMs: number; ratio: number } {
  const run = (args: string[]) => timeMs(() => spawnSync(process.execPath, args, { stdio: "ignore" }));
  const loopsim: number[] = [];
  const node: number[] = [];
  run(["-e", "0"]);
  for (let i = 0; i < Math.max(REPS, 5) * 2; i++) {
    loopsim.push(run([join(ROOT, "bin", "loopsim.js"), "--version"]));
    node.push(run(["-e", "0"]));
  }
  const out = { loopsimMs: round(median(loopsim), 0), nodeMs: round(median(node), 0), ratio: round(median(loopsim) / median(node)) };
  log(`cliStart                loopsim --version ${out.loopsimMs} ms, node -e 0 ${out.nodeMs} ms: ${out.ratio}x a bare node start`);
  return out;
}

/** A partial run (BENCH_ONLY) updates its own keys of bench/results.json and keeps the rest. */
function mergeResults(part: Record<string, unknown>): void {
  const file = join(ROOT, "bench", "results.json");
  let previous: Record<string, unknown> = {};
  try {
    previous = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch {
    previous = {};
  }
  writeFileAtomic(file, JSON.stringify({ ...previous, ...part }, null, 2) + "\n");
}

await main();
