// A real shipped OpenClaw release driven as a target: its own detector and guard, logging kept
// out of the user's terminal, home and /tmp/openclaw. Runs when the release is in the cache
// (LOOPSIM_CACHE, as .ci/run fetches it) or the npm registry answers; otherwise says SKIPPED.
import { describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { cacheRoot, readManifest } from "../src/targets/openclaw/cache.js";
import { loopsim, tempDir } from "./cli/run.js";

const RELEASE = "2026.9.6";

function available(): { ok: boolean; why: string } {
  if (readManifest(RELEASE) !== undefined) return { ok: true, why: "in the cache" };
  const probe = spawnSync("npm", ["view", "openclaw@" + RELEASE, "version"], { encoding: "utf8", timeout: 20_000, env: { ...process.env, npm_config_fetch_retries: "0" } });
  if (probe.status !== 0 || probe.stdout.trim() !== RELEASE) return { ok: false, why: `openclaw@${RELEASE} is not in the cache and the npm registry did not answer (${(probe.stderr || probe.error?.message || "no answer").trim().split("\n")[0]})` };
  const fetched = loopsim(["targets", "fetch", `openclaw@${RELEASE}`]);
  return fetched.code === 0 ? { ok: true, why: "fetched from the registry" } : { ok: false, why: `fetching failed: ${fetched.stderr.trim().split("\n").at(-1)}` };
}

const state = available();
if (!state.ok) console.log(`SKIPPED: the OpenClaw release test: ${state.why}`);
else console.log(`openclaw@${RELEASE}: ${state.why}`);

function loopTrace(): string {
  const lines: string[] = [];
  for (let i = 0; i < 25; i++) {
    lines.push(JSON.stringify({ type: "call", runId: "r1", callId: `c${i}`, tool: "read", params: { path: "a" } }));
    lines.push(JSON.stringify({ type: "outcome", runId: "r1", callId: `c${i}`, tool: "read", params: { path: "a" }, result: { content: [{ type: "text", text: "same" }] } }));
  }
  lines.push(JSON.stringify({ type: "compaction", runId: "r1" }));
  for (let i = 0; i < 3; i++) {
    lines.push(JSON.stringify({ type: "call", runId: "r1", tool: "exec", params: { command: "ls" } }));
    lines.push(JSON.stringify({ type: "outcome", runId: "r1", tool: "exec", params: { command: "ls" }, result: { content: [{ type: "text", text: "x" }] } }));
  }
  return lines.join("\n") + "\n";
}

describe.skipIf(!state.ok)(`openclaw@${RELEASE} as a target`, () => {
  it("drives the release's detector and guard, silently, without touching home or /tmp/openclaw", () => {
    const dir = tempDir();
    const home = join(dir, "home");
    mkdirSync(home);
    const trace = join(dir, "loop.jsonl");
    writeFileSync(trace, loopTrace());
    const config = join(dir, "on.json5");
    writeFileSync(config, "{ tools: { loopDetection: { enabled: true, warningThreshold: 3 } } }");
    const hadTmp = existsSync("/tmp/openclaw");
    const res = spawnSync(process.execPath, [join(import.meta.dirname, "..", "bin", "loopsim.js"), "trace", trace, "--config", config, "--json", "--target", `openclaw@${RELEASE}`], { encoding: "utf8", env: { ...process.env, HOME: home, LOOPSIM_CACHE: cacheRoot() } });
    expect(res.status, res.stderr).toBe(0);
    const out = res.stdout.trim().split("\n").map((l) => JSON.parse(l));
    // Every line is loopsim's: the release printed nothing.
    expect(out.every((o) => typeof o.index === "number")).toBe(true);
    const flagged = out.filter((o) => o.verdict === "warning" || o.verdict === "critical");
    // warningThreshold 3 is ignored by this generation: the first warning comes at 10, the block at 20.
    expect(flagged[0]).toMatchObject({ verdict: "warning", detector: "generic_repeat", count: 10, emitted: true });
    expect(flagged.find((o) => o.verdict === "critical")).toMatchObject({ detector: "generic_repeat", count: 20 });
    expect(out.find((o) => o.type === "abort")).toMatchObject({ error: "compaction_loop_persisted", tool: "exec", count: 3 });
    expect(readdirSync(home)).toEqual([]);
    if (!hadTmp) expect(existsSync("/tmp/openclaw")).toBe(false);
    // Nothing from the release: stderr holds only loopsim's own end-of-run summary line.
    expect(res.stderr).toMatch(/^loopsim: \S+loop\.jsonl: \d+ events, \d+ calls: [^\n]*\n$/);
  });

  it("conform finds the ignored thresholds and every failing rule's counterexample replays on the release", () => {
    const out = tempDir();
    const res = loopsim(["conform", "--target", `openclaw@${RELEASE}`, "--out", out, "--json"]);
    expect(res.code, res.stderr).toBe(1);
    const report = JSON.parse(res.stdout);
    const cells = report.targets[0].cells as Record<string, { status: string; counterexample?: { file: string; replay: string } }>;
    expect(cells.C1?.status).toBe("fail");
    expect(cells.K7?.status).toBe("fail");
    const failing = Object.entries(cells).filter(([, c]) => c.status === "fail");
    for (const [rule, cell] of failing) expect(cell.counterexample?.file, rule).toBeTruthy();
    const probe = cells.C1?.counterexample?.file as string;
    const replay = loopsim(["replay", probe]);
    expect(replay.code, replay.stdout + replay.stderr).toBe(0);
    const against = loopsim(["replay", "--target", "reference", probe]);
    expect(against.code).toBe(1);
  });
});
