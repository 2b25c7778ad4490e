// Issue 36: holes in --junit, annotations, conform's headline, session detection, scan, merge,
// replay and a few flags, one cheap test each, run as a user would (the built CLI). Each fails on
// the code before the fix. Tiny fixtures; conform runs one law; every folder is the run's scratch.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { loopsim, tempDir } from "./run.js";
import { jsonPathLine, jsonPathSegments } from "../../src/ci/jsonPathLine.js";
import { cacheRoot, readManifest } from "../../src/targets/openclaw/cache.js";
import { localCheckout } from "../openclawCheckout.js";

const LAW = ["--law", "fresh-run-starts-from-zero"];
const call = (i: number, tool = "read") => JSON.stringify({ type: "call", runId: "r", callId: `c${i}`, tool, params: { path: "a" } });
const outcome = (i: number, tool = "read") => JSON.stringify({ type: "outcome", runId: "r", callId: `c${i}`, tool, params: { path: "a" }, result: "same" });
/** 25 identical reads: the reference with loop detection on blocks the 21st. */
const loop = (tool = "read") => Array.from({ length: 25 }, (_, i) => `${call(i, tool)}\n${outcome(i, tool)}\n`).join("");
const annotations = (stderr: string) => stderr.split("\n").filter((l) => l.startsWith("::"));

function configOn(): string {
  const file = join(tempDir(), "on.json");
  writeFileSync(file, JSON.stringify({ tools: { loopDetection: { enabled: true } } }));
  return file;
}

describe("--junit is checked before any work", () => {
  it("a path that cannot be written is refused before the run, like an output folder", () => {
    const r = loopsim(["conform", "--target", "reference", ...LAW, "--junit", "/proc/no/such/conform.xml"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe(""); // no matrix: nothing ran
    expect(r.stderr).toMatch(/\/proc\/no\/such/);
    const dir = tempDir();
    const folder = loopsim(["conform", "--target", "reference", ...LAW, "--junit", dir]);
    expect(folder.code).toBe(2);
    expect(folder.stdout).toBe("");
    expect(folder.stderr).toContain(`--junit ${dir}: is a folder`);
  });

  it("--out D --junit D/conformance.json is refused: the JUnit file would replace the JSON report", () => {
    const out = join(tempDir(), "out");
    const r = loopsim(["conform", "--target", "reference", ...LAW, "--out", out, "--junit", join(out, "conformance.json")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("the JUnit file would replace it");
    expect(existsSync(out)).toBe(false);
  });

  it("--junit - is refused (stdout carries the report), and no file named - is written", () => {
    const cwd = tempDir();
    const r = loopsim(["conform", "--target", "reference", ...LAW, "--junit", "-"], undefined, cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--junit -: JUnit XML is written to a file");
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("two --junit flags are refused, not the last one silently kept", () => {
    const dir = tempDir();
    const r = loopsim(["replay", join(import.meta.dirname, "../../scenarios/spec/enabled-false-silent.json"), "--junit", join(dir, "a.xml"), "--junit", join(dir, "b.xml")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--junit given twice");
    expect(readdirSync(dir)).toEqual([]);
  });

  it("an agreement run (--against), which has no test cases, refuses --junit before it starts", () => {
    const dir = tempDir();
    const r = loopsim(["conform", "--against", "gemini-cli@0.61.0", "--junit", join(dir, "a.xml")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("an agreement run (--against) has no test cases");
    expect(readdirSync(dir)).toEqual([]);
  });

  it("conform --merge honours --junit and --annotations", () => {
    const dir = tempDir();
    const run = loopsim(["conform", "--target", "zoo:no-run-scoping", ...LAW, "--json"]);
    expect(run.code, run.stderr).toBe(1);
    writeFileSync(join(dir, "a.json"), run.stdout);
    const merged = loopsim(["conform", "--merge", join(dir, "a.json"), "--junit", join(dir, "merged.xml"), "--annotations"]);
    expect(merged.code, merged.stderr).toBe(0);
    const xml = readFileSync(join(dir, "merged.xml"), "utf8");
    expect(xml).toContain('<testsuite name="loopsim conform zoo:no-run-scoping"');
    expect((xml.match(/<failure /g) ?? []).length).toBe(2);
    expect(annotations(merged.stderr)).toHaveLength(2);
  });
});

describe("annotations GitHub can place", () => {
  it("keep a folder with a space, mark a JSON document's file and the line of its JSON path (the path in the message; no line in a .gz, saying so), and give an unreadable file's line with its path once", () => {
    const root = tempDir();
    const spaced = join(root, "a b");
    mkdirSync(spaced);
    writeFileSync(join(spaced, "loop.jsonl"), loop());
    writeFileSync(join(spaced, "bad.jsonl"), `${call(0)}\ngarbage\n`);
    const messages = [{ role: "system", content: "s" }, { role: "user", content: "task" }];
    for (let i = 0; i < 25; i++) messages.push({ role: "assistant", content: "THOUGHT: again\n\n```bash\ncat a.txt\n```" }, { role: "user", content: "<returncode>0</returncode>\n<output>\nsame\n</output>" });
    // Indented, as mini-swe-agent writes it: each message on lines of its own.
    const doc = JSON.stringify({ info: {}, messages, trajectory_format: "mini-swe-agent-1" }, null, 2);
    writeFileSync(join(spaced, "doc.traj.json"), doc);
    writeFileSync(join(spaced, "zipped.traj.json.gz"), gzipSync(doc));
    const r = loopsim(["scan", spaced, "--config", configOn(), "--annotations"]);
    expect(r.code, r.stderr).toBe(1); // the unreadable file
    const marks = annotations(r.stderr);
    const of = (name: string) => marks.find((m) => m.includes(`${name},`) || m.includes(`${name}::`)) ?? "";
    expect(of("loop.jsonl")).toMatch(new RegExp(`^::error file=${spaced.replace(/[.]/g, "\\.")}/loop\\.jsonl,line=41,title=`));
    // The line GitHub marks is the line messages[k] starts on (its "{" at an indent of 4), the path said too.
    const docMark = new RegExp(`^::error file=${spaced.replace(/[.]/g, "\\.")}/doc\\.traj\\.json,line=(\\d+),title=[^:]+::at messages\\[(\\d+)\\]: `).exec(of("doc.traj.json"));
    expect(docMark, of("doc.traj.json")).not.toBeNull();
    const starts = doc.split("\n").flatMap((line, i) => (line === "    {" ? [i + 1] : []));
    expect(Number(docMark?.[1])).toBe(starts[Number(docMark?.[2])]);
    // A compressed document: no line, and the message says why, beside the path.
    expect(of("zipped.traj.json.gz")).toMatch(new RegExp(`^::error file=${spaced.replace(/[.]/g, "\\.")}/zipped\\.traj\\.json\\.gz,title=[^:]+::at messages\\[\\d+\\] \\(a compressed file: GitHub can mark no line in it\\): `));
    const bad = of("bad.jsonl");
    expect(bad).toMatch(new RegExp(`^::error file=${spaced.replace(/[.]/g, "\\.")}/bad\\.jsonl,line=2,title=`));
    expect(bad.split("::")[2]?.split(`${spaced}/bad.jsonl`).length).toBe(2); // the path once in the message
  });
});

describe("the line of a JSON path", () => {
  it("reads the importers' paths, finds the node by the parsed tree (not a key's name in a string), and gives no line where there is none", () => {
    const dir = tempDir();
    const file = join(dir, "chat.json");
    writeFileSync(file, `[\n  {"traj": [\n    {"role": "user", "content": "\\"traj\\": ["},\n    {"role": "assistant"}\n  ]}\n]\n`);
    expect(jsonPathSegments("[0].traj[1]")).toEqual([0, "traj", 1]);
    expect(jsonPathSegments("messages[10]")).toEqual(["messages", 10]);
    expect(jsonPathSegments("a b")).toBeUndefined();
    expect(jsonPathLine(file, "[0].traj[1]")).toEqual({ line: 4 });
    expect(jsonPathLine(file, "[0].traj[0]")).toEqual({ line: 3 });
    expect(jsonPathLine(file, "[0].traj[7]")).toEqual({ noLine: "the path is not in the file as it is now" });
    expect(jsonPathLine(join(dir, "gone.json"), "[0]")).toEqual({ noLine: "the file cannot be read again" });
    expect(jsonPathLine(`${file}.gz`, "[0]")).toEqual({ noLine: "a compressed file: GitHub can mark no line in it" });
  });
});

describe("conform's annotations", () => {
  it("mark a counterexample in a folder with a space by its whole path", () => {
    const out = join(tempDir(), "my out");
    const r = loopsim(["conform", "--target", "zoo:no-run-scoping", ...LAW, "--out", out, "--annotations"]);
    expect(r.code, r.stderr).toBe(1);
    const marks = annotations(r.stderr);
    expect(marks).toHaveLength(2);
    for (const m of marks) expect(m).toMatch(/^::error file=\S*my out\/counterexamples\/zoo_no-run-scoping\/law-fresh-run-starts-from-zero\.json,title=/);
  });
});

describe("conform's headline cannot improve because a check went vacuous", () => {
  const RELEASE = "2026.9.6";
  const manifest = readManifest(RELEASE);
  if (manifest === undefined) console.log(`SKIPPED: issue 36's CRITICAL_THRESHOLD mutation: openclaw@${RELEASE} is not in the cache (LOOPSIM_CACHE=/work/cache or loopsim targets fetch openclaw@${RELEASE})`);

  /** A local build of the release with its critical threshold set to `critical`. */
  function build(critical: number): string {
    const root = localCheckout(RELEASE);
    const chunk = join(root, "dist", manifest!.detectorChunk);
    const source = readFileSync(chunk, "utf8");
    expect(source).toContain("const CRITICAL_THRESHOLD = 20;");
    writeFileSync(chunk, source.replace("const CRITICAL_THRESHOLD = 20;", `const CRITICAL_THRESHOLD = ${critical};`));
    return root;
  }

  it.skipIf(manifest === undefined)("CRITICAL_THRESHOLD 20 -> 25: K1 and K4 are said to be not judged, never dropped silently", { timeout: 60_000 }, () => {
    const args = (root: string) => ["conform", "--target", `openclaw@${root}`, "--law", "no-progress-loops-are-blocked", "--json"];
    const before = loopsim(args(build(20)));
    const after = loopsim(args(build(25)));
    const cells = (stdout: string) => JSON.parse(stdout).targets[0].cells as Record<string, { status: string; reason?: string }>;
    // The release: the interleaved loop (K4's case) is blamed on K4 by its making.
    expect(before.code, before.stderr).toBe(1);
    expect(cells(before.stdout).K4?.status).toBe("fail");
    // The mutation: a plain loop wins the shrink (S1, D2). K1 and K4 were judged by nothing,
    // and the matrix and the headline say so instead of counting them as fixed.
    expect(after.code, after.stderr).toBe(1);
    const mutated = cells(after.stdout);
    expect(mutated.S1?.status).toBe("fail");
    for (const rule of ["K1", "K4"]) expect(mutated[rule]?.reason ?? "").toMatch(/^not judged: law no-progress-loops-are-blocked failed on S1, D2 first/);
    expect(after.stderr).toMatch(/fails 2 rules \(.*K1, K4 not judged: a check covering them failed on another rule first\)/);
  });
});

describe("scan", () => {
  it("reads a session whose first line outgrows the detection head (trace reads it too)", () => {
    const dir = tempDir();
    const long = JSON.stringify({ type: "call", runId: "r", callId: "c0", tool: "read", params: { path: "x".repeat(300_000) } });
    writeFileSync(join(dir, "long.jsonl"), `${long}\n${outcome(0)}\n`);
    const r = loopsim(["scan", dir, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).sessions.map((s: { id: string }) => s.id)).toEqual(["long.jsonl"]);
  });

  it("shows control characters escaped in its table and annotations", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "esc.jsonl"), loop("re\u001b[2Jad"));
    const r = loopsim(["scan", dir, "--config", configOn(), "--annotations"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain("\u001b");
    expect(r.stdout).toContain("re\\u{001b}[2Jad");
    expect(r.stderr).not.toContain("\u001b");
    expect(annotations(r.stderr)[0]).toContain("re\\u{001b}[2Jad");
  });

  it("gives sessions of the same relative name in two folders distinct JUnit cases", () => {
    const a = tempDir();
    const b = tempDir();
    writeFileSync(join(a, "x.jsonl"), loop());
    writeFileSync(join(b, "x.jsonl"), `${call(0)}\n${outcome(0)}\n`);
    const junit = join(tempDir(), "scan.xml");
    const r = loopsim(["scan", a, b, "--junit", junit]);
    expect(r.code, r.stderr).toBe(0);
    const names = [...readFileSync(junit, "utf8").matchAll(/<testcase name="([^"]*)"/g)].map((m) => m[1]);
    expect(names).toEqual([join(a, "x.jsonl"), join(b, "x.jsonl")]);
  });

  it("a --shard part says it is a slice, in the report and on stderr", () => {
    const dir = tempDir();
    for (const n of ["a", "b", "c"]) writeFileSync(join(dir, `${n}.jsonl`), `${call(0)}\n${outcome(0)}\n`);
    const r = loopsim(["scan", dir, "--shard", "1/2", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).shard).toEqual({ index: 1, of: 2, sessions: 2, listed: 3 });
    expect(r.stderr).toContain("shard 1/2: scanning 2 of the 3 sessions listed (a slice");
    expect(loopsim(["scan", dir, "--shard", "2/2"]).stdout).toContain("Shard 2 of 2: 1 of the 3 sessions listed");
  });
});

describe("merge, replay and flags", () => {
  it("merge names the inputs that differ and the file given twice", () => {
    const dir = tempDir();
    const tune = (shard: string, out: string, seed: string) => loopsim(["tune", "--agents", "3", "--grid", "warningThreshold=10", "--shard", shard, "--seed", seed, "--out", join(dir, out)]);
    expect(tune("1/2", "a", "1").code).toBe(0);
    expect(tune("2/2", "b", "2").code).toBe(0);
    const a = join(dir, "a", "partial-1-of-2.json");
    const differ = loopsim(["merge", a, join(dir, "b", "partial-2-of-2.json"), "--out", join(dir, "m")]);
    expect(differ.code).toBe(2);
    expect(differ.stderr).toMatch(/its inputs differ from .*partial-1-of-2\.json's in [a-z, ]*seed/);
    const twice = loopsim(["merge", a, a, "--out", join(dir, "m")]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain(`${a} is given twice`);
  });

  it("replay replays a scenario given twice once, and says so", () => {
    const file = join(import.meta.dirname, "../../scenarios/spec/enabled-false-silent.json");
    const r = loopsim(["replay", file, file, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).scenarios).toHaveLength(1);
    expect(r.stderr).toContain(`${file} is given twice; replaying it once`);
  });

  it("refuses flags that would do nothing: --path without --law, --probe without --against", () => {
    const path = loopsim(["conform", "--target", "reference", "--path", "1:2"]);
    expect(path.code).toBe(2);
    expect(path.stderr).toContain("--path needs --law");
    const probe = loopsim(["conform", "--target", "reference", "--probe", "repeat-3"]);
    expect(probe.code).toBe(2);
    expect(probe.stderr).toContain("--probe needs --against");
  });

  it("--shard 0/2 says that I counts from 1", () => {
    const r = loopsim(["scan", join(import.meta.dirname, "../../examples/six-identical-reads.jsonl"), "--shard", "0/2"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("I counts from 1 (the first shard is 1/2)");
  });

  it("targets outdated fails at once on a refused connection", () => {
    const started = process.hrtime.bigint();
    const r = loopsim(["targets", "outdated"], undefined, undefined, { npm_config_registry: "http://127.0.0.1:9/" });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("http://127.0.0.1:9 refused the connection");
    expect(seconds).toBeLessThan(10); // npm's own retries take about a minute
  }, 90_000);

  it("conform --against prints a progress line per probe when stderr is no terminal", () => {
    const version = "0.61.0";
    if (!existsSync(join(cacheRoot(), "runtimes", "gemini-cli", version))) {
      console.log(`SKIPPED: --against progress: gemini-cli@${version} is not in the cache (loopsim targets fetch gemini-cli@${version})`);
      return;
    }
    const r = loopsim(["conform", "--against", `gemini-cli@${version}`, "--probe", "repeat-3"]);
    expect(r.stderr).toContain(`loopsim: gemini-cli@${version}: probe 1/1 (repeat-3)\n`);
  }, 60_000);
});
