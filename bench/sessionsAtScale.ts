// Sessions at the scale of public datasets: a folder of N sessions made by linking the shared
// corpus's files again and again (symlinks, so 20,000 sessions cost no disk), then `scan` and
// `tune --sessions` on it as a user would run them, measuring peak memory (the process's own
// report, LOOPSIM_REPORT_RSS) and wall time; side by side in one run: a small and a large corpus,
// one worker and two. Nothing here passes or fails: the numbers go into bench/results.json.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { sessionRefs } from "../src/import/sessionRefs.js";
import { filesUnder } from "../src/io/filesUnder.js";

const ROOT = join(import.meta.dirname, "..", "..");
const CORPUS = join(ROOT, "..", "shared", "corpus");

export interface ScaleRun {
  readonly sessions: number;
  readonly seconds: number;
  readonly peakRssMB: number;
}

export interface SessionsAtScale {
  readonly small: number;
  readonly large: number;
  readonly grid: string;
  readonly scan: { readonly small: ScaleRun; readonly large: ScaleRun; readonly memoryRatio: number };
  readonly tune: { readonly small: ScaleRun; readonly large: ScaleRun; readonly memoryRatio: number };
  readonly tuneWorkers: { readonly sessions: number; readonly oneWorkerSeconds: number; readonly twoWorkersSeconds: number; readonly speedup: number };
}

const round = (x: number, places = 2): number => Math.round(x * 10 ** places) / 10 ** places;

/** A folder holding at least `wanted` sessions: copies of the corpus, each file a symlink. */
export async function farm(wanted: number): Promise<{ dir: string; sessions: number }> {
  const perCopy = (await sessionRefs([CORPUS])).refs.length;
  const copies = Math.ceil(wanted / perCopy);
  const dir = mkdtempSync(join(tmpdir(), "loopsim-bench-sessions-"));
  const files = filesUnder([CORPUS], (_p, name) => /\.(jsonl|traj|json)$/.test(name));
  for (let c = 0; c < copies; c++) {
    for (const file of files) {
      const link = join(dir, `copy-${c}`, relative(CORPUS, file));
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(file, link);
    }
  }
  return { dir, sessions: copies * perCopy };
}

export function measure(args: readonly string[], sessions: number): ScaleRun {
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, [join(ROOT, "bin", "loopsim.js"), ...args], { encoding: "utf8", env: { ...process.env, LOOPSIM_REPORT_RSS: "1" }, maxBuffer: 1024 * 1024 * 1024 });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (run.status !== 0) throw new Error(`loopsim ${args.join(" ")} exited ${run.status}: ${run.stderr.split("\n").slice(-3).join(" ")}`);
  const kb = Number(/peak rss (\d+) kB/.exec(run.stderr)?.[1] ?? "NaN");
  return { sessions, seconds: round(seconds, 1), peakRssMB: round(kb / 1024, 1) };
}

export async function sessionsAtScale(log: (line: string) => void): Promise<SessionsAtScale | { skipped: string }> {
  if (!existsSync(CORPUS)) {
    const why = `../shared/corpus is not here (${CORPUS})`;
    log(`sessionsAtScale         skipped: ${why}`);
    return { skipped: why };
  }
  const small = Number(process.env.BENCH_SESSIONS_SMALL ?? 2000);
  const large = Number(process.env.BENCH_SESSIONS_LARGE ?? 20000);
  // The default grid (73 configs), as the goal is stated; BENCH_TUNE_GRID names a smaller one for
  // a quicker look (20,000 sessions under the default grid take about 8 minutes on two cores).
  const grid = process.env.BENCH_TUNE_GRID ?? "default";
  const smallFarm = await farm(small);
  const largeFarm = await farm(large);
  try {
    const scanSmall = measure(["scan", smallFarm.dir, "--json"], smallFarm.sessions);
    const scanLarge = measure(["scan", largeFarm.dir, "--json"], largeFarm.sessions);
    const gridArgs = grid === "default" ? [] : ["--grid", grid];
    const tuneArgs = (dir: string, workers: number) => ["tune", "--agents", "24", ...gridArgs, "--sessions", dir, "--out", join(dir, `.report-${workers}`), "--force", "--workers", String(workers)];
    const tuneSmall = measure(tuneArgs(smallFarm.dir, 2), smallFarm.sessions);
    const tuneLarge = measure(tuneArgs(largeFarm.dir, 2), largeFarm.sessions);
    // Workers: the default grid (where replaying sessions is the work) with one and two threads,
    // alternately, on a corpus of BENCH_WORKERS_SESSIONS.
    const workersFarm = await farm(Number(process.env.BENCH_WORKERS_SESSIONS ?? 1000));
    const defaultGrid = (workers: number) => ["tune", "--agents", "24", "--sessions", workersFarm.dir, "--out", join(workersFarm.dir, `.report-${workers}`), "--force", "--workers", String(workers)];
    const one: number[] = [];
    const two: number[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        one.push(measure(defaultGrid(1), workersFarm.sessions).seconds);
        two.push(measure(defaultGrid(2), workersFarm.sessions).seconds);
      }
    } finally {
      rmSync(workersFarm.dir, { recursive: true, force: true });
    }
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[1] as number;
    const result: SessionsAtScale = {
      small: smallFarm.sessions,
      large: largeFarm.sessions,
      grid,
      scan: { small: scanSmall, large: scanLarge, memoryRatio: round(scanLarge.peakRssMB / scanSmall.peakRssMB) },
      tune: { small: tuneSmall, large: tuneLarge, memoryRatio: round(tuneLarge.peakRssMB / tuneSmall.peakRssMB) },
      tuneWorkers: { sessions: workersFarm.sessions, oneWorkerSeconds: med(one), twoWorkersSeconds: med(two), speedup: round(med(one) / med(two)) },
    };
    log(`sessionsScanPeakRssMB   ${scanSmall.sessions} sessions ${scanSmall.peakRssMB} MB (${scanSmall.seconds} s), ${scanLarge.sessions} sessions ${scanLarge.peakRssMB} MB (${scanLarge.seconds} s): large/small ${result.scan.memoryRatio}  (goals: under 400 MB, ratio 1.3 or less)`);
    log(`sessionsTunePeakRssMB   grid "${grid}": ${tuneSmall.sessions} sessions ${tuneSmall.peakRssMB} MB (${tuneSmall.seconds} s), ${tuneLarge.sessions} sessions ${tuneLarge.peakRssMB} MB (${tuneLarge.seconds} s): large/small ${result.tune.memoryRatio}  (goals: under 400 MB, ratio 1.3 or less)`);
    log(`sessionsTuneWorkers     tune --sessions (default grid, 73 configs) on ${workersFarm.sessions} sessions: --workers 1 ${med(one)} s, --workers 2 ${med(two)} s: speed-up ${result.tuneWorkers.speedup}  (goal 1.6 or more)`);
    return result;
  } finally {
    rmSync(smallFarm.dir, { recursive: true, force: true });
    rmSync(largeFarm.dir, { recursive: true, force: true });
  }
}
