// The family `loopsim calibrate --fit` fits to a corpus of recorded work. Its parameters are
// distributions, not one value each: for run length, tool vocabulary, repeated-args share, error
// rate and result size, a table of quantiles of the corpus's runs (aggregate statistics, never the
// sessions themselves), plus the tools the corpus calls and how often, and three shares that shape
// the repeats (how often a repeat is of the call just made, of the call two before, and whether it
// brings back the same result). Each agent draws one run from those distributions with its world
// stream. It is progressing work: nothing it does is a loop by construction.
import type { Family } from "./behaviour.js";
import type { Rng } from "./rng.js";
import { scriptedAgent, type Step } from "./scriptedAgent.js";

export const FITTED_FAMILY = "fitted";

export interface FittedParams {
  /** Quantile tables, evenly spaced from the minimum (first) to the maximum (last). */
  readonly callsPerRun: readonly number[];
  readonly distinctTools: readonly number[];
  readonly repeatedArgsShare: readonly number[];
  readonly errorRate: readonly number[];
  readonly resultTokens: readonly number[];
  /** The corpus's tools by how often they are called (shares add up to 1). */
  readonly tools: readonly { readonly name: string; readonly share: number }[];
  /** Of the repeated calls: the share that repeat the call just made (streaks). */
  readonly repeatPrevious: number;
  /** Of the repeated calls: the share that repeat the call two before (A,B,A). */
  readonly repeatTwoBack: number;
  /** The chance a repeated call brings back the result it brought before. */
  readonly sameResult: number;
}

export const QUANTILE_TABLES = ["callsPerRun", "distinctTools", "repeatedArgsShare", "errorRate", "resultTokens"] as const;

/** The value at quantile u of an evenly spaced table (linear between points). */
export function quantileOf(table: readonly number[], u: number): number {
  if (table.length === 0) return 0;
  const x = Math.min(Math.max(u, 0), 1) * (table.length - 1);
  const i = Math.floor(x);
  const a = table[i] as number;
  const b = table[Math.min(i + 1, table.length - 1)] as number;
  return a + (b - a) * (x - i);
}

/** The problems of a params object, each naming its JSON path under `at`. */
export function fittedParamsProblems(raw: unknown, at: string): string[] {
  const problems: string[] = [];
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return [`${at}: the fitted family needs params (write them with loopsim calibrate --fit)`];
  const p = raw as Record<string, unknown>;
  const allowed = [...QUANTILE_TABLES, "tools", "repeatPrevious", "repeatTwoBack", "sameResult"];
  for (const key of Object.keys(p)) if (!allowed.includes(key)) problems.push(`${at}.${key}: unknown key (allowed: ${allowed.join(", ")})`);
  for (const key of QUANTILE_TABLES) {
    const t = p[key];
    if (!Array.isArray(t) || t.length < 2 || t.some((v) => typeof v !== "number" || !Number.isFinite(v) || v < 0)) problems.push(`${at}.${key}: a table of at least two non-negative numbers, smallest first`);
    else if (t.some((v, i) => i > 0 && (v as number) < (t[i - 1] as number))) problems.push(`${at}.${key}: quantiles must not decrease`);
  }
  for (const key of ["repeatedArgsShare", "errorRate"] as const) {
    const t = p[key];
    if (Array.isArray(t) && t.some((v) => typeof v === "number" && v > 1)) problems.push(`${at}.${key}: shares are at most 1`);
  }
  for (const key of ["repeatPrevious", "repeatTwoBack", "sameResult"] as const) {
    const v = p[key];
    if (typeof v !== "number" || !(v >= 0 && v <= 1)) problems.push(`${at}.${key}: a share between 0 and 1 (got ${JSON.stringify(v)})`);
  }
  if (typeof p.repeatPrevious === "number" && typeof p.repeatTwoBack === "number" && p.repeatPrevious + p.repeatTwoBack > 1 + 1e-9) problems.push(`${at}: repeatPrevious + repeatTwoBack must be at most 1`);
  const tools = p.tools;
  if (!Array.isArray(tools) || tools.length === 0) problems.push(`${at}.tools: a non-empty list of {name, share}`);
  else
    tools.forEach((t: unknown, i) => {
      const tool = t as { name?: unknown; share?: unknown };
      if (typeof t !== "object" || t === null || typeof tool.name !== "string" || tool.name === "" || typeof tool.share !== "number" || !(tool.share > 0)) problems.push(`${at}.tools[${i}]: {name: a tool name, share: a positive number}`);
    });
  return problems;
}

/** k different tools drawn by their shares (without replacement). */
function drawTools(world: Rng, tools: FittedParams["tools"], k: number): string[] {
  const left = [...tools];
  const out: string[] = [];
  while (out.length < k && left.length > 0) {
    const total = left.reduce((s, t) => s + t.share, 0);
    let u = world.next() * total;
    let i = 0;
    while (i < left.length - 1 && u >= (left[i] as { share: number }).share) u -= (left[i++] as { share: number }).share;
    out.push((left[i] as { name: string }).name);
    left.splice(i, 1);
  }
  return out;
}

/** `count` distinct positions out of 1..n-1 (a repeat needs something before it). */
function positions(world: Rng, n: number, count: number, from: number): Set<number> {
  const pool = Array.from({ length: Math.max(0, n - from) }, (_, i) => i + from);
  for (let i = pool.length - 1; i > 0; i--) {
    const j = world.int(0, i);
    [pool[i], pool[j]] = [pool[j] as number, pool[i] as number];
  }
  return new Set(pool.slice(0, Math.min(count, pool.length)));
}

export function fittedFamily(params: FittedParams): Family {
  return {
    name: FITTED_FAMILY,
    label: "progressing",
    summary: "work shaped like a recorded corpus: run length, tools, repeats, errors and result sizes drawn from the distributions calibrate --fit measured",
    create(world) {
      // One draw sizes the run: long runs use more tools (calls and tools rise together).
      const size = world.next();
      const calls = Math.max(1, Math.round(quantileOf(params.callsPerRun, size)));
      const repeats = Math.min(calls - 1, Math.round(quantileOf(params.repeatedArgsShare, world.next()) * calls));
      const fresh = calls - repeats;
      const toolCount = Math.max(1, Math.min(fresh, Math.round(quantileOf(params.distinctTools, size))));
      const tools = drawTools(world, params.tools, toolCount);
      const errors = Math.min(calls, Math.round(quantileOf(params.errorRate, world.next()) * calls));
      const resultTokens = quantileOf(params.resultTokens, world.next());
      const repeatAt = positions(world, calls, repeats, 1);
      const errorAt = positions(world, calls, errors, 0);
      const made: { tool: string; params: unknown; result: string }[] = [];
      let freshCount = 0;
      const resultText = (i: number) => {
        // Plain text of about the run's drawn size (within 10%), so the run's median result is
        // resultTokens in the simulator's token model (12 + a quarter of the JSON's characters).
        const chars = Math.max(0, Math.round(((resultTokens - 12) * 4 - 2) * (0.9 + 0.2 * world.next())));
        const head = `${i}:${world.id(4)} `;
        return head.length >= chars ? head.slice(0, Math.max(1, chars)) : head + "x".repeat(chars - head.length);
      };
      return scriptedAgent(
        "run-1",
        world,
        {
          main(i): Step | undefined {
            if (i >= calls) return undefined;
            let call: { tool: string; params: unknown; result: string };
            if (repeatAt.has(i) && made.length > 0) {
              const u = world.next();
              // The call just made, the one two before, or an older one (never the last two, so streaks and A/B returns come only from their shares).
              const back = u < params.repeatPrevious || made.length === 1 ? 1 : u < params.repeatPrevious + params.repeatTwoBack || made.length === 2 ? 2 : world.int(3, made.length);
              const earlier = made[made.length - back] as { tool: string; params: unknown; result: string };
              call = { tool: earlier.tool, params: earlier.params, result: world.chance(params.sameResult) ? earlier.result : resultText(i) };
            } else {
              // Every tool of the run is used once before any is used again.
              const tool = freshCount < tools.length ? (tools[freshCount] as string) : world.pick(tools);
              freshCount++;
              call = { tool, params: { command: `step ${i} ${world.id(6)}` }, result: resultText(i) };
            }
            made.push(call);
            const failed = errorAt.has(i);
            return { tool: call.tool, params: call.params, inLoop: false, respond: () => (failed ? { error: call.result } : { result: call.result }) };
          },
        },
        0,
      );
    },
  };
}
