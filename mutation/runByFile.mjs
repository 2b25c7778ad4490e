#!/usr/bin/env node
// `npm run mutation [-- FILE|GROUP...] [--concurrency N]`: Stryker file by file over both groups of
// mutation/files.mjs (models/, and the miner's rules in src/realLoops/), or over the files or
// groups ("models", "miner") named, keeping each file's outcome in mutation/results/ as soon as its
// run ends, then the summary (mutation/summarize.mjs writes mutation/stryker-summary.md). A run cut
// off part-way still counts for every file it finished; `npm run mutation:resume` skips the files
// already done. `--concurrency N` goes to Stryker as it is (the configs use 2, both cores).
//
// Each file takes two passes. The first shares modules between test files (fast) and leaves out
// static mutants, those in code that runs once when a module loads: with shared modules they would
// never take effect (false survivors) or, loaded once under a mutant, taint every later run (false
// kills). The second pass runs just the lines holding static mutants with fresh modules for every
// run, and its verdicts replace the first pass's for those mutants.
//
// Every Stryker run gets a scratch folder of its own as its temp folder (TMPDIR), removed when
// that run ends, failed or not: the miner's tests make folders there (under the suite's
// globalSetup, which is in their config too), and a test runner Stryker kills on a timeout does
// not get to run the setup's teardown.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { groups, MINER_RULES, ROOT } from "./files.mjs";

const RESULTS = join(ROOT, "mutation", "results");
const args = process.argv.slice(2);
const again = args.includes("--again");
const concurrencyAt = args.indexOf("--concurrency");
const concurrency = concurrencyAt >= 0 ? ["--concurrency", args[concurrencyAt + 1]] : [];
const named = args.filter((a, i) => a !== "--again" && (concurrencyAt < 0 || (i !== concurrencyAt && i !== concurrencyAt + 1)));
const GROUPS = groups();
const STATIC_REASON = "Static mutant";

/** The result file of one source file: models/history/scanning.ts -> models__history__scanning.json. */
const resultName = (file) => `${file.replace(/\.ts$/, "").replaceAll("/", "__")}.json`;
const sameMutant = (a, b) => a.line === b.line && a.column === b.column && a.mutator === b.mutator && a.replacement === b.replacement;

/** The group a file belongs to, or undefined for a file neither group lists. */
const groupOf = (file) => GROUPS.find((g) => g.files.includes(file));

/** One Stryker run; the file's mutants from its JSON report, or undefined when it made none or failed. */
function stryker(file, mutate, extraArgs, env) {
  const group = groupOf(file);
  const scratch = mkdtempSync(join(tmpdir(), "loopsim-mutation-"));
  let run;
  try {
    run = spawnSync("npx", ["stryker", "run", group.strykerConfig, "--mutate", mutate, "--reporters", "json,clear-text,progress-append-only", ...concurrency, ...extraArgs], {
      cwd: ROOT,
      env: {
        ...process.env,
        TMPDIR: scratch,
        // A miner rule is judged by its own test files only (vitest.mutation.miner.config.ts).
        ...(file in MINER_RULES ? { LOOPSIM_MUTATION_TESTS: MINER_RULES[file].join(",") } : {}),
        ...env,
      },
      stdio: ["ignore", "pipe", "inherit"],
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  process.stdout.write(run.stdout ?? "");
  if (/with 0 mutant\(s\)/.test(run.stdout ?? "")) return [];
  if (run.status !== 0) return undefined;
  const report = JSON.parse(readFileSync(join(ROOT, "reports", "mutation", "mutation.json"), "utf8"));
  return (report.files[file]?.mutants ?? []).map((m) => ({
    line: m.location.start.line,
    column: m.location.start.column,
    endLine: m.location.end.line,
    mutator: m.mutatorName,
    replacement: m.replacement ?? "",
    status: m.status,
    ...(m.status === "Ignored" && m.statusReason !== undefined ? { reason: m.statusReason } : {}),
  }));
}

const files = (named.length > 0 ? named : GROUPS.map((g) => g.name)).flatMap((a) => GROUPS.find((g) => g.name === a)?.files ?? [a]);
const unknown = files.filter((f) => groupOf(f) === undefined);
if (unknown.length > 0) {
  process.stderr.write(`not in either group of mutation/files.mjs: ${unknown.join(", ")}\n`);
  process.exit(2);
}
mkdirSync(RESULTS, { recursive: true });
for (const file of files) {
  const target = join(RESULTS, resultName(file));
  if (!again && existsSync(target)) {
    process.stdout.write(`${file}: done before, skipped (--again to redo)\n`);
    continue;
  }
  process.stdout.write(`${file}: running Stryker, runtime mutants with shared modules\n`);
  const mutants = stryker(file, file, ["--ignoreStatic"], {});
  if (mutants === undefined) {
    process.stderr.write(`${file}: Stryker failed; nothing recorded for it\n`);
    continue;
  }
  const statics = mutants.filter((m) => m.status === "Ignored" && (m.reason ?? "").startsWith(STATIC_REASON));
  if (statics.length > 0) {
    const ranges = [...new Set(statics.map((m) => `${file}:${m.line}-${m.endLine}`))];
    process.stdout.write(`${file}: ${statics.length} static mutants, run again with fresh modules (${ranges.length} ranges)\n`);
    const rerun = stryker(file, ranges.join(","), [], { LOOPSIM_MUTATION_ISOLATE: "1" });
    if (rerun === undefined) {
      process.stderr.write(`${file}: the static pass failed; nothing recorded for it\n`);
      continue;
    }
    for (const m of statics) {
      const verdict = rerun.find((r) => sameMutant(r, m));
      if (verdict === undefined) continue;
      m.status = verdict.status;
      delete m.reason;
      m.static = true;
    }
  }
  mutants.sort((a, b) => a.line - b.line || a.column - b.column || (a.mutator < b.mutator ? -1 : a.mutator > b.mutator ? 1 : 0) || (a.replacement < b.replacement ? -1 : 1));
  // Written whole or not at all, like every other output of the project.
  // One mutant per line: small, and a rerun's diff shows exactly which verdicts moved.
  writeFileSync(`${target}.tmp`, `{"file": ${JSON.stringify(file)}, "mutants": [\n${mutants.map((m) => JSON.stringify(m)).join(",\n")}\n]}\n`);
  renameSync(`${target}.tmp`, target);
  process.stdout.write(`${file}: ${mutants.length} mutants recorded in ${relative(ROOT, target)}\n`);
}
spawnSync(process.execPath, [join(ROOT, "mutation", "summarize.mjs")], { cwd: ROOT, stdio: "inherit" });
