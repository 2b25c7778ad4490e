// `loopsim loops` over every session of ../shared/datasets (issue 35), against its floor: reading
// the same files and nothing more, each gunzipped and JSON.parse'd whole, one at a time, on one
// core. The run is the CLI as a user runs it (one process, its own peak memory reported by
// LOOPSIM_REPORT_RSS); memory is flat when the whole run's peak is close to the peak over the one
// dataset folder that holds the largest session (what any run must hold at once). The ratio is printed and recorded, never asserted (goal: within 3x).
// Two runs, timed alternately in one bench: `--workers 1`, one core like the floor (the goal's
// comparison: the CPU loops needs per byte), and the default, one worker thread per core (what a
// user waits for on this machine; it spends more CPU, each thread compiling the code again).
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { sessionRefs } from "../src/import/sessionRefs.js";

const ROOT = join(import.meta.dirname, "..", "..");
const DATASETS = join(ROOT, "..", "shared", "datasets");
/** The dataset holding the largest session file: a run whose memory is flat peaks over all datasets no higher than over it. */
const SMALL = "mini-swe-agent-gemini-3-pro";

export interface LoopsBench {
  readonly sessions: number;
  readonly files: number;
  readonly floorSeconds: number;
  /** `--workers 1`: one core, as the floor. */
  readonly loopsSeconds: number;
  readonly ratio: number;
  readonly peakRssMB: number;
  readonly smallPeakRssMB: number;
  readonly memoryRatio: number;
  /** The default: one worker thread per core (`cores` of them). */
  readonly threaded: { readonly cores: number; readonly seconds: number; readonly ratio: number; readonly peakRssMB: number; readonly smallPeakRssMB: number; readonly memoryRatio: number };
}

const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

/** Gunzip and JSON.parse every session file loops reads (listed as loops lists them, untimed), timed. */
async function floor(): Promise<{ seconds: number; files: number }> {
  const files = [...new Set((await sessionRefs([DATASETS])).refs.map((r) => r.ref.replace(/#.*$/, "")))];
  const start = process.hrtime.bigint();
  for (const file of files) {
    const raw = readFileSync(file);
    const text = (file.endsWith(".gz") ? gunzipSync(raw) : raw).toString("utf8");
    if (/\.jsonl(\.gz)?$/.test(file)) for (const line of text.split("\n")) line.trim() === "" || JSON.parse(line);
    else JSON.parse(text);
  }
  return { seconds: Number(process.hrtime.bigint() - start) / 1e9, files: files.length };
}

function loops(path: string, workers: string[]): { seconds: number; peakRssMB: number; sessions: number } {
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, [join(ROOT, "bin", "loopsim.js"), "loops", path, "--json", ...workers], { encoding: "utf8", env: { ...process.env, LOOPSIM_REPORT_RSS: "1" }, maxBuffer: 1024 * 1024 * 1024 });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (run.status !== 0) throw new Error(`loops ${path} exited ${run.status}: ${run.stderr.slice(0, 500)}`);
  const kb = Number(/peak rss (\d+) kB/.exec(run.stderr)?.[1] ?? Number.NaN);
  const sessions = (JSON.parse(run.stdout) as { summary: { sessions: number } }).summary.sessions;
  return { seconds, peakRssMB: kb / 1024, sessions };
}

export async function loopsBench(log: (line: string) => void): Promise<LoopsBench | undefined> {
  if (!statSync(DATASETS, { throwIfNoEntry: false })?.isDirectory() || !readdirSync(DATASETS).includes(SMALL)) {
    log(`loops                   SKIPPED: needs ${DATASETS} (the public datasets)`);
    return undefined;
  }
  const f = await floor();
  const one = ["--workers", "1"];
  const whole = loops(DATASETS, one);
  const threaded = loops(DATASETS, []);
  const small = loops(join(DATASETS, SMALL), one);
  const smallThreaded = loops(join(DATASETS, SMALL), []);
  const result: LoopsBench = {
    sessions: whole.sessions,
    files: f.files,
    floorSeconds: round(f.seconds, 1),
    loopsSeconds: round(whole.seconds, 1),
    ratio: round(whole.seconds / f.seconds),
    peakRssMB: round(whole.peakRssMB, 1),
    smallPeakRssMB: round(small.peakRssMB, 1),
    memoryRatio: round(whole.peakRssMB / small.peakRssMB),
    threaded: {
      cores: availableParallelism(),
      seconds: round(threaded.seconds, 1),
      ratio: round(threaded.seconds / f.seconds),
      peakRssMB: round(threaded.peakRssMB, 1),
      smallPeakRssMB: round(smallThreaded.peakRssMB, 1),
      memoryRatio: round(threaded.peakRssMB / smallThreaded.peakRssMB),
    },
  };
  log(`loops                   ${result.sessions} sessions (${result.files} files) with --workers 1 in ${result.loopsSeconds} s; floor (gunzip + JSON.parse, one core) ${result.floorSeconds} s: ratio ${result.ratio}x (goal 3x); peak RSS ${result.peakRssMB} MB vs ${result.smallPeakRssMB} MB over ${SMALL} alone: ${result.memoryRatio}x`);
  const t = result.threaded;
  log(`loops (threads)         the default, ${t.cores} worker threads (one per core): ${t.seconds} s, ${t.ratio}x the one-core floor; peak RSS ${t.peakRssMB} MB vs ${t.smallPeakRssMB} MB over ${SMALL} alone: ${t.memoryRatio}x`);
  return result;
}
