// Issue 30, point 5: the holes a new user found, one test each, named after the hole. Cheap on
// purpose: tiny fixtures, a handful of agents, one-point grids; every folder made is removed.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loopsim, tempDir } from "./run.js";
import { cacheRoot } from "../../src/targets/openclaw/cache.js";
import { percentWithInterval, shareCell, numberCell, wilson } from "../../src/stats/interval.js";

const SESSION = join(import.meta.dirname, "../fixtures/sessions/swe-agent-example.traj");
const SIX = join(import.meta.dirname, "../../examples/six-identical-reads.jsonl");
const DOCS = join(import.meta.dirname, "../../docs/guide");
const OFFLINE = { npm_config_registry: "http://127.0.0.1:9/", npm_config_fetch_retries: "0", npm_config_fetch_timeout: "2000" };
const TINY = ["--agents", "3", "--grid", "warningThreshold=10"];

const made: string[] = [];
const scratch = (): string => {
  const dir = tempDir();
  made.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const noStack = (stderr: string) => expect(stderr).not.toMatch(/\n\s+at /);
const unreadable = (dir: string) => {
  const bad = join(dir, "bad.jsonl");
  writeFileSync(bad, "garbage\n");
  return bad;
};

/** Spawns the CLI, waits until stderr shows `ready` (the run is under way), sends `signal`. */
function interrupt(args: string[], ready: RegExp, signal: NodeJS.Signals, cwd: string, env: Record<string, string> = {}): Promise<{ stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(import.meta.dirname, "../../bin/loopsim.js"), ...args], { cwd, env: { ...process.env, ...env }, stdio: ["pipe", "ignore", "pipe"] });
    let stderr = "";
    let sent = false;
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (!sent && ready.test(stderr)) {
        sent = true;
        child.kill(signal);
      }
    });
    child.on("close", () => resolve({ stderr }));
  });
}

describe("broken", () => {
  it("Ctrl-C or SIGTERM during conform --against opencode leaves no scratch folder", async (ctx) => {
    // The user's cache (LOOPSIM_CACHE, as CI sets it), never a path of this machine's.
    const shared = join(cacheRoot(), "runtimes");
    const runtimes = join(shared, "opencode", "1.18.33");
    if (!existsSync(runtimes)) {
      console.log(`SKIPPED: opencode@1.18.33 is not in loopsim's cache (${cacheRoot()}): loopsim targets fetch opencode@1.18.33`);
      ctx.skip();
      return;
    }
    // A cache of our own that sees the cached runtimes, so its runtimes-sandbox is ours alone.
    const cache = scratch();
    symlinkSync(shared, join(cache, "runtimes"));
    const sandbox = join(cache, "runtimes-sandbox");
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      await new Promise<void>((resolve) => {
        const child = spawn(process.execPath, [join(import.meta.dirname, "../../bin/loopsim.js"), "conform", "--against", "opencode@1.18.33"], { env: { ...process.env, ...OFFLINE, LOOPSIM_CACHE: cache }, stdio: "ignore" });
        // Signal once a run's scratch folder exists: the runtime is being driven.
        const poll = setInterval(() => {
          if (existsSync(sandbox) && readdirSync(sandbox).some((n) => n.startsWith("run-"))) {
            clearInterval(poll);
            child.kill(signal);
          }
        }, 50);
        child.on("close", () => {
          clearInterval(poll);
          resolve();
        });
      });
      expect(existsSync(sandbox) ? readdirSync(sandbox).filter((n) => n.startsWith("run-")) : [], signal).toEqual([]);
    }
  });

  it("--out /proc/x exits 2 at once instead of spinning (tune, compare, scan, calibrate, import, merge)", () => {
    for (const args of [["tune", ...TINY], ["scan", SESSION], ["import", SESSION, SESSION]]) {
      const r = loopsim([...args, "--out", "/proc/loopsim-x"]);
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain("/proc/loopsim-x");
      noStack(r.stderr);
    }
  });

  it("import FILE --out MISSING_DIR/x.jsonl makes the folder; --out under a regular file exits 2 without a stack", () => {
    const dir = scratch();
    const ok = loopsim(["import", SESSION, "--out", "missing/x.jsonl"], undefined, dir);
    expect(ok.code, ok.stderr).toBe(0);
    expect(existsSync(join(dir, "missing/x.jsonl"))).toBe(true);
    writeFileSync(join(dir, "afile"), "");
    const bad = loopsim(["import", SESSION, "--out", "afile/x.jsonl"], undefined, dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/afile: cannot create the output folder \(a file is in the way\)/);
    noStack(bad.stderr);
  });

  it("a symbolic link loop is a user error, and a folder linking back to its parent is walked once", () => {
    const dir = scratch();
    symlinkSync("self", join(dir, "self"));
    for (const args of [["trace", "self"], ["scan", "self"], ["tune", "--grid", "warningThreshold=10", "--population", "sessions:self", "--out", "t"]]) {
      const r = loopsim(args, undefined, dir);
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/self: a loop of symbolic links/);
      noStack(r.stderr);
    }
    mkdirSync(join(dir, "d/sub"), { recursive: true });
    symlinkSync("..", join(dir, "d/sub/up"));
    writeFileSync(join(dir, "d/a.traj"), readFileSync(SESSION));
    const walked = loopsim(["scan", "d"], undefined, dir);
    expect(walked.code, walked.stderr).toBe(0);
    expect(walked.stdout).toMatch(/^1 sessions, 5 calls/m);
    symlinkSync("nowhere", join(dir, "d/dangling.jsonl"));
    const dangling = loopsim(["scan", "d"], undefined, dir);
    expect(dangling.stderr).toMatch(/dangling\.jsonl/);
  });
});

describe("wrong", () => {
  it("a user error after option parsing leaves no output folder", () => {
    const cases = [
      ["tune", "--grid", "foo"],
      ["tune", "--config", "/nonexistent"],
      ["compare", "--targets", "bogus"],
      ["calibrate", "/nonexistent"],
      ["conform", "--target", "bogus"],
    ];
    const dir = scratch();
    for (const args of cases) {
      const r = loopsim([...args, "--out", "D"], undefined, dir);
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(2);
      expect(existsSync(join(dir, "D")), args.join(" ")).toBe(false);
    }
  });

  it("Ctrl-C during tune or scan leaves no output folder", async () => {
    const dir = scratch();
    // tune says at once which grid points it skips: the sweep is under way when the signal comes.
    await interrupt(["tune", "--agents", "400", "--grid", "criticalThreshold=10,20,25,30,35", "--out", "T"], /skipped/, "SIGINT", dir);
    expect(existsSync(join(dir, "T"))).toBe(false);
    // scan reads standard input, held open: it is mid-read when the signal comes.
    const scan = new Promise<void>((resolve) => {
      const child = spawn(process.execPath, [join(import.meta.dirname, "../../bin/loopsim.js"), "scan", "-", "--out", "S"], { cwd: dir, stdio: ["pipe", "ignore", "ignore"] });
      child.stdin.write(readFileSync(SIX, "utf8").split("\n")[0] + "\n", () => setImmediate(() => child.kill("SIGINT")));
      child.on("close", () => resolve());
    });
    await scan;
    expect(existsSync(join(dir, "S"))).toBe(false);
  });

  it("import FILE --out EXISTING_DIR names no temp file and leaves none", () => {
    const dir = scratch();
    mkdirSync(join(dir, "existing/nonempty"), { recursive: true });
    const r = loopsim(["import", SESSION, "--out", "existing/nonempty"], undefined, dir);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/\.tmp/);
    expect(readdirSync(join(dir, "existing"))).toEqual(["nonempty"]);
    expect(readdirSync(join(dir, "existing/nonempty"))).toEqual([]);
  });

  it("no report from zero readable sessions: tune --population sessions:BAD and calibrate BAD exit 2 'no readable sessions'", () => {
    const dir = scratch();
    const bad = unreadable(dir);
    for (const args of [["tune", "--grid", "warningThreshold=10", "--population", `sessions:${bad}`], ["calibrate", bad]]) {
      const r = loopsim([...args, "--out", "O"], undefined, dir);
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain("no readable sessions");
      expect(existsSync(join(dir, "O"))).toBe(false);
    }
  });

  it("n/a where n is 0: no share, mean or interval over no case, and no injected loops named when none were injected", () => {
    expect(percentWithInterval(0, wilson(0, 0))).toBe("n/a (n=0)");
    expect(shareCell(0, wilson(0, 0))).toBe("n/a");
    expect(numberCell(0, { low: 0, high: 0, n: 0 })).toBe("n/a");
    const dir = scratch();
    const r = loopsim(["tune", "--grid", "warningThreshold=10", "--population", `sessions:${SESSION}`, "--out", "O"], undefined, dir);
    expect(r.code, r.stderr).toBe(0);
    const md = readFileSync(join(dir, "O/report.md"), "utf8");
    expect(md).not.toMatch(/0\.0% \(0\.0-100\.0%, n=0\)/);
    expect(md).not.toMatch(/wastes a mean 0 tokens \[0-0\]/);
    expect(md).toMatch(/no loops were injected/i);
  });

  it("one unreadable file given by name exits 2 in scan, tune --sessions and calibrate, as in trace and import", () => {
    const dir = scratch();
    const bad = unreadable(dir);
    for (const args of [["scan", bad], ["tune", ...TINY, "--sessions", bad, "--out", "O"], ["import", bad, "--out", "I.jsonl"]]) {
      const r = loopsim(args, undefined, dir);
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain("bad.jsonl");
    }
    expect(readdirSync(dir)).toEqual(["bad.jsonl"]);
  });

  it("with the registry unreachable the suggested fetch names the runtime, and a failed first fetch leaves no runtime folder", () => {
    const cache = scratch();
    const r = loopsim(["targets", "fetch", "kilo@7.7.7"], undefined, undefined, { ...OFFLINE, LOOPSIM_CACHE: cache });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("loopsim targets fetch kilo@7.7.7");
    expect(r.stderr).not.toContain("@kilocode");
    expect(existsSync(join(cache, "runtimes/kilo"))).toBe(false);
  });

  it("conform --against gemini-cli without a version says to name one, with the name whole", () => {
    const r = loopsim(["conform", "--against", "gemini-cli"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--against gemini-cli: name a version");
    expect(r.stderr).not.toContain("--target gemini-cl:");
  });

  it("standard input is <stdin> in scan, trace and import", () => {
    const dir = scratch();
    for (const args of [["scan", "-"], ["trace", "-"], ["import", "-", "--out", "x.jsonl"]]) {
      const r = loopsim(args, "garbage\n", dir);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toContain("<stdin>");
      expect(r.stderr).not.toMatch(/loopsim-stdin|stdin-|'-'| -:/);
    }
  });

  it("scan DIR names the .json files of no session format it passes over", () => {
    const dir = scratch();
    writeFileSync(join(dir, "a.traj"), readFileSync(SESSION));
    writeFileSync(join(dir, "hello.json"), '{"hello":"world"}');
    const r = loopsim(["scan", dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/1 \.json file .* passed over .*hello\.json/);
    expect(readFileSync(join(DOCS, "formats.md"), "utf8")).toMatch(/passed over/);
  });

  it("documented figures agree with runs: the minimised scenario and the grounded sweep's time", () => {
    const replay = readFileSync(join(DOCS, "replay-a-session.md"), "utf8");
    expect(replay).not.toContain("904 events -> 3");
    expect(replay).toContain("904 events -> 6");
    expect(readFileSync(join(DOCS, "running-at-scale.md"), "utf8")).toContain("142.3 s");
    expect(readFileSync(join(DOCS, "tune-thresholds.md"), "utf8")).toMatch(/142 s with one, as running-at-scale\.md says/);
  });
});

describe("rough", () => {
  it("--inject with a range per shape is refused with the spelling that works", () => {
    const r = loopsim(["tune", "--population", `sessions:${SESSION}`, "--inject", "repeat@5-20,poll@3-4", "--out", "O"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("one length range applies to every shape listed");
    expect(r.stderr).toContain("repeat,poll@3-4");
  });

  it("--reaction: a signal given twice is refused, a chance that is no number is echoed as typed", () => {
    const twice = loopsim(["tune", "--population", `sessions:${SESSION}`, "--reaction", "warning=0.5/0.5/0,warning=0.5/0.5/0", "--out", "O"]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain("warning is given twice");
    const nan = loopsim(["tune", "--population", `sessions:${SESSION}`, "--reaction", "warning=NaN/0.5/0.5", "--out", "O"]);
    expect(nan.code).toBe(2);
    expect(nan.stderr).toContain("got NaN/0.5/0.5");
    expect(nan.stderr).not.toContain("null");
  });

  it("options that mean nothing alone or contradict another are refused: --label-key without --labels, --agents with a sessions population, replay --variant with --target", () => {
    const labelKey = loopsim(["tune", ...TINY, "--label-key", "instance", "--out", "O"]);
    expect(labelKey.code).toBe(2);
    expect(labelKey.stderr).toMatch(/--label-key.*--labels/);
    const agents = loopsim(["tune", ...TINY, "--population", `sessions:${SESSION}`, "--out", "O"]);
    expect(agents.code).toBe(2);
    expect(agents.stderr).toContain("--agents and --population cannot be given together");
    const variant = loopsim(["replay", SIX, "--variant", "contiguous-streak", "--target", "reference"]);
    expect(variant.code).toBe(2);
    expect(variant.stderr).toMatch(/--variant.*--target|--target.*--variant/);
  });

  it("tune says which grid points the threshold ordering drops (criticalThreshold=10 is not above the warning threshold)", () => {
    const dir = scratch();
    const r = loopsim(["tune", "--agents", "3", "--grid", "criticalThreshold=10,20", "--out", "O"], undefined, dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/1 of 2 points skipped.*criticalThreshold=10/);
  });

  it("openclaw@latest says it is asking the registry before it waits", () => {
    const r = loopsim(["conform", "--target", "openclaw@latest"], undefined, undefined, { ...OFFLINE, LOOPSIM_CACHE: scratch() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^loopsim: asking the npm registry which release openclaw@latest is/);
  });

  it("a 3,000-level nested label value is named by its start and size, not echoed whole", () => {
    const dir = scratch();
    const labels = join(dir, "labels.json");
    writeFileSync(labels, `{"swe-agent-example": ${"[".repeat(3000)}0${"]".repeat(3000)}}`);
    const r = loopsim(["tune", ...TINY, "--sessions", SESSION, "--labels", labels, "--label-key", "instance", "--out", "O"], undefined, dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("(6,001 characters) is not resolved or unresolved");
    expect(r.stderr.length).toBeLessThan(2000);
    noStack(r.stderr);
  });

  it("calibrate EMPTYDIR names the positional path, not --sessions", () => {
    const empty = scratch();
    const r = loopsim(["calibrate", empty]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(empty);
    expect(r.stderr).not.toContain("--sessions");
  });

  it("merge names the folder when a shard is missing, and points a compare folder at compare --merge", () => {
    const dir = scratch();
    writeFileSync(join(dir, "compare-partial-1-of-2.json"), "{}");
    const r = loopsim(["merge", dir, "--out", join(dir, "m")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(dir);
    expect(r.stderr).toContain("loopsim compare --merge");
  });

  it("--minimize first-block:bogus says unknown detector", () => {
    const r = loopsim(["scenario", "record", SIX, "--minimize", "first-block:bogus", "--out", join(scratch(), "s.json")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown detector/);
  });

  it("a population file moved without its sessions names itself and its fittedOn path", () => {
    const dir = scratch();
    mkdirSync(join(dir, "s"));
    writeFileSync(join(dir, "s/a.traj"), readFileSync(SESSION));
    const fit = loopsim(["calibrate", "s", "--fit", "--out", "fit.json"], undefined, dir);
    expect(fit.code, fit.stderr).toBe(0);
    mkdirSync(join(dir, "elsewhere"));
    writeFileSync(join(dir, "elsewhere/pop.json"), readFileSync(join(dir, "fit.json")));
    const r = loopsim(["calibrate", "--population", "elsewhere/pop.json", "--out", "c"], undefined, dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/elsewhere\/pop\.json: fittedOn\.paths\[0\]/);
  });

  it("scan, conform and import --out print a 'wrote' line", () => {
    const dir = scratch();
    expect(loopsim(["scan", SESSION, "--out", "s"], undefined, dir).stderr).toMatch(/wrote s/);
    expect(loopsim(["import", SESSION, "--out", "i.jsonl"], undefined, dir).stderr).toMatch(/wrote i\.jsonl/);
    expect(loopsim(["conform", "--law", "enabled-false-silent", "--out", "c"], undefined, dir).stderr).toMatch(/wrote c/);
  });

  it("timelines show control characters and bidirectional overrides escaped", () => {
    const trace = join(scratch(), "t.jsonl");
    writeFileSync(trace, JSON.stringify({ type: "call", tool: "re\u202ead\u0000x", params: {} }) + "\n");
    const r = loopsim(["trace", trace]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/[\u202e\u0000]/);
    expect(r.stdout).toContain("re\\u{202e}ad\\u{0000}x");
  });

  it("an empty trace exits 2 and says it is empty", () => {
    const trace = join(scratch(), "empty.jsonl");
    writeFileSync(trace, "");
    const r = loopsim(["trace", trace]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no events");
  });

  it("import F F --out x2.jsonl is one input written to a file named x2.jsonl", () => {
    const dir = scratch();
    const r = loopsim(["import", SESSION, SESSION, "--out", "x2.jsonl"], undefined, dir);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(dir, "x2.jsonl"), "utf8").length).toBeGreaterThan(0);
  });

  it("several sessions imported into a folder are named relative to their shared folder, not by absolute path", () => {
    const dir = scratch();
    mkdirSync(join(dir, "in/a"), { recursive: true });
    writeFileSync(join(dir, "in/a/one.traj"), readFileSync(SESSION));
    writeFileSync(join(dir, "in/two.traj"), readFileSync(SESSION));
    const r = loopsim(["import", join(dir, "in"), "--out", join(dir, "out")]);
    expect(r.code, r.stderr).toBe(0);
    const names = readdirSync(join(dir, "out"));
    expect(names.length).toBe(2);
    for (const name of names) expect(name).not.toMatch(/tmp|loopsim-test/);
  });

  it("a compare report on sessions as agents says closed-loop, not open-loop", () => {
    const dir = scratch();
    const r = loopsim(["compare", "--targets", "reference", "--population", `sessions:${SESSION}`, "--out", "C"], undefined, dir);
    expect(r.code, r.stderr).toBe(0);
    const md = readFileSync(join(dir, "C/compare.md"), "utf8");
    expect(md).toContain("run closed-loop");
    expect(md).not.toContain("replayed open-loop");
  });
});

describe("replay order", () => {
  it("replay prints the details before the summary that counts them", () => {
    const dir = scratch();
    writeFileSync(join(dir, "broken.json"), "{}");
    const out = join(dir, "both.txt");
    const fd = openSync(out, "w");
    spawnSync(process.execPath, [join(import.meta.dirname, "../../bin/loopsim.js"), "replay", join(dir, "broken.json")], { stdio: ["ignore", fd, fd] });
    closeSync(fd);
    const text = readFileSync(out, "utf8");
    expect(text).toContain("INVALID");
    expect(text.indexOf("INVALID")).toBeLessThan(text.indexOf("1 invalid"));
  });
});

describe("charts", () => {
  it("the tune Pareto chart draws the picks as rings, says the front is over four objectives, and marks the four-way front", () => {
    const dir = scratch();
    const r = loopsim(["tune", "--agents", "10", "--grid", "warningThreshold=5,10,15;criticalThreshold=20,30", "--out", "O"], undefined, dir);
    expect(r.code, r.stderr).toBe(0);
    const html = readFileSync(join(dir, "O/report.html"), "utf8");
    const pareto = /<svg[^>]*aria-label="Pareto front"[\s\S]*?<\/svg>/.exec(html)?.[0] ?? "";
    expect(pareto).toContain("The picks come from the front over</text>");
    expect(pareto).toContain(">four objectives: caught, good work</text>");
    expect(pareto).toContain("on the four-objective front only");
    expect(pareto).toMatch(/stroke-dasharray="4 3"\/><text [^>]*>front on these two axes/);
    // every named pick's legend mark is an open ring, like its mark on the plot
    for (const goal of ["strict", "lenient"]) {
      const entry = new RegExp(`<circle [^>]*/><text [^>]*>[^<]*${goal}`).exec(pareto)?.[0] ?? "";
      expect(entry, goal).toContain('fill="none"');
    }
  });

  it("the compare chart spreads guards that share one point, so none hides another", () => {
    const dir = scratch();
    const r = loopsim(["compare", "--agents", "3", "--out", "C"], undefined, dir);
    expect(r.code, r.stderr).toBe(0);
    const html = readFileSync(join(dir, "C/compare.html"), "utf8");
    const circles = [...html.matchAll(/<circle cx="([\d.]+)" cy="([\d.]+)"/g)].map((m) => `${m[1]},${m[2]}`);
    expect(circles.length).toBe(new Set(circles).size);
  });
});
