// Real runtimes' speed (`BENCH_ONLY=realRuntimes npm run bench`, and part of the full bench):
// - each in-process runtime (Gemini CLI's own LoopDetectionService) against its model: the
//   one-time load, then the time of one trace on each, interleaved, and their ratio;
// - driven CLIs: probes per minute with 1 CLI process at a time and with N side by side (each in
//   its own sandbox, scratch folder and scripted model).
// A runtime that is not in the cache is reported as skipped, with the command that fetches it.
import { availableParallelism } from "node:os";
import { configFrom } from "../models/configResolution.js";
import { checkAgreement, defaultDrivenParallel, drivenSubject } from "../src/agreement/agreement.js";
import { PROBES } from "../src/agreement/probeSet.js";
import { findBuiltInTarget } from "../src/targets/registry.js";
import { isDrivenRuntimeCached, loadDrivenRuntime } from "../src/targets/runtimes/drivenRuntimes.js";
import { drivenRuntimeRefOf } from "../src/targets/targetRef.js";
import { loadGeminiTarget } from "../src/targets/runtimes/geminiCore.js";
import { readRuntimeManifest } from "../src/targets/runtimes/packageCache.js";
import { sandboxUnavailable } from "../src/targets/runtimes/osSandbox.js";
import { runTarget, type Target } from "../src/targets/target.js";
import { mixedTrace } from "./traces.js";

const round = (x: number, places = 2): number => Math.round(x * 10 ** places) / 10 ** places;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const seconds = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e9;

export interface RealRuntimeBench {
  readonly inProcess: Record<string, { loadSeconds: number; traceMs: number; modelTraceMs: number; ratio: number; bestRatio: number } | { skipped: string }>;
  readonly driven: Record<string, { probes: number; parallel: number; perMinute1: number; perMinuteN: number; speedup: number } | { skipped: string }>;
}

export async function realRuntimes(log: (line: string) => void, reps = 5): Promise<RealRuntimeBench> {
  const inProcess: RealRuntimeBench["inProcess"] = {};
  const gemini = process.env.BENCH_GEMINI ?? "0.61.0";
  if (readRuntimeManifest("gemini-cli", gemini) === undefined) inProcess[`gemini-cli@${gemini}`] = { skipped: `not cached: loopsim targets fetch gemini-cli@${gemini}` };
  else {
    const loadStart = process.hrtime.bigint();
    const real = await loadGeminiTarget(gemini, () => undefined);
    const loadSeconds = round(seconds(loadStart), 1);
    const model = findBuiltInTarget("gemini-cli") as Target;
    const trace = mixedTrace(2_000, 4, 50);
    const config = configFrom({});
    const time = (target: Target) => {
      const start = process.hrtime.bigint();
      runTarget(target, config, trace);
      return seconds(start) * 1000;
    };
    time(real);
    time(model);
    const realMs: number[] = [];
    const modelMs: number[] = [];
    for (let i = 0; i < reps; i++) {
      realMs.push(time(real));
      modelMs.push(time(model));
    }
    // The fastest of each too: on a shared machine a median of a few milliseconds swings with the
    // load (1.0 to 2.3 seen on one busy 2-core machine), the fastest much less (1.3 to 1.4).
    const best = round(Math.min(...realMs) / Math.min(...modelMs));
    const row = { loadSeconds, traceMs: round(median(realMs)), modelTraceMs: round(median(modelMs)), ratio: round(median(realMs) / median(modelMs)), bestRatio: best };
    inProcess[`gemini-cli@${gemini}`] = row;
    log(`realGeminiVsModel       gemini-cli@${gemini}: loaded once in ${row.loadSeconds} s (once per process: every later trace reuses it); a trace of ${trace.length} events ${row.traceMs} ms, its model ${row.modelTraceMs} ms: ratio ${row.ratio}, fastest against fastest ${best}  (goal 2 or less)`);
  }
  const driven: RealRuntimeBench["driven"] = {};
  const names = (process.env.BENCH_DRIVEN ?? "qwen-code@0.24.4").split(",").filter((n) => n !== "");
  const noSandbox = sandboxUnavailable();
  const probes = PROBES.filter((p) => ["repeat-3", "repeat-4", "repeat-5", "parallel-2", "parallel-3", "alternate-6", "shell-6", "error-5"].includes(p.id));
  const parallel = defaultDrivenParallel(availableParallelism());
  for (const name of names) {
    if (noSandbox !== undefined) driven[name] = { skipped: noSandbox };
    else if (!isDrivenRuntimeCached(drivenRuntimeRefOf(name))) driven[name] = { skipped: `not cached: loopsim targets fetch ${name}` };
    else {
      const runtime = await loadDrivenRuntime(drivenRuntimeRefOf(name), () => undefined);
      const model = findBuiltInTarget(drivenRuntimeRefOf(name).runtime) as Target;
      const perMinute = async (n: number) => {
        const start = process.hrtime.bigint();
        await checkAgreement(model, drivenSubject(runtime, n), probes);
        return round((probes.length / seconds(start)) * 60, 1);
      };
      const perMinute1 = await perMinute(1);
      const perMinuteN = await perMinute(parallel);
      driven[name] = { probes: probes.length, parallel, perMinute1, perMinuteN, speedup: round(perMinuteN / perMinute1) };
      log(`drivenProbesPerMinute   ${name}: ${perMinute1} with 1 CLI at a time, ${perMinuteN} with ${parallel} (x${round(perMinuteN / perMinute1)}), over ${probes.length} probes`);
    }
  }
  for (const [name, row] of Object.entries({ ...inProcess, ...driven })) if ("skipped" in row) log(`realRuntimes            ${name}: skipped (${row.skipped})`);
  return { inProcess, driven };
}
