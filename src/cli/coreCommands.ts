// The commands that read traces, sessions and targets one at a time (trace, config, targets,
// conform, import, scan, scenario record): their options, registered on the program. Their help
// names every target, so this file loads the target registry; program.ts imports it only when
// one of them (or the whole help) may be wanted.
import { InvalidArgumentError, type Command } from "commander";
import { boundedInt, MAX_DEPTH, nonNegativeInt, refuseOptionConflicts } from "./options.js";
import { TARGET_HELP } from "./targetHelp.js";
import { LineWriter } from "../io/bufferedOutput.js";
import { CheckFailed, UserError } from "../io/errors.js";
import { ciOutputsOf, withCiOptions } from "./ciOptions.js";
import { FORMATS, type SessionFormat } from "../import/types.js";
import { FACT_HELP } from "../scenario/minimizeFact.js";
import { writeFileAtomic } from "../io/atomicWrite.js";
import { fetchableNamesHelp, isRefKind, runtimeNamesHelp } from "../targets/targetRef.js";
import { ORACLE_TARGET } from "../targets/reference.js";

function traceFormat(value: string): SessionFormat | "auto" | "trace" {
  return value === "trace" ? "trace" : sessionFormat(value);
}

function sessionFormat(value: string): SessionFormat | "auto" {
  if (value !== "auto" && !(FORMATS as readonly string[]).includes(value)) throw new InvalidArgumentError(`unknown format "${value}" (known: auto, ${FORMATS.join(", ")})`);
  return value as SessionFormat | "auto";
}

export function registerCoreCommands(program: Command): void {
  program
    .command("trace")
    .description("run a JSONL trace of call/outcome/compaction events through a loop guard (the reference by default)")
    .argument("<file>", "trace file (.jsonl), a session file of any format `import` reads, or - for stdin")
    .option("--config <file>", "OpenClaw config file (JSON or JSON5)")
    .option("--agent <id>", "agent whose agents.list override applies")
    .option("--json", "one JSON object per input event instead of the timeline")
    .option("--oracle", "short for --target oracle: the plain rescanning oracle")
    .option("--target <name>", TARGET_HELP, "reference")
    .option("--format <name>", `the input's format: auto or one of trace, ${FORMATS.join(", ")} (default: a file's is detected; stdin is a loopsim trace)`, traceFormat)
    .action(async (file: string, opts: { config?: string; agent?: string; json?: boolean; oracle?: boolean; target: string; format?: SessionFormat | "auto" | "trace" }) => {
      const { planTraceFile, runTraceFile } = await import("../commands/trace.js");
      const plan = await planTraceFile({ file, ...opts, target: opts.oracle === true ? ORACLE_TARGET.name : opts.target });
      // The end-of-run summary goes to stderr, so stdout stays one line per event (JSON or timeline).
      const writer = new LineWriter();
      let summary: string;
      try {
        summary = await runTraceFile(plan, (line) => writer.line(line));
      } finally {
        await writer.flush();
      }
      process.stderr.write(`loopsim: ${summary}\n`);
    });

  program
    .command("config")
    .description("validate a config file and show the effective tools.loopDetection, with repairs")
    .argument("<file>", "OpenClaw config file (JSON or JSON5)")
    .option("--agent <id>", "agent whose agents.list override applies")
    .option("--json", "machine-readable output")
    .action(async (file: string, opts: { agent?: string; json?: boolean }) => {
      const { checkConfigFile } = await import("../commands/config.js");
      const checked = checkConfigFile(file, opts.agent);
      // --json prints the document even for an invalid file (its issues are in it), then exits 2.
      if (opts.json === true) process.stdout.write(checked.json);
      if (checked.problem !== undefined) throw new UserError(checked.problem);
      if (opts.json !== true) process.stdout.write(checked.text);
    });

  const targets = program
    .command("targets")
    .description("list the built-in targets, the runtimes that run here (pinned and cached versions) and the OpenClaw releases in the cache")
    .option("--json", "machine-readable output")
    .action(async (opts: { json?: boolean }) => {
      const { listTargets } = await import("../commands/targets.js");
      const listing = listTargets();
      process.stdout.write(opts.json === true ? listing.json : listing.text);
    });
  targets
    .command("fetch")
    .description("fetch OpenClaw releases and other runtimes into the cache ahead of time (npm, once per version)")
    .argument("<releases...>", fetchableNamesHelp())
    .action(async (names: string[]) => {
      const { fetchTargets } = await import("../commands/targets.js");
      await fetchTargets(names, (line) => process.stdout.write(line + "\n"), (line) => process.stderr.write(line + "\n"));
    });
  targets
    .command("outdated")
    .description("ask the npm registry for runtime versions and OpenClaw releases newer than the committed reports cover (exit 1 if any, 2 if the registry cannot be asked)")
    .option("--json", "machine-readable output")
    .option("--reports <dir>", "the committed reports folder (default: the checkout's reports/)")
    .action(async (opts: { json?: boolean; reports?: string }) => {
      const { targetsOutdatedCommand } = await import("./targetsOutdatedOutput.js");
      await targetsOutdatedCommand({ json: opts.json === true, ...(opts.reports === undefined ? {} : { reportsDir: opts.reports }) });
    });

  withCiOptions(program
    .command("conform"))
    .description("check which SPEC rules each target keeps: scenarios, laws, probes and a differential run against the reference")
    .option("--target <name>", "target to check, repeatable (reference, zoo:NAME, a peer, openclaw@VERSION, openclaw@./my-build, ./adapter.mjs)", (value: string, previous: string[]) => [...previous, value], [] as string[])
    .option("--out <dir>", "write conformance.{md,json,html} and the counterexample scenarios here")
    .option("--json", "print the JSON report instead of the Markdown matrix")
    .option("--seed <n>", "seed of the laws and the differential run", nonNegativeInt("--seed"), 20261202)
    .option("--depth <n>", `multiplies the cases of every law and of the differential run (at most ${MAX_DEPTH})`, boundedInt("--depth", MAX_DEPTH), 1)
    .option("--law <name>", "run only this law (with --seed and --path, replays a shrunk failure)")
    .option("--path <path>", "fast-check path of a shrunk counterexample, printed by a failure")
    .option("--differential-seed <n>", "seed of the differential run (default: --seed)", nonNegativeInt("--differential-seed"))
    .option("--merge <reports...>", "render one report from several runs: their conformance.json files (one matrix), or their agreement.json files from --against (no target is run)")
    .option("--against <runtime>", `check a peer model against the real runtime on the pinned probes, repeatable (${runtimeNamesHelp()}); --target RUNTIME@V alone does the same`, (value: string, previous: string[]) => [...previous, value], [] as string[])
    .option("--probe <id>", "with --against: run only this probe, repeatable", (value: string, previous: string[]) => [...previous, value], [] as string[])
    .option("--parallel <n>", "with --against: driven CLIs run at once, each in its own sandbox (default: 2 per core, at most 4)", boundedInt("--parallel", 16))
    .option("--force", "overwrite the reports already in --out")
    .action(async (opts: { target: string[]; out?: string; json?: boolean; seed: number; depth: number; law?: string; path?: string; differentialSeed?: number; merge?: string[]; against: string[]; probe: string[]; parallel?: number; force?: boolean; junit?: string; annotations?: boolean }, command: Command) => {
      const force = opts.force === true;
      // Flags that would do nothing here are refused, never dropped silently.
      refuseOptionConflicts(command, [{ option: "path", needs: "law", why: "a fast-check path replays one law's shrunk failure (the failure prints both)" }]);
      const agreement = opts.against.length > 0 || opts.target.some((n: string) => isRefKind(n, "drivenRuntime"));
      if (opts.probe.length > 0 && !agreement) throw new UserError("--probe needs --against (or a driven runtime as --target): it picks the pinned probes of an agreement run");
      if (agreement && ciOutputsOf(opts) !== undefined && opts.merge === undefined) throw new UserError("--junit and --annotations report conformance matrices; an agreement run (--against) has no test cases to give them");
      const { conformCommand, mergeConformance } = await import("./conformOutput.js");
      if (opts.merge !== undefined) return mergeConformance(opts.merge, opts.out, opts.json === true, force, ciOutputsOf(opts));
      // A driven CLI cannot run SPEC's laws (thousands of traces, each a CLI run): for it,
      // conformance is its model's agreement with it on the pinned probes.
      const driven = opts.target.filter((name) => isRefKind(name, "drivenRuntime"));
      if (driven.length > 0 && opts.against.length === 0) {
        if (driven.length < opts.target.length) throw new UserError(`--target ${driven.join(", ")}: a driven runtime is checked against its model on the pinned probes (as --against); give it apart from other targets`);
        const { agreementCommand } = await import("./conformOutput.js");
        return agreementCommand({ against: driven, out: opts.out, json: opts.json === true, probes: opts.probe, force });
      }
      if (opts.against.length > 0) {
        if (opts.target.length > 1) throw new UserError("--against takes at most one --target (the model); without it each runtime is paired with the model of its name");
        const { agreementCommand } = await import("./conformOutput.js");
        return agreementCommand({ against: opts.against, model: opts.target[0], out: opts.out, json: opts.json === true, probes: opts.probe, parallel: opts.parallel, force });
      }
      await conformCommand({ targets: opts.target, out: opts.out, json: opts.json === true, seed: opts.seed, depth: opts.depth, law: opts.law, path: opts.path, differentialSeed: opts.differentialSeed, force, ci: ciOutputsOf(opts) });
    });

  program
    .command("import")
    .description("turn recorded sessions (OpenClaw/pi, Claude Code, Codex, SWE-agent, mini-swe-agent, Agent Data Protocol) into loopsim traces")
    .argument("<paths...>", "session files or folders of them")
    .option("--format <name>", `auto or one of ${FORMATS.join(", ")}`, sessionFormat, "auto" as SessionFormat | "auto")
    .option("--out <file|dir>", "the trace file (one session) or folder (several); stdout for one session without it")
    .option("--strict", "stop at the first unreadable file (default: report it, go on, exit 1)")
    .option("--force", "overwrite traces already in the --out folder")
    .action(async (paths: string[], opts: { format: SessionFormat | "auto"; out?: string; strict?: boolean; force?: boolean }) => {
      const { importSessions } = await import("../commands/import.js");
      const writer = new LineWriter();
      // One session's trace goes to stdout as it streams (flushed once whole: a session that fails half-way prints no more).
      const run = await importSessions(paths, { format: opts.format, out: opts.out, strict: opts.strict === true, force: opts.force === true }, { line: (text) => writer.line(text), end: () => writer.flush(), note: (text) => process.stderr.write(`loopsim: ${text}\n`) });
      if (run.bad.length > 0) {
        const { badFileLines } = await import("../import/sessionRefs.js");
        for (const line of badFileLines(run.bad)) process.stderr.write(`loopsim: ${line}\n`);
        throw new CheckFailed(`${run.bad.length} unreadable file${run.bad.length === 1 ? "" : "s"} skipped; ${run.written} sessions imported into ${opts.out ?? ""} (--strict stops at the first)`);
      }
    });

  withCiOptions(program
    .command("scan"))
    .description("run every session under the paths through a target: first warning, block and abort, repeats, a summary")
    .argument("<paths...>", "session files, traces, or folders of them")
    .option("--config <file>", "OpenClaw config file (JSON or JSON5)")
    .option("--agent <id>", "agent whose agents.list override applies")
    .option("--target <name>", TARGET_HELP, "reference")
    .option("--json", "print the JSON report")
    .option("--out <dir>", "write scan.{json,md,html} here")
    .option("--format <name>", `auto or one of ${FORMATS.join(", ")} (for - on stdin: auto detects)`, sessionFormat)
    .option("--strict", "stop at the first unreadable file (default: report it, go on, exit 1)")
    .option("--force", "overwrite scan.{json,md,html} already in --out")
    .option("--shard <i/n>", "scan shard I of N of the sessions (every N-th of the listing; or auto, auto/N: from the batch engine): a report of that slice")
    .action(async (paths: string[], opts: { config?: string; agent?: string; target: string; json?: boolean; out?: string; format?: SessionFormat | "auto"; strict?: boolean; force?: boolean; junit?: string; annotations?: boolean; shard?: string }) => {
      const { scanCommand } = await import("./scanOutput.js");
      const { format, ...rest } = opts;
      await scanCommand({ paths, ...rest, ...(format === undefined ? {} : { format }), ci: ciOutputsOf(opts) });
    });

  const scenario = program
    .command("scenario")
    .description("make scenario files from traces and sessions")
    // Bare `loopsim scenario` did nothing and exited 0; it is a mistake to be told about.
    .action(() => {
      throw new UserError("scenario needs a subcommand: record (see loopsim scenario --help)");
    });
  scenario
    .command("record")
    .description("record a scenario from any trace or session; --minimize cuts it to the smallest sub-trace keeping one fact")
    .argument("<input>", "a loopsim trace or a session file")
    .requiredOption("--out <file>", "the scenario file to write")
    .option("--config <file>", "OpenClaw config file (JSON or JSON5)")
    .option("--agent <id>", "agent whose agents.list override applies")
    .option("--target <name>", TARGET_HELP, "reference")
    .option("--minimize <fact>", FACT_HELP)
    .action(async (input: string, opts: { out: string; config?: string; agent?: string; target: string; minimize?: string }) => {
      const { planScenarioRecord, runScenarioRecord } = await import("../commands/scenarioRecord.js");
      const say = (line: string) => process.stderr.write(`loopsim: ${line}\n`);
      const run = await runScenarioRecord(await planScenarioRecord({ input, ...opts }), say);
      writeFileAtomic(opts.out, run.text);
      say(`wrote ${opts.out}: kept ${run.kept} of ${run.events} events${run.what}; ${Buffer.byteLength(run.text)} bytes`);
    });
}
