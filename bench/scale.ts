// `BENCH_ONLY=scale`: sessions per second and peak memory of scan, tune --sessions and compare
// --sessions at dataset sizes (folders of symlinked corpus copies, bench/sessionsAtScale.ts), one
// ADP file of 2,000 and one of 20,000 trajectories (the corpus's trajectories repeated), and from
// those a projection for 350,000 sessions on 1, 8 and 64 machines sharded by session. Each shard
// lists every session (the slices come from one listing), so the projection adds the listing's
// cost, measured as `scan --shard 1000/1000` (the listing and a thousandth of the work).
import { createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { farm, measure, type ScaleRun } from "./sessionsAtScale.js";

const CORPUS_ADP = join(import.meta.dirname, "..", "..", "..", "shared", "corpus", "adp");
const round = (x: number, places = 1): number => Math.round(x * 10 ** places) / 10 ** places;
const perSecond = (r: ScaleRun) => round(r.sessions / r.seconds, 0);

/** One ADP file of `n` trajectories: the corpus's, repeated, each with its own id. */
async function adpFile(dir: string, n: number): Promise<string> {
  const all: unknown[] = [];
  for (const f of readdirSync(CORPUS_ADP).filter((x) => x.endsWith(".json"))) {
    try {
      const v = JSON.parse(readFileSync(join(CORPUS_ADP, f), "utf8")) as unknown;
      if (Array.isArray(v)) all.push(...v);
    } catch {
      // not an ADP list (a README's neighbour): left out
    }
  }
  const file = join(dir, `adp-${n}.json`);
  const out = createWriteStream(file);
  out.write("[\n");
  for (let i = 0; i < n; i++) {
    const line = JSON.stringify({ ...(all[i % all.length] as object), id: `t${i}` }) + (i + 1 < n ? ",\n" : "\n");
    if (!out.write(line)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve) => out.end("]\n", () => resolve()));
  return file;
}

export interface ScaleResults {
  readonly grid: string;
  readonly targets: string;
  readonly bySize: readonly { readonly sessions: number; readonly scan: ScaleRun & { perSecond: number }; readonly tune: ScaleRun & { perSecond: number }; readonly compare: ScaleRun & { perSecond: number }; readonly listing: ScaleRun }[];
  readonly adp: { readonly small: ScaleRun; readonly large: ScaleRun; readonly timeRatio: number };
  readonly projection350k: Readonly<Record<string, { readonly tuneHours: number; readonly compareHours: number }>>;
}

export async function scaleBench(log: (line: string) => void): Promise<ScaleResults> {
  const sizes = (process.env.BENCH_SCALE_SIZES ?? "2000,20000,100000").split(",").map(Number).filter((n) => n > 0);
  const grid = process.env.BENCH_SCALE_GRID ?? "warningThreshold=5,10,20";
  const targets = process.env.BENCH_SCALE_TARGETS ?? "all";
  const bySize: ScaleResults["bySize"][number][] = [];
  for (const size of sizes) {
    const made = await farm(size);
    try {
      const out = join(made.dir, ".out");
      const scan = measure(["scan", made.dir, "--json"], made.sessions);
      const tune = measure(["tune", "--agents", "24", "--grid", grid, "--sessions", made.dir, "--out", out, "--force"], made.sessions);
      const compare = measure(["compare", "--targets", targets, "--agents", "24", "--sessions", made.dir, "--out", out, "--force"], made.sessions);
      const listing = measure(["scan", made.dir, "--shard", "1000/1000", "--json"], made.sessions);
      const row = { sessions: made.sessions, scan: { ...scan, perSecond: perSecond(scan) }, tune: { ...tune, perSecond: perSecond(tune) }, compare: { ...compare, perSecond: perSecond(compare) }, listing };
      bySize.push(row);
      log(`scale ${made.sessions} sessions: scan ${row.scan.perSecond}/s ${scan.peakRssMB} MB; tune --sessions ${row.tune.perSecond}/s ${tune.peakRssMB} MB; compare --sessions ${row.compare.perSecond}/s ${compare.peakRssMB} MB; listing ${listing.seconds} s`);
    } finally {
      rmSync(made.dir, { recursive: true, force: true });
    }
  }
  const dir = mkdtempSync(join(tmpdir(), "loopsim-bench-adp-"));
  let adp: ScaleResults["adp"];
  try {
    const small = measure(["scan", await adpFile(dir, 2000), "--json"], 2000);
    const large = measure(["scan", await adpFile(dir, 20000), "--json"], 20000);
    adp = { small, large, timeRatio: round(large.seconds / small.seconds, 2) };
    log(`scale ADP one file: 2,000 trajectories ${small.seconds} s ${small.peakRssMB} MB; 20,000 ${large.seconds} s ${large.peakRssMB} MB: time ratio ${adp.timeRatio} (goal 12 or less, memory 400 MB or less)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // From the largest size: the work per session, and the listing per session every shard pays.
  const big = bySize.at(-1);
  const projection350k: Record<string, { tuneHours: number; compareHours: number }> = {};
  if (big !== undefined) {
    const listingPerSession = big.listing.seconds / big.sessions;
    for (const machines of [1, 8, 64]) {
      const hours = (run: ScaleRun) => round((350_000 * listingPerSession + (350_000 / machines) * (run.seconds / run.sessions)) / 3600, 2);
      projection350k[String(machines)] = { tuneHours: hours(big.tune), compareHours: hours(big.compare) };
    }
    log(`scale projection for 350,000 sessions (from ${big.sessions}; 2 cores a machine, --by sessions): ${Object.entries(projection350k).map(([m, p]) => `${m} machine${m === "1" ? "" : "s"}: tune ${p.tuneHours} h, compare ${p.compareHours} h`).join("; ")}`);
  }
  return { grid, targets, bySize, adp, projection350k };
}
