// Real loops with real outcomes (src/grounded/realOutcomes.ts): the split of stretches by kind,
// what a guard catches and saves, and the resolved runs it stops, on tiny labelled sessions; then
// `compare --loops real --labels` on the fixture sessions end to end.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configFrom } from "../models/configResolution.js";
import type { ToolEvent } from "../models/events.js";
import { judgeSession, knownStretches, paretoFront, RealOutcomesRun, type RealOutcomes } from "../src/grounded/realOutcomes.js";
import { findBuiltInTarget } from "../src/targets/registry.js";
import type { Target } from "../src/targets/target.js";
import { loopsim, tempDir } from "./cli/run.js";

const pair = (i: number, tool: string, params: unknown, answer: { result?: unknown; error?: string }): ToolEvent[] => [
  { type: "call", runId: "r", callId: `c${i}`, tool, params },
  { type: "outcome", runId: "r", callId: `c${i}`, tool, params, ...(answer.error !== undefined ? { error: answer.error } : { result: answer.result }) },
];
/** Progressing reads; each answer differs in words, not only in digits (masking would make "module 3" and "module 4" one answer). */
const work = (from: number, n: number) => Array.from({ length: n }, (_, k) => pair(from + k, "read", { path: `src/m${from + k}.ts` }, { result: `module ${"abcdefghijklmnop"[from + k]}` })).flat();
/** The same call, the same answer, 4 times. */
const identical = (from: number) => Array.from({ length: 4 }, (_, k) => pair(from + k, "exec", { command: "make" }, { result: "make: *** No rule to make target" })).flat();
/** A different command each time, the same failure each time (a line number that changes). */
const changing = (from: number) => ["pip install foo", "pip3 install --user foo", "python -m pip install foo", "pip install foo --pre"].map((command, k) => pair(from + k, "exec", { command }, { error: `ERROR: No matching distribution found for foo (line ${k + 7})` })).flat();

const target = (name: string): Target => findBuiltInTarget(name) as Target;
const guard = (name: string) => ({ name, shipped: !name.startsWith("candidate:"), target: target(name), config: configFrom({ enabled: true }) });

describe("stretches by kind", () => {
  it("tells identical repeats from repeats with changing args", () => {
    expect(knownStretches([...work(0, 2), ...identical(2), ...work(6, 2)]).map((s) => s.kind)).toEqual(["identical"]);
    expect(knownStretches([...work(0, 2), ...changing(2)]).map((s) => s.kind)).toEqual(["changing-args"]);
    expect(knownStretches(work(0, 8))).toEqual([]);
  });
  it("counts a stop inside a stretch as a catch and the calls from it on as saved; a run stopped anywhere as stopped", () => {
    const events = [...work(0, 2), ...changing(2), ...work(6, 2)];
    const stretches = knownStretches(events);
    const [s] = stretches;
    if (s === undefined) throw new Error("no stretch");
    // A stop on the outcome of the stretch's 3rd call: the 4th is saved.
    const judged = judgeSession("resolved", stretches, [(s.calls[2]?.at ?? 0) + 1]);
    expect(judged.stopped).toBe(true);
    expect(judged.stretches[0]).toMatchObject({ kind: "changing-args", caught: true, calls: 4, savedCalls: 1 });
    // A stop before the stretch spares it all, but is no catch; a block before it and another inside is a catch.
    expect(judgeSession("resolved", stretches, [0]).stretches[0]).toMatchObject({ caught: false, savedCalls: 4 });
    expect(judgeSession("resolved", stretches, [0, s.calls[1]?.at ?? 0]).stretches[0]).toMatchObject({ caught: true, savedCalls: 4 });
    expect(judgeSession("resolved", stretches, [])).toMatchObject({ stopped: false, stretches: [{ caught: false, savedCalls: 0, savedTokens: 0 }] });
  });
});

describe("every guard on labelled sessions", () => {
  const sessions: { events: ToolEvent[]; label: "resolved" | "unresolved" }[] = [
    { events: [...work(0, 2), ...changing(2), ...work(6, 2)], label: "unresolved" },
    { events: [...work(0, 3), ...identical(3)], label: "unresolved" },
    // A resolved run that met one failure 3 times with a read between: the miner calls it a stuck stretch
    // (an earlier sighting counts), and stopping it there stops a run that went on to resolve.
    { events: [...work(0, 1), ...pair(1, "exec", { command: "pytest a" }, { error: "E   AssertionError: 1 failed" }), ...work(2, 1), ...pair(3, "exec", { command: "pytest b" }, { error: "E   AssertionError: 2 failed" }), ...pair(4, "exec", { command: "pytest c" }, { error: "E   AssertionError: 3 failed" }), ...work(5, 3)], label: "resolved" },
    { events: work(0, 10), label: "resolved" },
  ];
  const run = (): RealOutcomes => {
    const r = new RealOutcomesRun(["goose:5", "candidate:failure-signature:3", "candidate:no-effect:3", "none"].map(guard));
    for (const s of sessions) r.session(s.events, s.label);
    return r.finish();
  };
  it("splits the catch rate by kind and measures the resolved runs stopped, each with n and a Wilson interval", () => {
    const r = run();
    expect(r.stretches).toEqual({ n: 3, identical: 1, "changing-args": 2 });
    expect(r.sessions).toEqual({ n: 4, resolved: 2, unresolved: 2, unknown: 0, unlabelled: 0 });
    const row = (name: string) => r.rows.find((x) => x.name === name);
    const failure = row("candidate:failure-signature:3");
    expect(failure?.byKind["changing-args"]).toMatchObject({ k: 2, n: 2 });
    expect(failure?.byKind.identical).toMatchObject({ k: 0, n: 1 });
    expect(failure?.resolvedStopped).toMatchObject({ k: 1, n: 2, share: 0.5 });
    expect(failure?.resolvedStopped.interval.n).toBe(2);
    expect(failure?.callsSaved.saved).toBe(1);
    const noEffect = row("candidate:no-effect:3");
    expect(noEffect?.byKind.identical).toMatchObject({ k: 1, n: 1 });
    expect(noEffect?.resolvedStopped).toMatchObject({ k: 0, n: 2 });
    expect(row("none")?.caught).toMatchObject({ k: 0, n: 3 });
    expect(r.best.candidate).toBe("candidate:no-effect:3");
    expect(r.best.shipped).toBe("goose:5");
    expect(paretoFront(r.rows)).toContain("candidate:no-effect:3");
    expect(JSON.stringify(run())).toBe(JSON.stringify(r));
  });
});

describe("compare --loops real --labels", () => {
  it("reports every guard on the fixture's real stretches and outcomes, with the Pareto chart", () => {
    const out = tempDir();
    const r = loopsim(["compare", "--population", "sessions:test/fixtures/real-loops", "--loops", "real", "--labels", "test/fixtures/real-loops-labels.json", "--targets", "openclaw-enabled,candidates,none", "--reaction-grid", "none", "--out", out]);
    expect(r.code, r.stderr).toBe(0);
    const md = readFileSync(join(out, "compare.md"), "utf8");
    expect(md).toContain("## Real loops, real outcomes: what each guard catches and what it costs");
    expect(md).toContain("2 real stuck stretches (2 identical repeats, 0 with changing args) in 3 sessions (2 resolved, 1 unresolved, 0 whose label says the outcome is unknown, 0 unlabelled)");
    expect(md).toMatch(/\| candidate:no-effect:3 \| candidate \| 50\.0% \[9\.5-90\.6\] \(1\/2\) \|/);
    expect(md).toContain("no runtime is known to ship them");
    const html = readFileSync(join(out, "compare.html"), "utf8");
    expect(html).toContain('aria-label="stuck stretches caught against resolved runs stopped"');
    const json = JSON.parse(readFileSync(join(out, "compare.json"), "utf8")) as { realOutcomes: RealOutcomes };
    expect(json.realOutcomes.rows.map((x) => x.name)).toEqual(["openclaw-enabled", "candidate:failure-signature:3", "candidate:failure-signature:5", "candidate:no-effect:3", "candidate:no-effect:5", "candidate:recheck:3", "candidate:recheck:5", "none"]);
  });
  it("tune --loops real --labels gives every config the same figures", () => {
    const out = tempDir();
    const r = loopsim(["tune", "--population", "sessions:test/fixtures/real-loops", "--loops", "real", "--labels", "test/fixtures/real-loops-labels.json", "--grid", "criticalThreshold=20", "--reaction-grid", "none", "--out", out]);
    expect(r.code, r.stderr).toBe(0);
    const md = readFileSync(join(out, "report.md"), "utf8");
    expect(md).toContain("## Real loops, real outcomes: what each config catches and what it costs");
    expect(md).toMatch(/\| OpenClaw defaults \| yes \| 0\.0% \[0\.0-65\.8\] \(0\/2\) \|/);
  });
  it("refuses --outcome-labels without --loops real (exit 2, naming the fix)", () => {
    const r = loopsim(["compare", "--population", "sessions:test/fixtures/real-loops", "--outcome-labels", "test/fixtures/real-loops-labels.json", "--targets", "none"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("add --loops real");
  });
});
