// `loopsim loops` on small fixtures (a javac loop whose output changes only by a line number and a
// time, a failing install retried with other errors each time, progressing work), and
// `compare`/`tune` with `--loops real` on them: the real stretches beside the injected shapes,
// the same bytes for one worker thread or two.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loopsim, tempDir } from "./run.js";
import { mineParameters } from "../../src/commands/loops.js";
import { planLoops } from "../../src/api/index.js";
import { UserError } from "../../src/io/errors.js";
import { groundingFlags, refuseGroundingFlags } from "../../src/grounded/populationSpec.js";
import { parseLoops } from "../../src/grounded/realLoopAgents.js";

const FIXTURES = "test/fixtures/real-loops";
const JUDGED = "test/fixtures/real-loops-judgements.json";

describe("loopsim loops", () => {
  it("lists each stuck stretch with its session, calls, length, shape, excerpt and verdict, a summary and the precision; writes them with --out", () => {
    const out = tempDir();
    const r = loopsim(["loops", FIXTURES, "--out", out, "--judgements", JUDGED]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Regenerate with \`loopsim loops ${FIXTURES} --judgements ${JUDGED} --out ${out}\` (add --force to overwrite). Mined from 3 sessions with calls (29 calls; sessions without any are passed over): 2 stretches in 2 sessions, covering 11 calls (37.9% of all calls)`);
    expect(r.stdout).toContain("| `javac-loop.jsonl@3` | #3-#8 | 6 | repeat | identical | `exec {\"command\":\"javac src/A.java\"}` | call and result | stuck: the same javac error six times |");
    expect(r.stdout).toContain("| `failing-install.jsonl@1` | #1-#5 | 5 | failing | identical | `exec {\"command\":\"pip install foo==#.#\"}` | call; every outcome failed | false-alarm:");
    expect(r.stdout).toContain("first result: [10:00:10] bash: line 40: javac: error: cannot find symbol x");
    expect(r.stdout).toContain("| progressing.jsonl | 1 | 0 | 12 | 0 | 0 | 0.0% | 0.0% |");
    expect(r.stdout).toContain("1 stuck, 1 false alarm of the 2 stretches found. Precision: 50.0% (9.5-90.6%, n=2)");
    expect(readFileSync(join(out, "real-loops.md"), "utf8")).toBe(r.stdout);
    const json = JSON.parse(readFileSync(join(out, "real-loops.json"), "utf8")) as { schema: string; stretches: { id: string; firstCall: number; lastCall: number }[] };
    expect(json.schema).toBe("loopsim/real-loops@2");
    expect(json.stretches.map((s) => `${s.id} ${s.firstCall}-${s.lastCall}`)).toEqual(["failing-install.jsonl@1 1-5", "javac-loop.jsonl@3 3-8"]);
  });

  it("refuses a folder given twice or a file inside a folder given, before mining anything (its sessions would count twice)", () => {
    const twice = loopsim(["loops", FIXTURES, `./${FIXTURES}/`]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain(`./${FIXTURES}/: the same sessions as ${FIXTURES}`);
    const inside = loopsim(["loops", `${FIXTURES}/javac-loop.jsonl`, FIXTURES]);
    expect(inside.code).toBe(2);
    expect(inside.stderr).toContain(`${FIXTURES}/javac-loop.jsonl: lies inside ${FIXTURES}`);
  });

  it("reports an unreadable file by its path and exits 1 after the rest", () => {
    const r = loopsim(["loops", "test/fixtures/real-loops-bad"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("test/fixtures/real-loops-bad/broken.jsonl: skipped:");
    expect(r.stdout).toContain("## Unreadable files");
  });

  it("mines shards whose merge is byte for byte the whole run (the Markdown renders the same object), and refuses a part edited or missing", () => {
    const parts = tempDir();
    const sessions = [FIXTURES, "test/fixtures/real-loops-bad/progressing.jsonl"];
    const whole = loopsim(["loops", ...sessions, "--json"]);
    expect(whole.code).toBe(0);
    for (const shard of ["1/2", "2/2"]) expect(loopsim(["loops", ...sessions, "--shard", shard, "--out", parts]).code).toBe(0);
    const merged = loopsim(["loops", "--merge", parts, "--json"]);
    expect(merged.code).toBe(0);
    expect(merged.stdout).toBe(whole.stdout);
    const one = join(parts, "loops-partial-1-of-2.json");
    const only = tempDir();
    writeFileSync(join(only, "loops-partial-1-of-2.json"), readFileSync(one, "utf8"));
    expect(loopsim(["loops", "--merge", only]).stderr).toContain("missing shard 2/2");
    writeFileSync(one, readFileSync(one, "utf8").replace('"at": 0', '"at": 1'));
    expect(loopsim(["loops", "--merge", parts]).code).toBe(2);
  });

  it("exits 2 and writes nothing when no file is readable, or when --judgements is missing, without creating --out", () => {
    const out = join(tempDir(), "not-yet");
    const none = loopsim(["loops", "test/fixtures/real-loops-bad/broken.jsonl", "--out", out]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("no readable sessions");
    expect(existsSync(out)).toBe(false);
    const missing = loopsim(["loops", FIXTURES, "--judgements", join(out, "judgements.json"), "--out", out]);
    expect(missing.code).toBe(2);
    expect(existsSync(out)).toBe(false);
    const fifo = join(tempDir(), "pipe.jsonl");
    if (spawnSync("mkfifo", [fifo]).status === 0) expect(loopsim(["loops", fifo]).stderr).toContain("not a regular file (a FIFO, socket or device)");
  });

  it("refuses to overwrite without --force, a --min below 2, and a judgements file that is not one", async () => {
    const out = tempDir();
    writeFileSync(join(out, "real-loops.md"), "mine");
    expect(() => planLoops({ paths: [FIXTURES], json: true, out })).toThrow("real-loops.md exists; pass --force");
    expect(() => mineParameters(1)).toThrow("--min 1: a stretch repeats something");
    expect(() => planLoops({ paths: [FIXTURES], json: true, judgements: `${FIXTURES}/progressing.jsonl` })).toThrow(UserError);
    expect(() => refuseGroundingFlags(groundingFlags({ loops: "real" }))).toThrow("--loops real: applies to real sessions");
    expect(() => parseLoops("sometimes")).toThrow("--loops sometimes: use real");
  });
});

describe("--loops real", () => {
  const SESSIONS = `sessions:${FIXTURES}`;

  it("compare gives each guard's catch rate, delay and tokens on the real stretches beside the injected shapes, the same for 1 or 2 workers", () => {
    const one = tempDir();
    const two = tempDir();
    const base = ["compare", "--population", SESSIONS, "--loops", "real", "--inject", "repeat,poll", "--targets", "openclaw-enabled,gemini-cli,none"];
    expect(loopsim([...base, "--out", one, "--workers", "1"]).code).toBe(0);
    expect(loopsim([...base, "--out", two, "--workers", "2"]).code).toBe(0);
    for (const f of ["compare.md", "compare.html", "compare.json"]) expect(readFileSync(join(two, f), "utf8")).toBe(readFileSync(join(one, f), "utf8"));
    const md = readFileSync(join(one, "compare.md"), "utf8");
    expect(md).toContain("| guard | real stretches caught [95%] | real: loop calls before stop (median) | real: loop tokens (median) | injected loops caught [95%]");
    expect(md).toContain("| gemini-cli | 100.0% [34.2-100.0] (n=2) | 4 |");
    expect(md).toContain("| none | 0.0% [0.0-65.8] (n=2) | 5 |");
    expect(md).toContain("## Where they disagree: injected and real loops");
    const html = readFileSync(join(one, "compare.html"), "utf8");
    expect(html).toContain("<h2>Real stuck stretches</h2>");
    const json = JSON.parse(readFileSync(join(one, "compare.json"), "utf8")) as { realLoops: { evidence: { name: string; real: { agents: number } }[] }; reproduce: string };
    expect(json.realLoops.evidence.map((e) => `${e.name} ${e.real.agents}`)).toEqual(["openclaw-enabled 2", "gemini-cli 2", "none 2"]);
    expect(json.reproduce).toContain("--loops real");
  });

  it("tune gives every config's catch rate on the real stretches", () => {
    const out = tempDir();
    const r = loopsim(["tune", "--population", SESSIONS, "--loops", "real", "--grid", "criticalThreshold=5,20", "--out", out]);
    expect(r.code).toBe(0);
    const md = readFileSync(join(out, "report.md"), "utf8");
    expect(md).toContain("## Real stuck stretches, and where they disagree with injected loops");
    expect(md).toContain("No loops were injected (add `--inject default`)");
    expect(md).toMatch(/\| OpenClaw defaults \| 0\.0% \[0\.0-65\.8\] \(n=2\) \|/);
  });
});
