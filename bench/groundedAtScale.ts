// Real sessions run as agents with injected loops (`tune --population sessions:PATH --inject
// default`), as a user would run it: peak memory on a small and a five times larger folder (the
// corpus's files linked again and again), and the wall time with one worker thread and two,
// alternately, on the corpus itself. Nothing here passes or fails: the numbers go into bench/results.json.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { farm, measure, type ScaleRun } from "./sessionsAtScale.js";
import { DEFAULT_GRID } from "../src/tune/grid.js";

const ROOT = join(import.meta.dirname, "..", "..");
const CORPUS = join(ROOT, "..", "shared", "corpus");
const round = (x: number, places = 2): number => Math.round(x * 10 ** places) / 10 ** places;

export interface GroundedAtScale {
  readonly grid: string;
  readonly memory: { readonly small: ScaleRun; readonly large: ScaleRun; readonly ratio: number };
  readonly workers: { readonly oneWorkerSeconds: number; readonly twoWorkersSeconds: number; readonly speedup: number };
}

export async function groundedAtScale(log: (line: string) => void): Promise<GroundedAtScale | { skipped: string }> {
  if (!existsSync(CORPUS)) {
    const why = `../shared/corpus is not here (${CORPUS})`;
    log(`groundedAtScale         skipped: ${why}`);
    return { skipped: why };
  }
  const grid = process.env.BENCH_GROUNDED_GRID ?? "warningThreshold=5,10;criticalThreshold=16,20,30";
  const out = mkdtempSync(join(tmpdir(), "loopsim-bench-grounded-"));
  const args = (dir: string, workers: number, g: string) => ["tune", "--population", `sessions:${dir}`, "--inject", "default", "--grid", g, "--out", join(out, `report-${workers}`), "--force", "--workers", String(workers)];
  const small = await farm(Number(process.env.BENCH_GROUNDED_SMALL ?? 400));
  const large = await farm(Number(process.env.BENCH_GROUNDED_LARGE ?? 2000));
  try {
    const memSmall = measure(args(small.dir, 2, grid), small.sessions);
    const memLarge = measure(args(large.dir, 2, grid), large.sessions);
    log(`groundedTunePeakRssMB   grid "${grid}", --inject default: ${memSmall.sessions} sessions ${memSmall.peakRssMB} MB (${memSmall.seconds} s), ${memLarge.sessions} sessions ${memLarge.peakRssMB} MB (${memLarge.seconds} s): large/small ${round(memLarge.peakRssMB / memSmall.peakRssMB)}`);
    // Workers: the default grid (73 configs) on the corpus itself, one thread and two, alternately.
    const one: number[] = [];
    const two: number[] = [];
    for (let i = 0; i < 3; i++) {
      one.push(measure(args(CORPUS, 1, DEFAULT_GRID), small.sessions).seconds);
      two.push(measure(args(CORPUS, 2, DEFAULT_GRID), small.sessions).seconds);
    }
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[1] as number;
    const result: GroundedAtScale = {
      grid,
      memory: { small: memSmall, large: memLarge, ratio: round(memLarge.peakRssMB / memSmall.peakRssMB) },
      workers: { oneWorkerSeconds: med(one), twoWorkersSeconds: med(two), speedup: round(med(one) / med(two)) },
    };
    log(`groundedTuneWorkers     default grid (73 configs) on ../shared/corpus as agents: --workers 1 ${med(one)} s, --workers 2 ${med(two)} s: speed-up ${result.workers.speedup}`);
    return result;
  } finally {
    rmSync(small.dir, { recursive: true, force: true });
    rmSync(large.dir, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
}
