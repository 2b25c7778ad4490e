// Other runtimes' real code under test: Gemini CLI's LoopDetectionService in-process, and the
// opencode and Qwen Code CLIs driven end to end through the scripted model. Each part runs when
// its runtime is in loopsim's cache (LOOPSIM_CACHE; .ci/run fetches them ahead of time) and says
// SKIPPED and why otherwise, so `npm test` stays green offline.
import { describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { spawnSync } from "node:child_process";
import { checkAgreement, drivenSubject, inProcessSubject } from "../src/agreement/agreement.js";
import { observeCrush } from "../src/targets/runtimes/crushCli.js";
import { PROBES } from "../src/agreement/probeSet.js";
import { cacheRoot } from "../src/targets/openclaw/cache.js";
import { findBuiltInTarget } from "../src/targets/registry.js";
import { groupAlive } from "../src/targets/runtimes/cliDriver.js";
import { processTree } from "../src/targets/runtimes/residentWatchdog.js";
import { isDrivenRuntimeCached, loadDrivenRuntime, pinnedDrivenRuntimes } from "../src/targets/runtimes/drivenRuntimes.js";
import { drivenRuntimeRefOf } from "../src/targets/targetRef.js";
import type { DrivenScript, ProbeAction } from "../src/targets/runtimes/drivenRuntime.js";
import { geminiToolCall, loadGeminiTarget } from "../src/targets/runtimes/geminiCore.js";
import { readRuntimeManifest } from "../src/targets/runtimes/packageCache.js";
import { tempDir } from "./cli/run.js";

const GEMINI = "0.61.0";
const haveGemini = readRuntimeManifest("gemini-cli", GEMINI) !== undefined;
if (!haveGemini) console.log(`SKIPPED: the Gemini CLI tests: gemini-cli@${GEMINI} is not in the cache (${cacheRoot()}); fetch it with: loopsim targets fetch gemini-cli@${GEMINI}`);
const pinned = (runtime: string): string => pinnedDrivenRuntimes().find((name) => name.startsWith(`${runtime}@`)) as string;
const OPENCODE = pinned("opencode");
const QWEN = pinned("qwen-code");
const haveOpencode = isDrivenRuntimeCached(drivenRuntimeRefOf(OPENCODE));
const haveQwen = isDrivenRuntimeCached(drivenRuntimeRefOf(QWEN));
for (const [name, have] of [[OPENCODE, haveOpencode], [QWEN, haveQwen]] as const) {
  if (!have) console.log(`SKIPPED: the ${name} end-to-end tests: it is not in the cache (${cacheRoot()}); fetch it with: loopsim targets fetch ${name}`);
}

const sixIdentical = (): string =>
  Array.from({ length: 6 }, (_, i) => [
    JSON.stringify({ type: "call", runId: "prompt", callId: `c${i}`, tool: "read_file", params: { file_path: "/w/a.txt" } }),
    JSON.stringify({ type: "outcome", runId: "prompt", callId: `c${i}`, tool: "read_file", params: { file_path: "/w/a.txt" }, result: "alpha" }),
  ]).flat().join("\n") + "\n";

describe.skipIf(!haveGemini)(`gemini-cli@${GEMINI} in-process`, () => {
  it("trace drives its real LoopDetectionService: the 5th identical call is cut off before it runs, the 6th stops the prompt; no network, nothing in HOME", () => {
    const dir = tempDir();
    const home = join(dir, "home");
    mkdirSync(home);
    const trace = join(dir, "six.jsonl");
    writeFileSync(trace, sixIdentical());
    // Any socket the process opens fails the run: the cached runtime must need no network.
    const noNet = join(dir, "no-network.mjs");
    writeFileSync(noNet, `import net from "node:net"; const original = net.Socket.prototype.connect; net.Socket.prototype.connect = function () { process.stderr.write("NETWORK USED\\n"); process.exit(99); };\n`);
    const res = spawnSync(process.execPath, ["--import", noNet, join(import.meta.dirname, "..", "bin", "loopsim.js"), "trace", trace, "--json", "--target", `gemini-cli@${GEMINI}`], { encoding: "utf8", env: { ...process.env, HOME: home, LOOPSIM_CACHE: cacheRoot(), npm_config_registry: "http://127.0.0.1:9/" }, timeout: 120_000 });
    expect(res.stderr).not.toContain("NETWORK USED");
    expect(res.status, res.stderr).toBe(0);
    const outputs = res.stdout.trim().split("\n").map((line) => JSON.parse(line) as { type: string; index: number; verdict?: string; detector?: string });
    const calls = outputs.filter((o) => o.type === "call");
    expect(calls.slice(0, 4).every((o) => o.verdict === "allow")).toBe(true);
    expect(calls[4]).toMatchObject({ index: 8, verdict: "critical", detector: "gemini-cli:tool-call-loop" });
    expect(outputs.find((o) => o.index === 9)).toMatchObject({ type: "outcome", vetoed: true });
    expect(outputs.find((o) => o.type === "abort")).toMatchObject({ index: 10 });
    expect(readdirSync(home)).toEqual([]);
  });
  it(`its model agrees on every pinned probe (${PROBES.length})`, async () => {
    const real = await loadGeminiTarget(GEMINI, () => undefined);
    const report = await checkAgreement(findBuiltInTarget("gemini-cli") as NonNullable<ReturnType<typeof findBuiltInTarget>>, inProcessSubject(real, { toolCall: geminiToolCall }), PROBES);
    expect(report.probes.filter((p) => p.verdict !== "agree").map((p) => [p.probe, p.differences])).toEqual([]);
  });
});

const read = (id: string): { id: string; action: ProbeAction } => ({ id, action: { kind: "read", file: "a.txt" } });
const script = (prompts: string[][][]): DrivenScript => ({ files: { "a.txt": "alpha\n" }, prompts: prompts.map((steps) => steps.map((ids) => ({ calls: ids.map(read) }))) });

describe.skipIf(!haveOpencode)(`${OPENCODE} driven end to end`, () => {
  it("fires on 3 identical parallel calls in one response, and not on 3 identical calls across 3 responses", async () => {
    const runtime = await loadDrivenRuntime(drivenRuntimeRefOf(OPENCODE), () => undefined);
    const parallel = await runtime.drive(script([[["a", "b", "c"]]]));
    expect(parallel).toMatchObject({ ok: true, prompts: [{ stoppedAtStep: 0 }] });
    if (parallel.ok) expect(parallel.prompts[0]?.stopMessage).toContain("doom_loop");
    const sequential = await runtime.drive(script([[["a"], ["b"], ["c"]]]));
    expect(sequential).toEqual({ ok: true, prompts: [{ fates: { a: "ran", b: "ran", c: "ran" }, stoppedAtStep: null, warnings: [] }] });
  });
  it("reports a runtime killed mid-run and leaves no process, endpoint or scratch folder behind", async () => {
    const runtime = await loadDrivenRuntime(drivenRuntimeRefOf(OPENCODE), () => undefined);
    let pid: number | undefined;
    let scratch: string | undefined;
    const observed = await runtime.drive(script([[["a"], ["b"], ["c"], ["d"]]]), {
      onStarted: (p) => {
        pid = p;
        // The runtime runs in the scratch folder's work/: its parent is what must be removed.
        scratch = dirname(readlinkSync(`/proc/${p}/cwd`));
        setTimeout(() => process.kill(p, "SIGKILL"), 1500);
      },
    });
    expect(observed.ok).toBe(false);
    if (!observed.ok) expect(observed.error).toMatch(/killed by SIGKILL|exited abnormally/);
    expect(pid).toBeDefined();
    expect(groupAlive(pid as number)).toBe(false);
    expect(scratch).toContain("runtimes-sandbox");
    expect(existsSync(scratch as string)).toBe(false);
  });
  it("a step that never gets an answer is cut by the watchdog, and the process group is killed", async () => {
    const runtime = await loadDrivenRuntime(drivenRuntimeRefOf(OPENCODE), () => undefined);
    let pid: number | undefined;
    const observed = await runtime.drive(script([[["a"], ["b"]]]), {
      stepTimeoutMs: 300,
      onStarted: (p) => {
        pid = p;
      },
    });
    expect(observed).toMatchObject({ ok: false });
    if (!observed.ok) expect(observed.error).toContain("no model request");
    expect(groupAlive(pid as number)).toBe(false);
  });
});

const KILO = pinned("kilo");
const haveKilo = isDrivenRuntimeCached(drivenRuntimeRefOf(KILO));
if (!haveKilo) console.log(`SKIPPED: the ${KILO} end-to-end test: it is not in the cache (${cacheRoot()}); fetch it with: loopsim targets fetch ${KILO}`);

describe.skipIf(!haveKilo)(`${KILO} driven end to end`, () => {
  // Headless `run` auto-rejects every ask and the rejection ends the run: the config allows the
  // asks that guard the machine (Kilo asks for a python command, and for a path outside the
  // workspace), so a recorded session runs on; doom_loop is still asked, rejected, and seen.
  it("runs shell commands it would ask for (outside the workspace too), and still stops on 3 identical parallel calls", async () => {
    const runtime = await loadDrivenRuntime(drivenRuntimeRefOf(KILO), () => undefined);
    const sh = (id: string, command: string) => ({ id, action: { kind: "shell", command } as ProbeAction });
    // The data bound Kilo's own process runs under, read from the host's /proc while it runs.
    const bounds = new Set<string>();
    let watch: NodeJS.Timeout | undefined;
    const onStarted = (pid: number) => {
      watch = setInterval(() => {
        for (const p of processTree(pid)) {
          try {
            if (!readlinkSync(`/proc/${p}/exe`).endsWith("/bin/kilo")) continue;
            const line = readFileSync(`/proc/${p}/limits`, "utf8").split("\n").find((l) => l.startsWith("Max data size"));
            if (line !== undefined) bounds.add(line.split(/\s{2,}/)[1] as string);
          } catch {
            // gone meanwhile
          }
        }
      }, 100);
    };
    let observed: Awaited<ReturnType<typeof runtime.drive>>;
    try {
      observed = await runtime.drive({ files: {}, prompts: [[{ calls: [sh("a", "python3 -c 'print(1)'")] }, { calls: [sh("b", "ls /etc > /dev/null")] }, { calls: ["c", "d", "e"].map((id) => sh(id, "ls /")) }]] }, { onStarted });
    } finally {
      clearInterval(watch);
    }
    expect(observed).toMatchObject({ ok: true, prompts: [{ fates: { a: "ran", b: "ran" }, stoppedAtStep: 2 }] });
    if (observed.ok) expect(observed.prompts[0]?.stopMessage).toContain("doom_loop");
    // Kilo's own bound (drivenRuntimes.ts: its JavaScriptCore reserves about 7.7 GiB), not the 4 GiB default.
    expect([...bounds]).toEqual([String(16 * 1024 ** 3)]);
  });
});

describe.skipIf(!haveQwen)(`${QWEN} driven end to end`, () => {
  // One CLI run, through `trace --target`: the trace's calls go to its CLI as recorded.
  it("as a target of trace: stops the prompt at the 5th identical call, which does not run; the rest of the run is ignored", () => {
    const dir = tempDir();
    const trace = join(dir, "six.jsonl");
    writeFileSync(trace, sixIdentical().replaceAll("/w/a.txt", "a.txt"));
    const res = spawnSync(process.execPath, [join(import.meta.dirname, "..", "bin", "loopsim.js"), "trace", trace, "--json", "--target", QWEN], { encoding: "utf8", env: { ...process.env, LOOPSIM_CACHE: cacheRoot() }, timeout: 300_000 });
    expect(res.status, res.stderr).toBe(0);
    // An event ignored after the abort keeps its own type in the JSON, marked ignored: true.
    const outputs = res.stdout.trim().split("\n").map((line) => JSON.parse(line) as { type: string; index: number; verdict?: string; ignored?: boolean });
    expect(outputs.filter((o) => o.type === "call" && o.ignored !== true).map((o) => o.verdict)).toEqual(["allow", "allow", "allow", "allow"]);
    expect(outputs.find((o) => o.type === "abort")).toMatchObject({ index: 8 });
    expect(outputs.filter((o) => o.ignored === true).map((o) => o.index)).toEqual([9, 10, 11]);
  });
});

describe("the driven runtimes", () => {
  it("are listed with the versions the committed report pins: opencode, Kilo, Cline, Crush, Qwen Code (and its heuristic tier)", () => {
    expect(pinnedDrivenRuntimes()).toEqual(["opencode@1.18.33", "kilo@7.7.7", "cline@3.0.65", "crush@0.96.1", "qwen-code@0.24.4", "qwen-code:heuristics@0.24.4"]);
  });
  it("Crush: a prompt that ends, exit 0, before its script is served was stopped; the calls whose results came back ran", () => {
    const ids = Array.from({ length: 12 }, (_, i) => [`c${i}`]);
    const requests = Array.from({ length: 11 }, (_, i) => ({ servedStep: i < 10 ? i : undefined, messages: ids.slice(0, i).map(([id]) => ({ role: "tool", tool_call_id: id, content: "alpha" })) }));
    const observed = observeCrush({ exitCode: 0, signal: undefined, stdout: "Done.", stderr: "", stepCalls: ids, served: 10, requests });
    expect(observed).toMatchObject({ stoppedAtStep: 10, fates: { c0: "ran", c9: "ran", c10: "not-run", c11: "not-run" } });
  });
});

const CRUSH = pinned("crush");
const haveCrush = isDrivenRuntimeCached(drivenRuntimeRefOf(CRUSH));
if (!haveCrush) console.log(`SKIPPED: the ${CRUSH} probe: it is not in the cache (its npm package downloads the binary from GitHub at install); fetch it where GitHub answers with: loopsim targets fetch ${CRUSH}`);

describe.skipIf(!haveCrush)(`${CRUSH} driven end to end`, () => {
  it("stops the prompt once one step recurs more than 5 times in the last 10 steps, and its model agrees", async () => {
    const runtime = await loadDrivenRuntime(drivenRuntimeRefOf(CRUSH), () => undefined);
    const probe = PROBES.find((p) => p.id === "repeat-12") ?? PROBES[0];
    const report = await checkAgreement(findBuiltInTarget("crush") as NonNullable<ReturnType<typeof findBuiltInTarget>>, drivenSubject(runtime, 1), [probe as (typeof PROBES)[number]]);
    expect(report.probes.map((p) => [p.probe, p.verdict, p.reason ?? p.differences])).toEqual([[probe?.id, "agree", []]]);
  });
});
