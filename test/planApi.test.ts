// tune and compare as a library runs them (issue 36, item 2): the plan functions src/api exports
// make every check the command line makes, before anything runs, so a library caller meets the
// same refusals; and the plan says where a run writes (tune --json without --out: nowhere).
// In-process and without running a sweep, so it stays cheap.
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { checkConfigFile, importSessions, REFERENCE_TARGET, resolveConfig, runSimulation, planField, replayFieldCell, runField, mergeAgreementReports, planAgreement, mergeConformanceReports, planConform, runConform, fetchTargets, fitChangingArgs, listTargets, planTraceFile, runTraceFile, planCalibrate, planCompare, planLoops, planReplay, planScan, planScenarioRecord, planTune, runCalibrate, runLoops, runReplay, runScan, runScenarioRecord, writePieces, type Pieces } from "../src/api/index.js";
import { UserError } from "../src/io/errors.js";
import { loopsim, tempDir } from "./cli/run.js";
import { computeMetrics } from "../src/evaluation/metrics.js";
import type { ConfigRow } from "../src/evaluation/evaluate.js";
import { recommend } from "../src/tune/recommend.js";

const tune = { population: "default", agents: 24, seed: 1, grid: "warningThreshold=5,8" };

describe("planTune and planCompare", () => {
  it("refuse out-of-range numbers a library caller hands over, as the CLI's parsers do", async () => {
    await expect(planTune({ ...tune, agents: 0, json: true })).rejects.toThrow(/--agents must be a whole number from 1 to 100000 \(got 0\)/);
    await expect(planTune({ ...tune, seed: -1, json: true })).rejects.toThrow(/--seed must be a whole number/);
    await expect(planCompare({ targets: "all", population: "default", agents: 24, seed: 1, workers: 1000 })).rejects.toThrow(/--workers must be a whole number from 1 to 256/);
    await expect(planTune({ ...tune, labels: "x.json", json: true })).rejects.toThrow(/--labels needs --sessions/);
    await expect(planCompare({ targets: "all", population: "default", agents: 24, seed: 1, labelKey: "instance" })).rejects.toThrow(/--label-key needs --labels/);
    await expect(planTune(undefined as never)).rejects.toThrow(/^planTune: args must be an object/);
    await expect(planCompare(null as never)).rejects.toThrow(/^planCompare: args must be an object/);
  });

  it("say where the report goes: --out, else reports/latest, and with --json alone nowhere", async () => {
    expect((await planTune({ ...tune, json: true })).out).toBeUndefined();
    expect((await planTune({ ...tune, json: true, out: "/tmp/somewhere-not-made" })).out).toBe("/tmp/somewhere-not-made");
    expect((await planTune({ ...tune, force: true })).out).toBe("reports/latest");
  });

  it("parse the grid and the reproduce line once, and name skipped points as notices rather than printing them", async () => {
    const plan = await planTune({ ...tune, grid: "warningThreshold=5,30", json: true });
    expect(plan.inputs.reproduce).toBe('loopsim tune --seed 1 --agents 24 --grid "warningThreshold=5,30"');
    expect(plan.inputs.configs.map((c) => c.label)).toEqual(["OpenClaw defaults", "warningThreshold=5"]);
    expect(plan.notices).toHaveLength(1);
    expect(plan.notices[0]).toMatch(/1 of 2 points skipped/);
  });
});

/** A document's text, read back from its spooled pieces as a library caller would. */
async function textOf(pieces: Pieces): Promise<string> {
  const chunks: Buffer[] = [];
  await writePieces(new Writable({ write: (chunk: Buffer, _encoding, done) => (chunks.push(Buffer.from(chunk)), done()) }), pieces);
  return Buffer.concat(chunks).toString("utf8");
}

const REAL_LOOPS = "test/fixtures/real-loops";

describe("planLoops and runLoops, planScan and runScan", () => {
  it("planLoops refuses what the command line refuses, naming the argument, before anything is read or made", () => {
    const refused = (args: unknown, message: RegExp) => {
      let thrown: unknown;
      try {
        planLoops(args as never);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, String(message)).toBeInstanceOf(UserError);
      expect((thrown as UserError).exitCode).toBe(2);
      expect((thrown as Error).message).toMatch(message);
    };
    refused(undefined, /^loops: the arguments must be an object/);
    refused({ paths: REAL_LOOPS }, /^paths must be a list of paths \(got string\)/);
    refused({ paths: [] }, /name the sessions to mine/);
    refused({ paths: [REAL_LOOPS], min: Number.NaN }, /^--min NaN: .* from 2 to 10000/);
    refused({ paths: [REAL_LOOPS], min: 1 }, /^--min 1: a stretch repeats something/);
    refused({ paths: [REAL_LOOPS], min: "3" }, /^--min must be a whole number from 2 to 10000 \(got string\)/);
    refused({ paths: [REAL_LOOPS], merge: ["parts"] }, /loops --merge takes only the parts/);
    refused({ paths: [REAL_LOOPS], shard: "0/2" }, /--shard/);
    refused({ paths: [REAL_LOOPS], json: "yes" }, /^--json must be true or false \(got string\)/);
    const out = join(tempDir(), "not-made");
    refused({ paths: [REAL_LOOPS], out, judgements: join(out, "missing.json") }, /missing\.json/);
    expect(existsSync(out)).toBe(false);
  });

  it("runLoops hands back the catalogue the command line prints, byte for byte, and writes nothing", async () => {
    const out = tempDir();
    const plan = planLoops({ paths: [REAL_LOOPS], min: 3, out });
    const run = await runLoops(plan);
    expect(run.kind).toBe("catalogue");
    if (run.kind !== "catalogue") return;
    expect(readdirSync(out)).toEqual([]);
    const cli = loopsim(["loops", REAL_LOOPS, "--min", "3", "--out", out, "--json"]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(run.json).toBe(cli.stdout);
    expect(run.markdown.split("\n")[0]).toBe(loopsim(["loops", REAL_LOOPS, "--min", "3", "--out", out, "--force"]).stdout.split("\n")[0]);
    const shard = await runLoops(planLoops({ paths: [REAL_LOOPS], shard: "1/2" }));
    expect(shard.kind === "partial" && shard.sessions).toBe(2);
  });

  it("runScan runs a plan into the documents scan writes, and the plan checks the target once", async () => {
    await expect(planScan({ paths: [REAL_LOOPS], target: "referense" })).rejects.toThrow(/did you mean "reference"/);
    await expect(planScan({ paths: REAL_LOOPS } as never)).rejects.toThrow(/^scan: paths must be a list/);
    const plan = await planScan({ paths: [REAL_LOOPS], json: true });
    let json = "";
    const run = await runScan(plan, { documents: async (documents) => void (json = await textOf(documents.json)) });
    expect(run.sessions).toBe(3);
    expect(run.bad).toEqual([]);
    const cli = loopsim(["scan", REAL_LOOPS, "--json"]);
    expect(json).toBe(cli.stdout);
  });
});

describe("planCalibrate and runCalibrate", () => {
  it("refuse what the command line refuses, naming the flag, before a session is read", () => {
    expect(() => planCalibrate({ paths: [REAL_LOOPS], fit: true })).toThrow(/^--fit needs --out FILE/);
    expect(() => planCalibrate({ paths: [REAL_LOOPS], stuckShare: 0.2 })).toThrow(/^--stuck-share applies to --fit/);
    expect(() => planCalibrate({ paths: [REAL_LOOPS], stuckShare: 2, fit: true })).toThrow(/^--stuck-share must be a number from 0 to 1 \(got 2\)/);
    expect(() => planCalibrate({ paths: [REAL_LOOPS], agents: 0 })).toThrow(/^--agents must be a whole number from 1 to 100000 \(got 0\)/);
    expect(() => planCalibrate({ paths: [REAL_LOOPS], seed: 1.5 })).toThrow(/^--seed must be a whole number/);
    expect(() => planCalibrate({ fitReaction: true })).toThrow(/^--fit-reaction: name the recorded sessions/);
    expect(() => planCalibrate({})).toThrow(/^name the recorded sessions to calibrate against/);
    expect(() => planCalibrate({ paths: [REAL_LOOPS], inject: "repeat" })).toThrow(/--inject/);
    expect(() => planCalibrate(null as never)).toThrow(UserError);
  });

  it("runCalibrate hands back the report the command line prints, byte for byte, and writes nothing", async () => {
    const out = join(tempDir(), "not-made");
    const run = await runCalibrate(planCalibrate({ paths: [REAL_LOOPS], agents: 24, out }));
    expect(existsSync(out)).toBe(false);
    expect(run.kind).toBe("report");
    if (run.kind !== "report") return;
    expect(run.report.sessions.files).toBe(3);
    expect(run.json).toBe(loopsim(["calibrate", REAL_LOOPS, "--agents", "24", "--json"]).stdout);
    const reaction = await runCalibrate(planCalibrate({ paths: [REAL_LOOPS], fitReaction: true }));
    expect(reaction.kind === "reaction" && reaction.fit.interventions).toBe(0);
  });
});

describe("planReplay and runReplay", () => {
  it("refuse an unknown target and a path that is not a list; hand back the results the CLI prints, and with update the new texts, writing nothing", async () => {
    await expect(planReplay({ paths: ["scenarios/upstream"], target: "referense" })).rejects.toThrow(/did you mean "reference"/);
    await expect(planReplay({ paths: "scenarios/upstream" } as never)).rejects.toThrow(/^replay: paths must be a list/);
    const dir = join(tempDir(), "upstream");
    cpSync("scenarios/upstream", dir, { recursive: true });
    const before = readdirSync(dir).map((f) => readFileSync(join(dir, f), "utf8"));
    const run = await runReplay(await planReplay({ paths: [dir], update: true, target: "zoo:no-run-scoping" }));
    expect(run.counts.updated).toBeGreaterThan(0);
    expect(run.updates.map((u) => u.file)).toEqual(run.outcomes.filter((o) => o.status === "updated").map((o) => o.file));
    expect(readdirSync(dir).map((f) => readFileSync(join(dir, f), "utf8"))).toEqual(before);
    const plain = await runReplay(await planReplay({ paths: [dir] }));
    const cli = loopsim(["replay", dir, "--json"]);
    expect(JSON.parse(cli.stdout).scenarios).toEqual(JSON.parse(JSON.stringify(plain.outcomes)));
  });
});

describe("planScenarioRecord and runScenarioRecord", () => {
  it("refuse a fact the target cannot show before reading; record and minimise into the text the CLI writes, writing nothing", async () => {
    await expect(planScenarioRecord({ input: "x.jsonl", out: "s.json", minimize: "first-block:pingPong" })).rejects.toThrow(/^--minimize first-block:pingPong: unknown detector of reference "pingPong"/);
    await expect(planScenarioRecord({ input: "x.jsonl", out: "s.json", agent: "a" })).rejects.toThrow(/^--agent a needs --config FILE/);
    const dir = tempDir();
    const loop = Array.from({ length: 25 }, (_, i) => [{ type: "call", runId: "r", callId: `c${i}`, tool: "read", params: { path: "a" } }, { type: "outcome", runId: "r", callId: `c${i}`, tool: "read", params: { path: "a" }, result: "same" }].map((e) => JSON.stringify(e)).join("\n")).join("\n") + "\n";
    writeFileSync(join(dir, "loop.jsonl"), loop);
    writeFileSync(join(dir, "on.json5"), "{ tools: { loopDetection: { enabled: true, warningThreshold: 2, criticalThreshold: 4 } } }");
    const args = { input: join(dir, "loop.jsonl"), out: join(dir, "s.json"), config: join(dir, "on.json5"), minimize: "first-block" };
    const notes: string[] = [];
    const run = await runScenarioRecord(await planScenarioRecord(args), (line) => notes.push(line));
    expect(existsSync(args.out)).toBe(false);
    expect(notes[0]).toMatch(/25 calls, 25 outcomes/);
    expect(run.kept).toBeLessThan(run.events);
    const cli = loopsim(["scenario", "record", args.input, "--out", args.out, "--config", args.config, "--minimize", "first-block"]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(readFileSync(args.out, "utf8")).toBe(run.text);
  });
});

describe("checkConfigFile and fitChangingArgs", () => {
  it("hand back what `loopsim config` and `fit-changing-args` print, and the problem an invalid file exits 2 with", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "ok.json5"), "{ tools: { loopDetection: { enabled: true, warningThreshold: 5 } } }");
    writeFileSync(join(dir, "bad.json5"), '{ tools: { loopDetection: { enabled: "yes" } } }');
    const ok = checkConfigFile(join(dir, "ok.json5"));
    expect(ok.problem).toBeUndefined();
    expect(ok.text).toBe(loopsim(["config", join(dir, "ok.json5")]).stdout);
    const bad = checkConfigFile(join(dir, "bad.json5"));
    const cli = loopsim(["config", join(dir, "bad.json5"), "--json"]);
    expect(cli.code).toBe(2);
    expect(bad.json).toBe(cli.stdout);
    expect(cli.stderr).toContain(bad.problem as string);
    const fit = await fitChangingArgs({ paths: [REAL_LOOPS] });
    expect(fit.text).toBe(loopsim(["fit-changing-args", REAL_LOOPS]).stdout);
    writeFileSync(join(dir, "p.json"), "{}");
    await expect(fitChangingArgs({ paths: [REAL_LOOPS], out: join(dir, "p.json") })).rejects.toThrow(/exists; pass --force/);
  });
});

describe("planTraceFile and runTraceFile", () => {
  it("refuse a --format the content contradicts; stream the lines `loopsim trace` prints, and its summary", async () => {
    await expect(planTraceFile({ file: "test/fixtures/swe-agent/discussion-loop.traj", format: "trace" })).rejects.toThrow(/--format trace, but the content is a swe-agent session/);
    await expect(planTraceFile({ file: "x.jsonl", target: "referense" })).rejects.toThrow(/did you mean "reference"/);
    for (const args of [["test/fixtures/real-loops/javac-loop.jsonl", "--json", "--target", "goose:3"], ["test/fixtures/swe-agent/discussion-loop.traj"]]) {
      const lines: string[] = [];
      const summary = await runTraceFile(await planTraceFile({ file: args[0] as string, json: args.includes("--json"), ...(args.includes("--target") ? { target: "goose:3" } : {}) }), (line) => void lines.push(line));
      const cli = loopsim(["trace", ...args]);
      expect(lines.join("\n") + "\n").toBe(cli.stdout);
      expect(cli.stderr).toBe(`loopsim: ${summary}\n`);
    }
  });
});

describe("listTargets and fetchTargets", () => {
  it("list what `loopsim targets` prints; refuse a name with nothing to fetch before fetching anything", async () => {
    const cli = loopsim(["targets"]);
    expect(listTargets().text).toBe(cli.stdout);
    expect(JSON.parse(listTargets().json)).toEqual(JSON.parse(loopsim(["targets", "--json"]).stdout));
    const ready: string[] = [];
    await expect(fetchTargets(["openclaw@2026.9.6", "reference"], (line) => ready.push(line))).rejects.toThrow(/^targets fetch reference: only shipped releases and runtimes are fetched/);
    expect(ready).toEqual([]);
    await expect(fetchTargets([], () => undefined)).rejects.toThrow(/^targets fetch needs at least one of/);
  });
});

describe("planConform and runConform", () => {
  it("refuse an unknown law or target before anything runs; run into the matrix the CLI prints, and merge it", async () => {
    await expect(planConform({ law: "bogus" })).rejects.toThrow(/^--law unknown law "bogus"/);
    await expect(planConform({ targets: "reference" } as never)).rejects.toThrow(/^--target: targets must be a list/);
    await expect(planConform({ targets: ["referense"] })).rejects.toThrow(/^--target: unknown target "referense"/);
    const law = "fresh-run-starts-from-zero";
    const run = runConform(await planConform({ targets: ["zoo:no-run-scoping"], law }));
    expect(run.failing).toMatch(/^zoo:no-run-scoping fails \d+ rules?/);
    const cli = loopsim(["conform", "--target", "zoo:no-run-scoping", "--law", law, "--json"]);
    expect(cli.code).toBe(1);
    expect(JSON.parse(run.json)).toEqual({ ...JSON.parse(cli.stdout), loopsimVersion: run.report.loopsimVersion });
    const dir = tempDir();
    writeFileSync(join(dir, "a.json"), run.json);
    expect(mergeConformanceReports([join(dir, "a.json")], undefined).markdown).toBe(loopsim(["conform", "--merge", join(dir, "a.json")]).stdout);
  });
});

describe("planAgreement and mergeAgreementReports", () => {
  it("refuse a name that is no runtime and an unknown probe before anything runs; merge into the report the CLI prints", () => {
    expect(() => planAgreement({ against: ["bogus"], json: false })).toThrow(/^--against bogus: not a real runtime/);
    expect(() => planAgreement({ against: [], json: false })).toThrow(/^--against: name at least one runtime/);
    expect(() => planAgreement({ against: ["gemini-cli@0.61.0"], probes: ["nope"], json: false })).toThrow(/^--probe nope: no such probe/);
    const notes: string[] = [];
    const merged = mergeAgreementReports(["reports/peers/agreement.json", "reports/peers/agreement.json"], undefined, false, (line) => notes.push(line));
    expect(notes.length).toBeGreaterThan(0);
    expect(merged.markdown).toBe(loopsim(["conform", "--merge", "reports/peers/agreement.json", "reports/peers/agreement.json"]).stdout);
  });
});

describe("planField, runField and replayFieldCell", () => {
  it("check before running, run into the matrix the CLI prints and replay a cell as it does, writing nothing", async () => {
    const file = "scenarios/field/cline-10358.json";
    expect(() => planField({ paths: [file], targets: ["reference"], json: true, force: false, check: true, fetch: false, driven: "own" })).toThrow(/^--check compares with DIR\/field\.json: give --out DIR/);
    const out = join(tempDir(), "not-made");
    const run = await runField(planField({ paths: [file], targets: ["reference", "goose"], out, json: true, force: false, check: false, fetch: false, driven: "own" }));
    expect(existsSync(out)).toBe(false);
    expect(run.kind === "report" && run.json).toBe(loopsim(["field", file, "--target", "reference", "--target", "goose", "--out", out, "--json"]).stdout);
    const cell = await replayFieldCell(file, { target: "goose", json: false, fetch: false, expect: "fixed" });
    const cli = loopsim(["field", "replay", file, "--target", "goose", "--expect", "fixed"]);
    expect(cell.text).toBe(cli.stdout);
    expect(cli.code).toBe(cell.failing === undefined ? 0 : 1);
  });
});

describe("runSimulation", () => {
  it("gives the lines `loopsim simulate` prints, the same for the same seed", () => {
    const options = { family: "changing-args-stuck", seed: 7, model: "small" as const, calls: 80, config: resolveConfig(), json: false, target: REFERENCE_TARGET };
    const run = runSimulation(options);
    expect(run.lines.join("\n") + "\n").toBe(loopsim(["simulate", "--family", "changing-args-stuck", "--seed", "7"]).stdout);
    expect(runSimulation(options)).toEqual(run);
    expect(() => runSimulation({ ...options, family: "nope" })).toThrow(/^runSimulation: options\.family unknown family "nope"/);
    expect(() => runSimulation({ ...options, model: "big" as never })).toThrow(/^runSimulation: options\.model unknown model preset "big"/);
    expect(() => runSimulation({ ...options, calls: 0 })).toThrow(/^runSimulation: options\.calls must be a whole number from 1/);
  });
});

describe("importSessions", () => {
  it("streams one session's trace to the caller as `loopsim import` prints it, and notes its summary", async () => {
    const file = "test/fixtures/swe-agent/discussion-loop.traj";
    const lines: string[] = [];
    const notes: string[] = [];
    const run = await importSessions([file], { format: "auto" }, { line: (text) => void lines.push(text), note: (text) => notes.push(text) });
    const cli = loopsim(["import", file]);
    expect(lines.join("\n") + "\n").toBe(cli.stdout);
    expect(cli.stderr).toBe(notes.map((n) => `loopsim: ${n}\n`).join(""));
    expect(run.bad).toEqual([]);
    await expect(importSessions(["test/fixtures/swe-agent"], { format: "auto" }, { line: () => undefined })).rejects.toThrow(/several sessions need --out DIR/);
    await expect(importSessions("x" as never, { format: "auto" }, { line: () => undefined })).rejects.toThrow(/^importSessions: paths must be a list/);
  });
});

describe("the commands print nothing", () => {
  it("no file in src/commands writes to stdout or stderr: the CLI (src/cli) prints what they hand back", () => {
    const dir = join(import.meta.dirname, "..", "src", "commands");
    const printing = readdirSync(dir).filter((f) => /process\.(stdout|stderr)|console\.(log|error|warn)/.test(readFileSync(join(dir, f), "utf8")));
    expect(printing).toEqual([]);
  });
});

describe("the evidence line of a pick on real sessions", () => {
  const row = (index: number): ConfigRow => {
    const base = computeMetrics([]);
    return { index, label: `r${index}`, block: {}, metrics: { ...base, stuck: { ...base.stuck, agents: 4 } } };
  };
  it("names injected loops only when loops were injected", () => {
    const rows = [row(0), row(1)];
    const [mined] = recommend(rows, rows[0] as ConfigRow, [], "grounded", { injected: false, mined: true });
    expect(mined?.evidence).toMatch(/stuck stretches mined from the real sessions \(nothing injected\)/);
    expect(mined?.evidence).not.toMatch(/injected loop|the loops are injected/);
    const [none] = recommend(rows, rows[0] as ConfigRow, [], "grounded", { injected: false, mined: false });
    expect(none?.evidence).toMatch(/no loop was injected/);
    const [injected] = recommend(rows, rows[0] as ConfigRow, [], "grounded", { injected: true, mined: false });
    expect(injected?.evidence).toMatch(/real sessions with an injected loop/);
  });
});

describe("the options tune and compare share", () => {
  it("are declared once: both commands take every shared flag, with the same parsing", async () => {
    const { Command } = await import("commander");
    const { registerSimulationCommands } = await import("../src/cli/simulationCommands.js");
    const program = new Command();
    registerSimulationCommands(program);
    const flags = (name: string) => new Set(program.commands.find((c) => c.name() === name)?.options.map((o) => o.long) ?? []);
    const tuneFlags = flags("tune");
    const compareFlags = flags("compare");
    const shared = ["--population", "--agents", "--seed", "--sessions", "--labels", "--label-key", "--label-map", "--strict", "--out", "--workers", "--shard", "--by", "--force", "--json", "--inject", "--reaction", "--loops", "--outcome-labels", "--stretches", "--reaction-grid"];
    for (const flag of shared) {
      expect(tuneFlags.has(flag), `tune ${flag}`).toBe(true);
      expect(compareFlags.has(flag), `compare ${flag}`).toBe(true);
    }
    // tune's --out has no commander default: without it, --json alone writes nothing (planTune decides).
    expect(program.commands.find((c) => c.name() === "tune")?.options.find((o) => o.long === "--out")?.defaultValue).toBeUndefined();
  });
});
